# Cross-compiling for Cortex-M with Debian's gcc-arm-none-eabi (docs/embedded.md). Included by
# arm-none-eabi-m4.cmake and arm-none-eabi-m55.cmake, which set BURN_ARM_CPU_FLAGS first.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_ASM_COMPILER arm-none-eabi-gcc)
# No OS to run test programs on: compiler checks build a static library instead.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "${BURN_ARM_CPU_FLAGS} -ffunction-sections -fdata-sections")
# -Wno-psabi: GCC notes that the ABI of passing initializer_list changed in GCC 7.1, on every call.
set(CMAKE_CXX_FLAGS_INIT "${BURN_ARM_CPU_FLAGS} -ffunction-sections -fdata-sections -fno-threadsafe-statics -Wno-psabi")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-Wl,--gc-sections")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
