#!/usr/bin/env bash
# ONNX export against onnxruntime (docs/onnx.md, "Export"): installs onnxruntime-node 1.30.0 once into
# $BURN_BUILD_DIR/onnx-export/ort (npm --ignore-scripts: the package ships its CPU binary, nothing is
# downloaded at install time; a second run finds it and installs nothing), then runs the export suites
# of burn_tests with BURN_ORT_NODE_PATH pointing at it, so OnnxExportOrt.* run instead of skipping.
#   scripts/onnx_export_ort.sh [extra gtest flags]   install, build burn_tests, run OnnxExport*
#   scripts/onnx_export_ort.sh --install-only          install only; prints BURN_ORT_NODE_PATH's value
#   BURN_BUILD_DIR   the configured build directory (default: build-release)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ORT_VERSION=1.30.0
ORT_DIR="$BURN_BUILD_DIR/onnx-export/ort"

{  # progress on stderr: with --install-only, stdout is the path alone
    if ! grep -qs "\"version\": \"$ORT_VERSION\"" "$ORT_DIR/node_modules/onnxruntime-node/package.json"; then
        burn_ensure_npm
        mkdir -p "$ORT_DIR"
        (cd "$ORT_DIR" && npm install --ignore-scripts --no-audit --no-fund "onnxruntime-node@$ORT_VERSION")
    fi
    NODE_PATH="$ORT_DIR/node_modules" node -e "require('onnxruntime-node')" ||
        { echo "scripts/onnx_export_ort.sh: onnxruntime-node does not load under node $(node --version)"; exit 1; }
} >&2
export BURN_ORT_NODE_PATH="$ORT_DIR/node_modules"
if [ "${1:-}" = "--install-only" ]; then
    echo "$BURN_ORT_NODE_PATH"
    exit 0
fi
cmake --build "$BURN_BUILD_DIR" --target burn_tests >/dev/null
"$BURN_BUILD_DIR/tests/burn_tests" --gtest_filter='OnnxExport*' "$@"
