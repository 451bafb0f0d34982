# Fixture of NNAL's nnal/atb/set_env.sh with --cxx_abi=1, as the CANN 8.5.0 image sources it.
export ATB_HOME_PATH=/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_1
export LD_LIBRARY_PATH=${ATB_HOME_PATH}/lib:${LD_LIBRARY_PATH}
