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

# cuDNN (convolutions): BURN_CUDNN=AUTO compiles the cuDNN path when cudnn.h is found (the toolkit's
# include dir, CUDNN_ROOT, or the nvidia-cudnn Python wheel's), ON requires it. Nothing links to cuDNN:
# libcudnn.so.9 is opened with dlopen at the first convolution (src/backends/cuda/cudnn_conv.cpp).
set(BURN_CUDNN "AUTO" CACHE STRING "cuDNN convolutions in the CUDA backend (loaded at run time): AUTO, ON or OFF")
set(BURN_HAVE_CUDNN OFF)
if(BURN_HAVE_CUDA AND NOT BURN_CUDNN STREQUAL "OFF")
  set(_cudnn_hints ${CUDAToolkit_INCLUDE_DIRS})
  if(DEFINED ENV{CUDNN_ROOT})
    list(APPEND _cudnn_hints $ENV{CUDNN_ROOT}/include)
  endif()
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(Python3_Interpreter_FOUND)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import nvidia.cudnn as m; print(list(m.__path__)[0])"
                    OUTPUT_VARIABLE _cudnn_wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(_cudnn_wheel)
      list(APPEND _cudnn_hints ${_cudnn_wheel}/include)
    endif()
  endif()
  find_path(BURN_CUDNN_INCLUDE_DIR cudnn.h HINTS ${_cudnn_hints})
  if(BURN_CUDNN_INCLUDE_DIR)
    set(BURN_HAVE_CUDNN ON)
    find_library(BURN_CUDNN_LIBRARY_FILE NAMES libcudnn.so.9 cudnn64_9 cudnn
                 HINTS ${BURN_CUDNN_INCLUDE_DIR}/../lib ${BURN_CUDNN_INCLUDE_DIR}/../lib64 ${CUDAToolkit_LIBRARY_DIR})
    message(STATUS "burn: cuDNN convolutions (cudnn.h in ${BURN_CUDNN_INCLUDE_DIR}, loaded at run time)")
  elseif(BURN_CUDNN STREQUAL "ON")
    message(FATAL_ERROR "BURN_CUDNN=ON but cudnn.h was not found (set CUDNN_ROOT or BURN_CUDNN_INCLUDE_DIR)")
  else()
    message(STATUS "burn: cudnn.h not found, CUDA convolutions use im2col + cuBLAS only")
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
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall -Xcudafe=--diag_suppress=20012 -Xcudafe=--diag_suppress=186>)
  # dl: libnvidia-ml.so.1 (GPU utilisation, src/backends/cuda/nvml.cpp) and libcudnn are opened at run time.
  target_link_libraries(${target} PRIVATE CUDA::cudart_static CUDA::cublas CUDA::cublasLt ${CMAKE_DL_LIBS})
  if(BURN_HAVE_CUDNN)
    # Only the cudnn_*.cpp files see cuDNN (headers only; the library is opened at run time).
    set(_cudnn_defs BURN_HAVE_CUDNN=1)
    if(BURN_CUDNN_LIBRARY_FILE)
      get_filename_component(_cudnn_real ${BURN_CUDNN_LIBRARY_FILE} REALPATH)
      list(APPEND _cudnn_defs "BURN_CUDNN_LIBRARY_HINT=\"${_cudnn_real}\"")
    endif()
    set_source_files_properties(${PROJECT_SOURCE_DIR}/src/backends/cuda/cudnn_conv.cpp
      ${PROJECT_SOURCE_DIR}/src/backends/cuda/cudnn_library.cpp DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTIES
      COMPILE_DEFINITIONS "${_cudnn_defs}" INCLUDE_DIRECTORIES ${BURN_CUDNN_INCLUDE_DIR})
  endif()
endfunction()
