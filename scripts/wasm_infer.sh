#!/usr/bin/env bash
# The minimal inference program, tests/portable/mnist_infer.cpp (the MNIST convnet on one digit over the
# portable core: no threads, exceptions, RTTI or files), built for WebAssembly at each of
# BURN_WASM_INFER_OPTS (default "-O3 -Oz") with -msimd128, and natively with g++ -O3: prints each
# .wasm's size, raw and gzipped, and the median time of one forward in node and natively (one thread).
# mnist_forward (the same model against a float64 reference) checks each wasm build first.
# docs/wasm.md reports the figures. Build folders under BURN_WASM_INFER_DIR (build-wasm-infer/).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=scripts/wasm_env.sh
source "$BURN_ROOT/scripts/wasm_env.sh"

out="${BURN_WASM_INFER_DIR:-$BURN_ROOT/build-wasm-infer}"
runs="${BURN_WASM_INFER_RUNS:-200}"
burn_wasm_json_prefix "$out/deps"
for opt in ${BURN_WASM_INFER_OPTS:--O3 -Oz}; do
    dir="$out/wasm$opt"
    start=$SECONDS
    emcmake cmake -S "$BURN_ROOT/tests/portable" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_FIND_ROOT_PATH="$out/deps" -DCMAKE_CXX_FLAGS=-msimd128 -DCMAKE_CXX_FLAGS_RELEASE="$opt -DNDEBUG" \
        -DCMAKE_EXE_LINKER_FLAGS_RELEASE="$opt" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
    cmake --build "$dir" --parallel "$BURN_JOBS" --target mnist_forward mnist_infer
    node --no-experimental-fetch "$dir/mnist_forward.js"
    raw=$(stat -c %s "$dir/mnist_infer.wasm")
    gz=$(gzip -9 -c "$dir/mnist_infer.wasm" | wc -c)
    echo "wasm $opt: built in $((SECONDS - start))s; mnist_infer.wasm $raw bytes, $gz gzipped (-9);" \
        "mnist_infer.js $(stat -c %s "$dir/mnist_infer.js") bytes"
    echo -n "wasm $opt in node $(node --version): "
    node --no-experimental-fetch "$dir/mnist_infer.js" "$runs"
done
# The same program natively (g++, -O3 as Release; no threads: BURN_THREADS is off in tests/portable).
cmake -S "$BURN_ROOT/tests/portable" -B "$out/native" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    >"$out/native.configure.log" 2>&1 || { cat "$out/native.configure.log"; exit 1; }
cmake --build "$out/native" --parallel "$BURN_JOBS" --target mnist_infer
echo -n "native (g++ -O3, one thread): "
"$out/native/mnist_infer" "$runs"
