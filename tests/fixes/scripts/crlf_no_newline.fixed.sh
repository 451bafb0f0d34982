#!/bin/bash
# launch GRPO
# >>> ascendrl fix >>>
source /usr/local/Ascend/ascend-toolkit/set_env.sh
export USE_OPTIMIZED_MODEL=0
# <<< ascendrl fix <<<
export VLLM_ASCEND_ENABLE_NZ=0 # default
python3 -m verl.trainer.main_ppo trainer.device=npu