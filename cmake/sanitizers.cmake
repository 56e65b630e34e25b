# Sanitizer builds (docs/reliability.md): BURN_SANITIZE instruments everything this project compiles
# (the library, the tests, the fuzz targets) with clang's or GCC's sanitizers.
#   -DBURN_SANITIZE=address,undefined   AddressSanitizer + UndefinedBehaviorSanitizer (stop at the first report)
#   -DBURN_SANITIZE=thread              ThreadSanitizer
# Sanitizer builds are CPU-only (BURN_CUDA is turned off) and meant for tests, not for speed. scripts/sanitize.sh
# configures, builds and runs them the way CI does.
set(BURN_SANITIZE "" CACHE STRING "Sanitizers to build with: empty (none), address,undefined, or thread")

if(BURN_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang|GNU")
    message(FATAL_ERROR "BURN_SANITIZE needs clang or GCC (the compiler is ${CMAKE_CXX_COMPILER_ID})")
  endif()
  if(BURN_SANITIZE MATCHES "thread" AND BURN_SANITIZE MATCHES "address")
    message(FATAL_ERROR "BURN_SANITIZE=${BURN_SANITIZE}: ThreadSanitizer cannot be combined with AddressSanitizer")
  endif()
  if(NOT BURN_CUDA STREQUAL "OFF")
    message(STATUS "burn: BURN_SANITIZE=${BURN_SANITIZE} builds the CPU backend only (BURN_CUDA=OFF)")
    set(BURN_CUDA "OFF" CACHE STRING "Build the CUDA backend: AUTO (when nvcc is found), ON or OFF" FORCE)
  endif()
  set(_burn_san -fsanitize=${BURN_SANITIZE} -fno-omit-frame-pointer)
  if(BURN_SANITIZE MATCHES "undefined")
    # Every report is an error (a test that triggers undefined behaviour fails, it does not print and go on).
    list(APPEND _burn_san -fno-sanitize-recover=all)
  endif()
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # Line tables are enough for symbolised reports and cost a fraction of full debug info to build.
    list(APPEND _burn_san -gline-tables-only)
  else()
    list(APPEND _burn_san -g1)
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${_burn_san}>")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:-fsanitize=${BURN_SANITIZE}>")
  message(STATUS "burn: sanitizers ${BURN_SANITIZE} (${_burn_san})")
endif()

# A sanitizer build compiles at -O0 (scripts/sanitize.sh): at -O1 the ASan + UBSan library and suite take
# twice as long to build (the elementwise kernels alone 180 s instead of 57 s), more than the suite then
# saves in running. The few files whose loops the suite runs for long (the built-in GEMM, and the tests that
# check large matmuls against float64 loops) are compiled at BURN_SANITIZE_HOT_OPT instead.
set(BURN_SANITIZE_HOT_OPT "-O1" CACHE STRING "Optimisation of BURN_SANITIZE_HOT_FILES in a sanitizer build (empty: as the rest)")
set(BURN_SANITIZE_HOT_FILES src/backends/cpu/gemm.cpp tests/gemm_test.cpp tests/matmul_test.cpp)
function(burn_sanitize_hot_files)  # called once tests/ is added: its targets own the test files' properties
  if(NOT BURN_SANITIZE OR NOT BURN_SANITIZE_HOT_OPT)
    return()
  endif()
  foreach(_file IN LISTS BURN_SANITIZE_HOT_FILES)
    set(_dir ${PROJECT_SOURCE_DIR})  # the library's sources belong to the top-level directory's targets
    if(_file MATCHES "^tests/")
      if(NOT BURN_TESTS)
        continue()
      endif()
      set(_dir ${PROJECT_SOURCE_DIR}/tests)
    endif()
    set_property(SOURCE ${PROJECT_SOURCE_DIR}/${_file} DIRECTORY ${_dir} APPEND PROPERTY COMPILE_OPTIONS
                 ${BURN_SANITIZE_HOT_OPT})
    # another -O than the suite's precompiled header (tests/CMakeLists.txt, BURN_TEST_PCH) was built with
    set_property(SOURCE ${PROJECT_SOURCE_DIR}/${_file} DIRECTORY ${_dir} PROPERTY SKIP_PRECOMPILE_HEADERS ON)
  endforeach()
endfunction()
