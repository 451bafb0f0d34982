# Fixture of CANN 8.5.0's cann/set_env.sh: same variables as 8.3, pointing at the versioned install
# (Ascend/cann-container-image, cann/8.5.0-910b-ubuntu22.04-py3.11/Dockerfile).
export ASCEND_TOOLKIT_HOME=/usr/local/Ascend/cann-8.5.0
export LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64/common:/usr/local/Ascend/driver/lib64/driver:${ASCEND_TOOLKIT_HOME}/lib64:${LD_LIBRARY_PATH}
export ASCEND_AICPU_PATH=${ASCEND_TOOLKIT_HOME}
export ASCEND_OPP_PATH=${ASCEND_TOOLKIT_HOME}/opp
export ASCEND_HOME_PATH=${ASCEND_TOOLKIT_HOME}
