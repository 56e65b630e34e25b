#!/usr/bin/env bash
# Speed of the page's convnet in headless Chromium against native and two other wasm runtimes
# (docs/wasm.md, "Speed in the page"): builds the page (scripts/build_wasm.sh st, target "web") and
# web_native (the same code on the host, BURN_BUILD_DIR), exports the shipped model to ONNX and
# safetensors, installs npm onnxruntime-web 1.30.0 and @tensorflow/tfjs(+backend-wasm) 4.22.0 into
# BURN_WEB_TOOLS, copies their browser files into build-wasm/web/vendor/, opens bench.html and prints
# one JSON table: cnn_infer_b1 in ms (burn in the page, native one thread, ort-web, tfjs-wasm) and
# training samples/s (burn in the page, native one thread, tfjs-wasm, tfjs-cpu). native_1_thread is the
# host build (oneDNN, OpenBLAS); native_1_thread_builtin_kernels the program of scripts/wasm_infer.sh.
# usage: bash scripts/web_bench.sh       BURN_WEB_BENCH_RUNS (default 300) forwards per median
#        BURN_WEB_BENCH_WARMUP (default 5000) ms of warm-up per runtime; BURN_WEB_JS_FLAGS V8 flags for
#        Chromium (e.g. --no-liftoff: optimised code from the start)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=scripts/web_tools.sh
source "$BURN_ROOT/scripts/web_tools.sh"
burn_web_npm onnxruntime-web@1.30.0 @tensorflow/tfjs@4.22.0 @tensorflow/tfjs-backend-wasm@4.22.0

site="${BURN_WASM_DIR:-$BURN_ROOT/build-wasm}/web"
BURN_WASM_TARGETS=web bash "$BURN_ROOT/scripts/build_wasm.sh" st
[ -f "$BURN_BUILD_DIR/build.ninja" ] || burn_configure >/dev/null
burn_build web_native >/dev/null
"$BURN_BUILD_DIR/examples/web_native" export "$site/model.bpk" "$site" >&2
[ -f "$site/model.onnx" ] || { echo "web_bench: no ONNX export (the host build has no burn_onnx)" >&2; exit 1; }

nm="$BURN_WEB_TOOLS/node_modules"
mkdir -p "$site/vendor"
cp -u "$nm/onnxruntime-web/dist/ort.wasm.min.js" "$nm/onnxruntime-web/dist/ort-wasm-simd-threaded.mjs" \
    "$nm/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm" "$nm/@tensorflow/tfjs/dist/tf.min.js" \
    "$nm/@tensorflow/tfjs-backend-wasm/dist/tf-backend-wasm.min.js" \
    "$nm/@tensorflow/tfjs-backend-wasm/dist/"tfjs-backend-wasm*.wasm "$site/vendor/"

runs="${BURN_WEB_BENCH_RUNS:-300}"
warmup="${BURN_WEB_BENCH_WARMUP:-5000}"
native="$(BURN_NUM_THREADS=1 "$BURN_BUILD_DIR/examples/web_native" eval "$site/model.bpk" "$runs")"
native_train="$(BURN_NUM_THREADS=1 "$BURN_BUILD_DIR/examples/web_native" train "$(mktemp)" 1280 1 64 1e-3)"
# The native program of the same built-in kernels as wasm (no oneDNN, OpenBLAS or Highway), when
# scripts/wasm_infer.sh has built it: "mnist_infer: T ms per digit ..."
portable=null
infer_native="${BURN_WASM_INFER_DIR:-$BURN_ROOT/build-wasm-infer}/native/mnist_infer"
[ -x "$infer_native" ] && portable="$("$infer_native" "$runs" | sed -n 's/^mnist_infer: \([0-9.]*\) ms.*/\1/p')"
burn_web_serve "$site"
trap 'kill "$WEB_SERVER" 2>/dev/null || true' EXIT
page="$(node "$BURN_ROOT/scripts/web_drive.cjs" "${WEB_URL}bench.html?runs=$runs&warmup=$warmup" bench 900)"
python3 - "$page" "$native" "$native_train" "${portable:-null}" <<'PY'
import json, sys
page, native, train, portable = (json.loads(a) for a in sys.argv[1:5])
inf = page["cnn_infer_b1_ms"]
table = {
    "cnn_infer_b1_ms": {"burn_wasm_chromium": round(inf["burn"], 4), "native_1_thread": native["cnn_infer_b1_ms"],
                        "native_1_thread_builtin_kernels": portable,
                        "ort_web_1.30_wasm": round(inf["ort_web"], 4), "tfjs_4.22_wasm": round(inf["tfjs_wasm"], 4),
                        "burn_wasm_from_js": round(inf["burn_from_js"], 4)},
    "burn_wasm_vs_native": round(inf["burn"] / native["cnn_infer_b1_ms"], 2),
    "burn_wasm_vs_native_builtin_kernels": portable and round(inf["burn"] / portable, 2),
    "train_samples_per_s": {"burn_wasm_chromium": round(page["train_samples_per_s"]["burn"], 1),
                            "native_1_thread": train["train_samples_per_s"],
                            "tfjs_4.22_wasm": page["train_samples_per_s"]["tfjs_wasm"] and
                                              round(page["train_samples_per_s"]["tfjs_wasm"], 1),
                            "tfjs_4.22_cpu": round(page["train_samples_per_s"]["tfjs_cpu"], 1)},
    "tfjs_wasm_train_error": page["tfjs_wasm_train_error"],
    "max_prob_diff_vs_burn": page["max_prob_diff_vs_burn"],
    "cross_origin_isolated": page["cross_origin_isolated"],
}
print(json.dumps(table, indent=1))
PY
