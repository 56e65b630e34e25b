# The CUDA backend (src/backends/cuda). BURN_CUDA=AUTO builds it when nvcc is found, ON requires it.
# Binaries link the CUDA runtime statically (it opens libcuda lazily), so they start on machines
# without a GPU or driver; never link CUDA::cuda_driver. Host compiler: CMAKE_CUDA_HOST_COMPILER
# (defaults to the C++ compiler).
set(BURN_HAVE_CUDA OFF)
if(NOT BURN_CUDA STREQUAL "OFF")
  include(CheckLanguage)
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc CACHE FILEPATH "nvcc")
  endif()
  if(NOT CMAKE_CUDA_HOST_COMPILER AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(CMAKE_CUDA_HOST_COMPILER ${CMAKE_CXX_COMPILER} CACHE FILEPATH "nvcc host compiler")
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    enable_language(CUDA)
    find_package(CUDAToolkit)
  endif()
  if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND AND TARGET CUDA::cublas)
    set(BURN_HAVE_CUDA ON)
    message(STATUS "burn: CUDA backend (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, archs ${CMAKE_CUDA_ARCHITECTURES})")
  elseif(BURN_CUDA STREQUAL "ON")
    message(FATAL_ERROR "BURN_CUDA=ON but the CUDA toolkit (nvcc, cudart, cuBLAS) was not found")
  else()
    message(STATUS "burn: CUDA toolkit not found, building without the CUDA backend")
  endif()
endif()

# CMake 3.25 has no CUDA20 flag table (newer CMake does).
if(BURN_HAVE_CUDA AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA" AND NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()

function(burn_add_cuda_backend target)
  if(NOT BURN_HAVE_CUDA)
    return()
  endif()
  file(GLOB _cu CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/backends/cuda/*.cu
       ${PROJECT_SOURCE_DIR}/src/backends/cuda/*.cpp)
  list(FILTER _cu EXCLUDE REGEX ".*_test\\.cpp$")
  target_sources(${target} PRIVATE ${_cu})
  set_property(TARGET ${target} PROPERTY CUDA_STANDARD 20)
  set_property(TARGET ${target} PROPERTY CUDA_STANDARD_REQUIRED ON)
  target_compile_definitions(${target} PUBLIC $<BUILD_INTERFACE:BURN_HAVE_CUDA=1>)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall -Xcudafe=--diag_suppress=20012 -Xcudafe=--diag_suppress=186>)
  target_link_libraries(${target} PRIVATE CUDA::cudart_static CUDA::cublas)
endfunction()
