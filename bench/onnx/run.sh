#!/usr/bin/env bash
# ONNX models on the CPU: burn against onnxruntime 1.30 (npm onnxruntime-node, its bundled CPU binary)
# and PyTorch 1.13 eager (Debian's python3-torch), ResNet-18 and MobileNetV2 at batch 1 and 8 with 2
# threads each, in one run; prints a markdown table of median latencies and ratios, and checks that the
# three outputs agree (bench/onnx/run.py).
#   bench/onnx/run.sh [run.py options: --models, --batches, --threads, --runs, --rounds (default 3), --opset]
#   BURN_BUILD_DIR   the configured build directory (default: build-release)
# Needs: the models (scripts/onnx_real_models.sh makes them, once), burn_onnx_bench (built here), node
# and npm (onnxruntime-node@1.30.0 is installed once into $BURN_BUILD_DIR/onnx-export/ort by
# scripts/onnx_export_ort.sh, with --ignore-scripts: the package ships its CPU binary).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/common.sh"
WORK="$BURN_BUILD_DIR/onnx-bench"

REAL_DIR=$(bash "$BURN_ROOT/scripts/onnx_real_models.sh")
cmake --build "$BURN_BUILD_DIR" --target burn_onnx_bench >/dev/null
BIN="$BURN_BUILD_DIR/bench/burn_onnx_bench"

# onnxruntime-node, installed once (the export suites' installer: one copy per build directory)
ORT_DIR=$(dirname "$(bash "$BURN_ROOT/scripts/onnx_export_ort.sh" --install-only)")

/usr/bin/python3 "$BURN_ROOT/bench/onnx/run.py" --real-dir "$REAL_DIR" --burn-bench "$BIN" --ort-dir "$ORT_DIR" \
    --work-dir "$WORK" "$@"
