# Cortex-M55: Armv8.1-M with Helium (MVE) for integers and floats (MVE-F) and the FPU, hard-float ABI.
set(BURN_ARM_CPU_FLAGS "-mcpu=cortex-m55 -mthumb -mfloat-abi=hard")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
