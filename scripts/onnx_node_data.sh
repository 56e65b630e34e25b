#!/usr/bin/env bash
# Generates ONNX's backend node test cases (model.onnx + test_data_set_N/*.pb per case) from Debian's
# python3-onnx 1.12 into DIR (default: build-release/onnx-node), once: an existing DIR/node is kept.
# NumPy 1.24 removed the aliases onnx 1.12's generators still use (np.float, np.int, np.bool,
# np.object); they are put back for the run. Prints the folder of the cases.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
DIR=${1:-$BURN_BUILD_DIR/onnx-node}
if [ ! -f "$DIR/node/test_add/model.onnx" ]; then
    burn_install_packages python3-onnx >&2  # stdout is the folder alone (scripts/test.sh reads it)
    rm -rf "$DIR.tmp"
    /usr/bin/python3 - "$DIR.tmp" >/dev/null 2>&1 <<'PY'
import sys
import warnings
warnings.simplefilter("ignore")
import numpy as np
for alias, t in (("float", float), ("int", int), ("bool", bool), ("object", object)):
    if not hasattr(np, alias):
        setattr(np, alias, t)
from onnx.backend.test import cmd_tools
sys.argv = ["cmd_tools", "generate-data", "-o", sys.argv[1]]
cmd_tools.main()
PY
    rm -rf "$DIR" && mv "$DIR.tmp" "$DIR"
fi
echo "$DIR/node"
