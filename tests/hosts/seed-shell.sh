# The seed host's shell for the README's `check` sample: CANN and NNAL sourced, USE_OPTIMIZED_MODEL=0,
# NZ left on (the seed's first failure). Read by `check --env-file`, never run; the two set_env.sh
# paths are read under --root (tests/hosts/seed).
source /usr/local/Ascend/ascend-toolkit/set_env.sh
source /usr/local/Ascend/nnal/atb/set_env.sh
export USE_OPTIMIZED_MODEL=0
