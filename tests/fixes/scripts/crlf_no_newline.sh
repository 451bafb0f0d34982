#!/bin/bash
# launch GRPO
export VLLM_ASCEND_ENABLE_NZ=1 # default
python3 -m verl.trainer.main_ppo trainer.device=npu