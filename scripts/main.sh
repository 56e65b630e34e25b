#!/usr/bin/env bash
# The main job: installs what is missing, builds and runs it. Until the managed training loop lands
# this is the seed's hand-written training loop (examples/regression.cpp: linear regression with
# Adam on an autodiff device), after the tensor tour (examples/tensor_demo.cpp).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

burn_install_packages "${BURN_APT_PACKAGES[@]}"
burn_configure
burn_build tensor_demo regression
"$BURN_BUILD_DIR/examples/tensor_demo"
"$BURN_BUILD_DIR/examples/regression"
