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
