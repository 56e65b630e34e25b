#!/usr/bin/env bash
# ONNX models on the CPU: burn against onnxruntime 1.30 (npm onnxruntime-node, its bundled CPU binary)
# and PyTorch 1.13 eager (Debian's python3-torch), ResNet-18 and MobileNetV2 at batch 1 and 8 with 2
# threads each, in one run; prints a markdown table of median latencies and ratios, and checks that the
# three outputs agree (bench/onnx/run.py).
#   bench/onnx/run.sh [run.py options: --models, --batches, --threads, --runs, --rounds (default 3), --opset]
#   BURN_BUILD_DIR   the configured build directory (default: build-release)
# Needs: the models (scripts/onnx_real_models.sh makes them, once), burn_onnx_bench (built here), node
# and npm (onnxruntime-node@1.30.0 is installed once into $BURN_BUILD_DIR/onnx-bench/ort with
# --ignore-scripts: the package ships its CPU binary, nothing is downloaded at install time).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/common.sh"
ORT_VERSION=1.30.0
WORK="$BURN_BUILD_DIR/onnx-bench"

REAL_DIR=$(bash "$BURN_ROOT/scripts/onnx_real_models.sh")
cmake --build "$BURN_BUILD_DIR" --target burn_onnx_bench >/dev/null
BIN="$BURN_BUILD_DIR/bench/burn_onnx_bench"

ORT_DIR="$WORK/ort"
if ! grep -qs "\"version\": \"$ORT_VERSION\"" "$ORT_DIR/node_modules/onnxruntime-node/package.json"; then
    burn_ensure_npm
    mkdir -p "$ORT_DIR"
    (cd "$ORT_DIR" && npm install --ignore-scripts --no-audit --no-fund "onnxruntime-node@$ORT_VERSION" >/dev/null)
fi
NODE_PATH="$ORT_DIR/node_modules" node -e "require('onnxruntime-node')" ||
    { echo "bench/onnx/run.sh: onnxruntime-node does not load under node $(node --version)" >&2; exit 1; }

/usr/bin/python3 "$BURN_ROOT/bench/onnx/run.py" --real-dir "$REAL_DIR" --burn-bench "$BIN" --ort-dir "$ORT_DIR" \
    --work-dir "$WORK" "$@"
