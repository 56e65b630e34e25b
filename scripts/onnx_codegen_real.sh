#!/usr/bin/env bash
# Generated code for the real models (docs/onnx.md, "Code generation"): exports them once
# (scripts/onnx_real_models.sh), configures the build with -DBURN_ONNX_REAL_DIR, builds
# burn_onnx_codegen_real (burn-onnx generate writes resnet18, mobilenet_v2, squeezenet1_1, the
# TransformerEncoder and the LSTM as C++ at build time) and runs it: every generated struct must match
# PyTorch to 1e-4 relative and the runtime to 1e-6, on the CPU and on CUDA when there is a GPU. CI runs
# the same program through ctest (onnx_codegen_real) when scripts/test.sh has exported the models.
#   scripts/onnx_codegen_real.sh [REAL_DIR]      (build: $BURN_BUILD_DIR, default build-release)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
DIR=$("$BURN_ROOT/scripts/onnx_real_models.sh" ${1:+"$1"} | tail -n 1)
start=$(date +%s)
cmake -S "$BURN_ROOT" -B "$BURN_BUILD_DIR" -DBURN_ONNX_REAL_DIR="$DIR" >/dev/null
cmake --build "$BURN_BUILD_DIR" --parallel "$BURN_JOBS" --target burn_onnx_codegen_real
built=$(date +%s)
"$BURN_BUILD_DIR/tests/burn_onnx_codegen_real" --gtest_brief=0
echo "onnx_codegen_real.sh: generate + build $((built - start)) s, run $(($(date +%s) - built)) s"
