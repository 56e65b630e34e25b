# Configures, builds and tests one consumer project, tests/consumer/<MODE>/, with the generator,
# compiler, flags and build type of the calling build. Registered as a ctest by tests/CMakeLists.txt:
#
#   cmake -DMODE=add_subdirectory|find_package -DBURN_SOURCE_DIR=<burn> -DBURN_BINARY_DIR=<burn build>
#         -DWORK_DIR=<scratch> -DGENERATOR=... -DMAKE_PROGRAM=... -DCXX_COMPILER=... -DCXX_FLAGS=...
#         -DBUILD_TYPE=... -DTEST_SOURCE=<gtest file> [-DCXX_LAUNCHER=ccache] [-DUNITY=ON -DUNITY_DIR=<dir>]
#         -P run_consumer.cmake
#
# add_subdirectory: the consumer adds burn's source tree, so the library is built again inside it
#   (with BURN_TESTS, BURN_BENCH and BURN_EXAMPLES off). With the calling build's compiler launcher
#   (ccache), the objects whose flags match the calling build's come from its cache; UNITY and UNITY_DIR pass
#   the calling build's BURN_UNITY_BUILD and BURN_UNITY_DIR on: the unity batches are then the same
#   files (cmake/unity.cmake), and their objects come from the cache too.
# find_package: the library of the calling build is installed with `cmake --install` into a fresh
#   prefix, and the consumer finds it through CMAKE_PREFIX_PATH alone; this checks the exported
#   targets, burnConfig.cmake and the installed headers, without building the library a third time.
cmake_minimum_required(VERSION 3.25)

foreach(var MODE BURN_SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER TEST_SOURCE)
  if("${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run_step what)
  message(STATUS "[consumer ${MODE}] ${what}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(FATAL_ERROR "[consumer ${MODE}] ${what} failed (${rc}): ${command}")
  endif()
endfunction()

set(build ${WORK_DIR}/build)
set(config_args)
if(NOT "${BUILD_TYPE}" STREQUAL "")
  set(config_args --config ${BUILD_TYPE})
endif()
set(configure_args -G ${GENERATOR} -DCMAKE_CXX_COMPILER=${CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DBURN_CONSUMER_TEST_SOURCE=${TEST_SOURCE}
    -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
if(NOT "${CXX_LAUNCHER}" STREQUAL "")
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_LAUNCHER}")
endif()
if(NOT "${MAKE_PROGRAM}" STREQUAL "")
  list(APPEND configure_args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
if(DEFINED ENV{CMAKE_BUILD_PARALLEL_LEVEL})
  set(jobs $ENV{CMAKE_BUILD_PARALLEL_LEVEL})
else()
  cmake_host_system_information(RESULT jobs QUERY NUMBER_OF_LOGICAL_CORES)
endif()

if(MODE STREQUAL "add_subdirectory")
  # BURN_CUDA=OFF: building the CUDA kernels a second time would cost CI minutes; the find_package
  # mode links the calling build's library, CUDA backend included.
  list(APPEND configure_args -DBURN_SOURCE_DIR=${BURN_SOURCE_DIR} -DBURN_TESTS=OFF -DBURN_BENCH=OFF
       -DBURN_EXAMPLES=OFF -DBURN_CUDA=OFF)
  if(UNITY)
    list(APPEND configure_args -DBURN_UNITY_BUILD=ON "-DBURN_UNITY_DIR=${UNITY_DIR}")
  endif()
elseif(MODE STREQUAL "find_package")
  if("${BURN_BINARY_DIR}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: find_package needs -DBURN_BINARY_DIR=<burn build>")
  endif()
  set(prefix ${WORK_DIR}/prefix)
  file(REMOVE_RECURSE ${prefix})
  run_step("install burn into ${prefix}" ${CMAKE_COMMAND} --install ${BURN_BINARY_DIR} ${config_args}
           --prefix ${prefix})
  list(APPEND configure_args -DCMAKE_PREFIX_PATH=${prefix})
else()
  message(FATAL_ERROR "run_consumer.cmake: MODE must be add_subdirectory or find_package, not '${MODE}'")
endif()

run_step("configure" ${CMAKE_COMMAND} -S ${BURN_SOURCE_DIR}/tests/consumer/${MODE} -B ${build}
         ${configure_args})
if(MODE STREQUAL "find_package")
  # The package must come from the fresh prefix, not from some other install on the machine.
  file(STRINGS ${build}/CMakeCache.txt burn_dir REGEX "^burn_DIR:")
  string(FIND "${burn_dir}" "${prefix}/" at)
  if(NOT at GREATER -1)
    message(FATAL_ERROR "[consumer find_package] burn was found outside ${prefix}: ${burn_dir}")
  endif()
endif()
run_step("build" ${CMAKE_COMMAND} --build ${build} ${config_args} --parallel ${jobs})
if(NOT "${BUILD_TYPE}" STREQUAL "")
  set(config_args -C ${BUILD_TYPE})
endif()
run_step("test" ${CMAKE_CTEST_COMMAND} --test-dir ${build} ${config_args} --output-on-failure)
