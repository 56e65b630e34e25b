# The host half's targets (docs/embedded.md), included by host/CMakeLists.txt (a project of its own)
# and by examples/CMakeLists.txt (the main build, so CI's Release build makes them without compiling
# burn again). Needs BM_GENERATED (where the packs and generated sources go) and a burn::burn target.
#   mnist_bm_train  trains the MLP and the convnet on the MNIST digits (scripts/fetch_mnist.sh) and
#                   writes model.bpk and digits.bpk;
#   burn-embed      turns them into model_weights.cpp and mnist_digits.cpp;
#   mnist_native    classify.cpp built natively: the predictions the firmware must reproduce. It trains
#                   at build time, so the main build leaves it out of `all`.
set(_bm_src ${CMAKE_CURRENT_LIST_DIR}/..)

add_executable(mnist_bm_train ${_bm_src}/train.cpp)
target_link_libraries(mnist_bm_train PRIVATE burn::burn)
target_compile_options(mnist_bm_train PRIVATE -Wall -Wextra)
if(COMMAND burn_use_tools_pch)  # cmake/tools_pch.cmake
  burn_use_tools_pch(mnist_bm_train)
endif()

# The packs are made once (training takes seconds; the data do not change between builds).
add_custom_command(OUTPUT ${BM_GENERATED}/model.bpk ${BM_GENERATED}/digits.bpk
                   COMMAND mnist_bm_train ${BM_GENERATED}
                   DEPENDS mnist_bm_train ${_bm_src}/models.hpp
                   COMMENT "Training the bare-metal MNIST models")
add_custom_command(OUTPUT ${BM_GENERATED}/model_weights.cpp
                   COMMAND burn-embed ${BM_GENERATED}/model.bpk --name model_weights -o ${BM_GENERATED}/model_weights.cpp
                   DEPENDS burn-embed ${BM_GENERATED}/model.bpk)
add_custom_command(OUTPUT ${BM_GENERATED}/mnist_digits.cpp
                   COMMAND burn-embed ${BM_GENERATED}/digits.bpk --name mnist_digits -o ${BM_GENERATED}/mnist_digits.cpp
                   DEPENDS burn-embed ${BM_GENERATED}/digits.bpk)

add_executable(mnist_native EXCLUDE_FROM_ALL ${_bm_src}/classify.cpp ${_bm_src}/board_host.cpp
               ${BM_GENERATED}/model_weights.cpp ${BM_GENERATED}/mnist_digits.cpp)
target_link_libraries(mnist_native PRIVATE burn::burn_core)
target_compile_options(mnist_native PRIVATE -Wall -Wextra)
