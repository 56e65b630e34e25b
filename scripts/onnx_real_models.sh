#!/usr/bin/env bash
# Exports real models to ONNX with Debian's python3-torch 1.13 and python3-torchvision 0.14 (ResNet-18,
# MobileNetV2, SqueezeNet 1.1, a TransformerEncoder and a bidirectional LSTM with seeded weights, at
# opsets 11, 13 and 17, with their inputs and PyTorch's outputs as .npy:
# tests/fixtures/onnx/make_real_models.py) into DIR (default: build-release/onnx-real), once: a
# complete DIR (its manifest.txt written last) is kept. About 200 MB. Prints the folder; the
# OnnxReal* tests read it from BURN_ONNX_REAL_DIR.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
DIR=${1:-$BURN_BUILD_DIR/onnx-real}
if [ ! -f "$DIR/manifest.txt" ]; then
    burn_install_packages python3-torch python3-torchvision python3-onnx >&2  # stdout is the folder alone (scripts/test.sh reads it)
    rm -rf "$DIR.tmp"
    /usr/bin/python3 "$BURN_ROOT/tests/fixtures/onnx/make_real_models.py" "$DIR.tmp" >"$DIR.log" 2>&1 ||
        { echo "onnx_real_models.sh: the export failed; its log:" >&2; tail -n 40 "$DIR.log" >&2; exit 1; }
    rm -rf "$DIR" && mv "$DIR.tmp" "$DIR"
fi
echo "$DIR"
