#!/usr/bin/env bash
# The main job: installs what is missing, builds and runs it. Until training lands this is the
# tensor tour, examples/tensor_demo.cpp.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

burn_install_packages "${BURN_APT_PACKAGES[@]}"
burn_configure
burn_build tensor_demo
"$BURN_BUILD_DIR/examples/tensor_demo"
