# Fixture of NNAL's nnal/atb/set_env.sh (default --cxx_abi=0 in the CANN 8.3.rc1 image): ATB_HOME_PATH
# and the library path, as the image lists them (Ascend/cann-container-image 8.3.rc1 Dockerfile).
export ATB_HOME_PATH=/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_0
export LD_LIBRARY_PATH=${ATB_HOME_PATH}/lib:${ATB_HOME_PATH}/examples:${ATB_HOME_PATH}/tests/atbopstest:${LD_LIBRARY_PATH}
export PATH=${ATB_HOME_PATH}/bin:${PATH}
export LCCL_DETERMINISTIC=0
export LCCL_PARALLEL=0
