#!/usr/bin/env bash
# WebAssembly builds with Debian's emscripten 3.1.6 (docs/wasm.md): installs emscripten when missing,
# then configures with emcmake and builds burn_core (CPU backend, autodiff, nn, optim), burn_store,
# burn_data and burn_train (no ncurses dashboard) in one or both variants:
#   st  build-wasm/     single-threaded (BURN_THREADS=OFF)
#   mt  build-wasm-mt/  pthreads (-pthread: the parallel-for runs on web workers; SharedArrayBuffer)
# usage: bash scripts/build_wasm.sh [st|mt|all]          (default: all)
#   BURN_WASM_TESTS=1    also build the test suite, burn_tests.js (GoogleTest built with em++ from
#                        Debian's sources in /usr/src/googletest); scripts/wasm_check.sh runs it
#   BURN_WASM_OPT        optimisation level of compile and link (default -O1)
#   BURN_WASM_KERNEL_OPT the CPU backend's hot kernel files' level (BURN_KERNEL_OPT, default -O2; "" for
#                        BURN_WASM_OPT): a smaller module at the speed of -O2
#   BURN_WASM_EH         js (default: -fexceptions) or wasm (-fwasm-exceptions, faster and smaller)
#   BURN_WASM_UNITY      1 (default): unity builds of the libraries (BURN_UNITY_BUILD); 0: file by file
#   BURN_WASM_DIR, BURN_WASM_MT_DIR   the build folders
#   BURN_JOBS            parallel compile jobs (default: the number of CPUs)
# Each variant also builds the page of examples/web into its web/ folder (build-wasm/web/, and the
# pthreads page build-wasm-mt/web/; docs/wasm.md, "The page"): its two modules, HTML and JavaScript, the
# MNIST digits (scripts/fetch_mnist.sh) and the model.bpk it classifies with (web_model below).
#   BURN_WEB=0           leave the page out
#   BURN_WEB_MODEL       the model.bpk to ship (default: artifacts/mnist/model.bpk when the main job made
#                        one, otherwise one trained once by examples/web/make_model.cjs in node)
#   BURN_WASM_TARGETS    targets to build (default: all; scripts/web_check.sh builds only "web")
#   BURN_WEB_INFER_DTYPES the dtypes of the page's inference module, burn_infer.wasm (default
#                        "f32;i32;i64;u8;bool", what the convnet uses): its libraries are a second
#                        configuration in <dir>/infer/ with CPU kernels for these only (BURN_CPU_DTYPES;
#                        2.6 MB at -O2 rather than 4.0). "all": linked from the variant's own libraries
#   BURN_WEB_INFER_OPT   the link optimisation of the page's inference module (default -O2, the fastest;
#                        -Oz is 13 % smaller and 20 % slower)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

variants="${1:-all}"
case "$variants" in
    st | mt) ;;
    all) variants="st mt" ;;
    *)
        echo "usage: bash scripts/build_wasm.sh [st|mt|all]" >&2
        exit 2
        ;;
esac

# shellcheck source=scripts/wasm_env.sh
source "$BURN_ROOT/scripts/wasm_env.sh"
opt="${BURN_WASM_OPT:--O1}"
kernel_opt="${BURN_WASM_KERNEL_OPT--O2}"
unity=ON
[ "${BURN_WASM_UNITY:-1}" = "0" ] && unity=OFF
tests=OFF
[ "${BURN_WASM_TESTS:-0}" = "1" ] && tests=ON
infer_dtypes="${BURN_WEB_INFER_DTYPES:-f32;i32;i64;u8;bool}"
infer_here=OFF  # whether the variant's own build links burn_infer (BURN_WEB_INFER_DTYPES=all)
[ "$infer_dtypes" = all ] && infer_here=ON
# C++ exceptions: emscripten's JavaScript-based handling (js, -fexceptions: runs everywhere) or
# WebAssembly's own (wasm, -fwasm-exceptions: no JavaScript round trip per call that may throw; Chromium
# 95+, Firefox 100+, Safari 15.2+, node 17+)
case "${BURN_WASM_EH:-js}" in
    js) eh=-fexceptions ;;
    wasm) eh=-fwasm-exceptions ;;
    *) echo "BURN_WASM_EH is js or wasm" >&2; exit 2 ;;
esac

# The variant's dependency prefix, $dir/deps, found through CMAKE_FIND_ROOT_PATH: nlohmann-json's
# headers, and GoogleTest compiled with the variant's flags.
wasm_deps() {
    local dir="$1" flags="$2" threads="$3"
    local deps="$dir/deps"
    burn_wasm_json_prefix "$deps"
    if [ "$tests" = ON ] && [ ! -f "$deps/lib/libgtest.a" ]; then
        local pthreads=ON
        [ "$threads" = ON ] && pthreads=OFF
        emcmake cmake -S /usr/src/googletest -B "$dir/googletest" -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DBUILD_GMOCK=OFF -Dgtest_disable_pthreads="$pthreads" -DCMAKE_CXX_FLAGS="$flags" \
            -DCMAKE_CXX_FLAGS_RELEASE="$opt -DNDEBUG" -DCMAKE_INSTALL_PREFIX="$deps" >"$dir/googletest.log" 2>&1 ||
            { cat "$dir/googletest.log"; exit 1; }
        cmake --build "$dir/googletest" --parallel "$BURN_JOBS" >>"$dir/googletest.log" 2>&1 &&
            cmake --install "$dir/googletest" >>"$dir/googletest.log" 2>&1 ||
            { cat "$dir/googletest.log"; exit 1; }
    fi
}

# The page's data next to its modules in $1/web: the digits, and model.bpk with where it came from in
# model.txt. A model trained here is trained once (1 epoch over the 8,000 training digits, seed 42: the
# page's own training code, web_mnist.hpp's Trainer: batch 32, Adam lr 2e-3, run by node) and kept.
web_site() {
    local web="$1/web"
    burn_ensure_npm
    "$BURN_ROOT/scripts/fetch_mnist.sh" >/dev/null
    local digits
    digits="$("$BURN_ROOT/scripts/fetch_mnist.sh" --print-dir)"
    mkdir -p "$web/mnist"
    cp -u "$digits"/[0-9].json "$web/mnist/"
    local main_model="$BURN_ROOT/artifacts/mnist/model.bpk"
    if [ -n "${BURN_WEB_MODEL:-}" ]; then
        cp "$BURN_WEB_MODEL" "$web/model.bpk"
        echo "model.bpk: $BURN_WEB_MODEL" >"$web/model.txt"
    elif [ -f "$main_model" ] && grep -q '"cnn"' "$BURN_ROOT/artifacts/mnist/config.json" 2>/dev/null; then
        cp "$main_model" "$web/model.bpk"
        echo "model.bpk: the main job's model, $main_model" >"$web/model.txt"
    elif [ ! -f "$web/model.bpk" ] || ! grep -q make_model "$web/model.txt" 2>/dev/null; then
        local start=$SECONDS
        node --no-experimental-fetch "$BURN_ROOT/examples/web/make_model.cjs" "$web" "$web/mnist" 0 1
        echo "model.bpk: trained by examples/web/make_model.cjs in node (8,000 training digits, 1 epoch, batch 32, lr 2e-3, seed 42)" \
            >"$web/model.txt"
        echo "scripts/build_wasm.sh: model.bpk trained in node in $((SECONDS - start))s"
    fi
}

# The page's inference module, burn_infer.js/.wasm, from a second configuration of burn_core and
# burn_store in $1/infer with CPU kernels for BURN_WEB_INFER_DTYPES only (the variant's threads and
# flags, no tests, no ONNX), copied into $1/web.
infer_build() {
    local dir="$1" threads="$2" flags="$3"
    local idir="$dir/infer" start=$SECONDS
    mkdir -p "$idir"
    emcmake cmake -S "$BURN_ROOT" -B "$idir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_FIND_ROOT_PATH="$dir/deps" -DCMAKE_CXX_FLAGS="$flags" \
        -DCMAKE_CXX_FLAGS_RELEASE="$opt -DNDEBUG" -DCMAKE_EXE_LINKER_FLAGS_RELEASE="$opt" \
        -DBURN_THREADS="$threads" -DBURN_EXCEPTIONS=ON -DBURN_FILESYSTEM=ON -DBURN_UNITY_BUILD="$unity" -DBURN_KERNEL_OPT="$kernel_opt" \
        -DBURN_TESTS=OFF -DBURN_BENCH=OFF -DBURN_EXAMPLES=OFF -DBURN_CUDA=OFF -DBURN_OPENBLAS=OFF \
        -DBURN_DNNL=OFF -DBURN_HIGHWAY=OFF -DBURN_ONNX=OFF -DBURN_ZIP=OFF -DBURN_TUI=OFF -DBURN_WEB=ON \
        -DBURN_CPU_DTYPES="$infer_dtypes" -DBURN_WEB_INFER_OPT="${BURN_WEB_INFER_OPT:--O2}" \
        >"$idir/configure.log" 2>&1 || { cat "$idir/configure.log"; exit 1; }
    cmake --build "$idir" --parallel "$BURN_JOBS" --target burn_infer
    mkdir -p "$dir/web"
    cp "$idir/web/burn_infer.js" "$idir/web/burn_infer.wasm" "$dir/web/"
    echo "scripts/build_wasm.sh: $dir/web/burn_infer.wasm (CPU kernels for $infer_dtypes) built in $((SECONDS - start))s"
}

# Configures and builds one variant in $dir; threads ON or OFF.
wasm_build() {
    local dir="$1" threads="$2"
    local web=OFF
    [ "${BURN_WEB:-1}" != "0" ] && web=ON
    # Exceptions on explicitly (without an EH flag em++ compiles throw but disables catch); SIMD128 for the
    # CPU backend's vector-extension GEMM and the autovectorised elementwise and reduction loops.
    local flags="$eh -msimd128"
    [ "$threads" = ON ] && flags="$flags -pthread"
    local start=$SECONDS
    mkdir -p "$dir"
    wasm_deps "$dir" "$flags" "$threads"
    # CUDA, OpenBLAS, oneDNN, protobuf, libzip and ncurses have no wasm32 build here (ONNX import
    # decodes models itself: BURN_ONNX=WIRE); Highway 1.0.3's WASM target has no f64 vectors, which
    # simd_math.cpp uses.
    emcmake cmake -S "$BURN_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_FIND_ROOT_PATH="$dir/deps" -DCMAKE_CXX_FLAGS="$flags" \
        -DCMAKE_CXX_FLAGS_RELEASE="$opt -DNDEBUG" -DCMAKE_EXE_LINKER_FLAGS_RELEASE="$opt" \
        -DBURN_THREADS="$threads" -DBURN_EXCEPTIONS=ON -DBURN_FILESYSTEM=ON -DBURN_UNITY_BUILD="$unity" -DBURN_KERNEL_OPT="$kernel_opt" \
        -DBURN_TESTS="$tests" -DBURN_BENCH=OFF -DBURN_EXAMPLES=OFF -DBURN_CUDA=OFF -DBURN_OPENBLAS=OFF \
        -DBURN_DNNL=OFF -DBURN_HIGHWAY=OFF -DBURN_ONNX="${BURN_WASM_ONNX:-WIRE}" -DBURN_ZIP=OFF -DBURN_TUI=OFF -DBURN_WEB="$web" \
        -DBURN_WEB_INFER_OPT="${BURN_WEB_INFER_OPT:--O2}" -DBURN_WEB_INFER="$infer_here" \
        >"$dir/configure.log" 2>&1 || { cat "$dir/configure.log"; exit 1; }
    # The targets asked for; burn_infer among them (or web, or all) builds the separate inference module.
    local targets=() wanted="${BURN_WASM_TARGETS:-all}" infer_module=OFF t
    if [ "$web" = ON ] && [ "$infer_here" = OFF ]; then
        for t in $wanted; do
            case "$t" in all | web | burn_infer) infer_module=ON ;; esac
        done
        wanted="$(tr ' ' '\n' <<<"$wanted" | grep -vx burn_infer | tr '\n' ' ' || true)"
    fi
    # shellcheck disable=SC2206  # a word list
    [ -n "${wanted// /}" ] && [ "$wanted" != all ] && targets=(--target ${wanted})
    [ -n "${wanted// /}" ] && cmake --build "$dir" --parallel "$BURN_JOBS" "${targets[@]}"
    if [ "$infer_module" = ON ]; then
        infer_build "$dir" "$threads" "$flags"
    fi
    [ "$web" = ON ] && web_site "$dir"
    echo "scripts/build_wasm.sh: $dir (threads $threads, $opt, kernels ${kernel_opt:-$opt}, unity $unity, tests $tests) built in $((SECONDS - start))s"
}

for v in $variants; do
    if [ "$v" = st ]; then
        wasm_build "${BURN_WASM_DIR:-$BURN_ROOT/build-wasm}" OFF
    else
        wasm_build "${BURN_WASM_MT_DIR:-$BURN_ROOT/build-wasm-mt}" ON
    fi
done
