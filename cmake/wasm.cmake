# WebAssembly (emscripten; docs/wasm.md). scripts/build_wasm.sh configures with emcmake and passes the
# compile flags (-fexceptions, -msimd128, -pthread for the threaded variant) in CMAKE_CXX_FLAGS, so that
# every object, GoogleTest's included, agrees on them; this file adds what a program run by node needs.

# burn_wasm_node_program(TARGET): link TARGET as a node program (TARGET.js + TARGET.wasm) that reads and
# writes the host's files directly (NODERAWFS: the test fixtures, temporary files), grows its memory,
# and returns main's exit code to node. The threaded variant starts its workers before main
# (PTHREAD_POOL_SIZE), since a blocked main thread cannot start a web worker.
function(burn_wasm_node_program target)
  if(NOT EMSCRIPTEN)
    return()
  endif()
  target_link_options(${target} PRIVATE -sENVIRONMENT=node -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1
                      -sEXIT_RUNTIME=1 -sWASM_ASYNC_COMPILATION=0)
  if(BURN_THREADS)
    target_link_options(${target} PRIVATE -sPTHREAD_POOL_SIZE=${BURN_WASM_POOL_SIZE})
  endif()
endfunction()

if(EMSCRIPTEN)
  set(BURN_WASM_POOL_SIZE 8 CACHE STRING "Web workers a threaded wasm program starts before main")
  if(BURN_THREADS)  # the CPU thread pool stays inside the pre-started workers (src/platform/parallel.cpp)
    add_compile_definitions(BURN_WASM_MAX_THREADS=${BURN_WASM_POOL_SIZE})
  endif()
  if(BURN_THREADS AND NOT CMAKE_CXX_FLAGS MATCHES "-pthread")
    message(FATAL_ERROR "burn: a wasm build with BURN_THREADS=ON needs -pthread in CMAKE_CXX_FLAGS "
                        "(scripts/build_wasm.sh passes it), or -DBURN_THREADS=OFF")
  endif()
endif()
