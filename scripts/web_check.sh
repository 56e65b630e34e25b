#!/usr/bin/env bash
# The page's selftest in headless Chromium (docs/wasm.md, "The selftest contract"): builds the page
# (bash scripts/build_wasm.sh st, only its "web" target and what it needs, at the optimisation level
# build-wasm/ already has, so that after scripts/wasm_check.sh only the page is built), serves it
# (scripts/serve_web.sh), opens index.html?selftest=1 with Debian's chromium through npm
# playwright-core, and checks its JSON against the same code built natively (examples/web/native.cpp,
# target web_native of the host build in BURN_BUILD_DIR, default build-release):
#   accuracy       within 0.1 points of the native accuracy of the same model.bpk on the same 2,000 digits
#   digits         2,000
#   train_accuracy >= 95 after train_epochs >= 1
# and the ONNX part (<pre id="selftest-onnx">): the same model exported to ONNX natively (web_native
# export, burn's ONNX export) and run in the page by the importer built for WebAssembly:
#   onnx_accuracy  within 0.1 points of the page's accuracy on the same digits; a truncated file refused
# usage: bash scripts/web_check.sh          the single-threaded page (build-wasm/web; CI)
#        BURN_WEB_VARIANT=mt bash scripts/web_check.sh   the pthreads page (build-wasm-mt/web)
#   BURN_WEB_TRAIN_SUBSET, BURN_WEB_TRAIN_EPOCHS   the selftest's training run (default 8000 digits, 1 epoch)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
start=$SECONDS
# shellcheck source=scripts/web_tools.sh
source "$BURN_ROOT/scripts/web_tools.sh"

variant="${BURN_WEB_VARIANT:-st}"
dir="${BURN_WASM_DIR:-$BURN_ROOT/build-wasm}"
[ "$variant" = mt ] && dir="${BURN_WASM_MT_DIR:-$BURN_ROOT/build-wasm-mt}"
site="$dir/web"
# Reuse the st libraries at whatever levels they were built (wasm_check.sh builds them at -O1, kernels
# included): changing either would rebuild them.
if [ -z "${BURN_WASM_OPT:-}" ] && [ -f "$dir/CMakeCache.txt" ]; then
    BURN_WASM_OPT="$(sed -n 's/^CMAKE_CXX_FLAGS_RELEASE:STRING=\(-O[0-9sz]\).*/\1/p' "$dir/CMakeCache.txt")"
    export BURN_WASM_OPT
fi
if [ -z "${BURN_WASM_KERNEL_OPT+set}" ] && [ -f "$dir/CMakeCache.txt" ]; then
    BURN_WASM_KERNEL_OPT="$(sed -n 's/^BURN_KERNEL_OPT:STRING=//p' "$dir/CMakeCache.txt")"
    export BURN_WASM_KERNEL_OPT
fi
BURN_WASM_TARGETS=web bash "$BURN_ROOT/scripts/build_wasm.sh" "$variant"
built=$SECONDS

# The native figure: the same code (web_mnist.hpp) on the host, on the same model and digits.
[ -f "$BURN_BUILD_DIR/build.ninja" ] || burn_configure >/dev/null
burn_build web_native >/dev/null
native="$(BURN_NUM_THREADS=1 "$BURN_BUILD_DIR/examples/web_native" eval "$site/model.bpk" 50)"
echo "native: $native"
# The page's ONNX model: the shipped weights through burn's ONNX export (the bench page's model.onnx too).
"$BURN_BUILD_DIR/examples/web_native" export "$site/model.bpk" "$site" >/dev/null

burn_web_serve "$site"
trap 'kill "$WEB_SERVER" 2>/dev/null || true' EXIT
query="selftest=1&subset=${BURN_WEB_TRAIN_SUBSET:-8000}&epochs=${BURN_WEB_TRAIN_EPOCHS:-1}"
page_start=$SECONDS
answer="$(node "$BURN_ROOT/scripts/web_drive.cjs" "${WEB_URL}index.html?$query" selftest-onnx,selftest 900)"
onnx_json="$(sed -n 1p <<<"$answer")"
json="$(sed -n 2p <<<"$answer")"
echo "page:   $json"
echo "onnx:   $onnx_json"

python3 - "$json" "$native" "$onnx_json" <<'PY'
import json, sys
page, native, onnx = json.loads(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
problems = []
if "onnx_accuracy" not in onnx:
    problems.append(f"no ONNX result: {onnx}")
elif onnx.get("onnx_digits") != 2000 or abs(onnx["onnx_accuracy"] - page.get("accuracy", -1)) > 0.1:
    problems.append(f"ONNX in the page: {onnx.get('onnx_accuracy')} % on {onnx.get('onnx_digits')} digits "
                    f"against {page.get('accuracy')} % for the same weights as Burnpack")
if set(page) != {"accuracy", "digits", "ms_per_digit", "train_epochs", "train_accuracy", "threads"}:
    problems.append(f"keys {sorted(page)}")
if page.get("digits") != 2000:
    problems.append(f"digits {page.get('digits')} != 2000")
if abs(page.get("accuracy", -1) - native["accuracy"]) > 0.1:
    problems.append(f"accuracy {page.get('accuracy')} vs native {native['accuracy']}: more than 0.1 points apart")
if page.get("train_epochs", 0) < 1 or page.get("train_accuracy", 0) < 95:
    problems.append(f"train_accuracy {page.get('train_accuracy')} after {page.get('train_epochs')} epochs (need >= 95)")
if problems:
    sys.exit("web_check: FAILED: " + "; ".join(problems))
print(f"web_check: ok (accuracy {page['accuracy']} % in the page, {native['accuracy']} % natively; "
      f"{page['ms_per_digit']} ms per digit in the page, {native['ms_per_digit']} natively; "
      f"trained in the page to {page['train_accuracy']} %; the ONNX export of the same model "
      f"{onnx['onnx_accuracy']} % in the page, {onnx['onnx_ms_per_digit']} ms per digit)")
PY
echo "web_check: done in $((SECONDS - start))s (build $((built - start))s, page $((SECONDS - page_start))s)"
