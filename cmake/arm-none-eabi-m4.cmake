# Cortex-M4F: Thumb-2 with the DSP extension and the single-precision FPU (FPv4-SP, hard-float ABI).
set(BURN_ARM_CPU_FLAGS "-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16")
include(${CMAKE_CURRENT_LIST_DIR}/arm-none-eabi.cmake)
