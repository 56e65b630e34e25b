#!/usr/bin/env bash
# The test suite under WebAssembly (docs/wasm.md): builds burn_tests.js with scripts/build_wasm.sh
# (BURN_WASM_TESTS=1) and runs it in node, minus the tests of tests/wasm_skip.txt (each listed with
# the reason it cannot run in wasm). scripts/test.sh runs it when BURN_WASM=1.
# usage: bash scripts/wasm_check.sh [st|mt]      (default: st, the single-threaded variant)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

variant="${1:-st}"
start=$SECONDS
# -O1 unless told otherwise: it compiles the suite about 12 % faster than -O2 and runs it as fast.
export BURN_WASM_OPT="${BURN_WASM_OPT:--O1}"
# The kernel files at that level too (build_wasm.sh compiles them at -O2 by default, for the page).
export BURN_WASM_KERNEL_OPT="${BURN_WASM_KERNEL_OPT-}"
# The page of examples/web is scripts/web_check.sh's (it reuses this build's libraries).
BURN_WEB="${BURN_WEB:-0}" BURN_WASM_TESTS=1 bash "$BURN_ROOT/scripts/build_wasm.sh" "$variant"
dir="${BURN_WASM_DIR:-$BURN_ROOT/build-wasm}"
[ "$variant" = mt ] && dir="${BURN_WASM_MT_DIR:-$BURN_ROOT/build-wasm-mt}"
built=$SECONDS

# The skip list: variants (st, mt or all), a gtest pattern, the reason; '#' starts a comment.
filter=$(sed -e 's/#.*//' "$BURN_ROOT/tests/wasm_skip.txt" |
    awk -v v="$variant" 'NF >= 2 && ($1 == "all" || $1 == v) { printf "%s%s", sep, $2; sep = ":" }')
# Two node processes (the st build runs on one thread): the op database and the PyTorch model suites in
# one, everything else in the other, about 20 s each instead of 40 s in one. (gtest's sharding reads the
# environment, which a wasm program does not see; these suites write no files either.)
group="OpDb*:PytorchModels*"
logs=("$dir/tests/node-group0.log" "$dir/tests/node-group1.log")
node --no-experimental-fetch "$dir/tests/burn_tests.js" --gtest_brief=1 "--gtest_filter=$group-$filter" \
    >"${logs[0]}" 2>&1 &
pid=$!
rc=0
node --no-experimental-fetch "$dir/tests/burn_tests.js" --gtest_brief=1 "--gtest_filter=-$group:$filter" \
    >"${logs[1]}" 2>&1 || rc=1
wait "$pid" || rc=1
cat "${logs[@]}"
[ "$rc" = 0 ] || { echo "scripts/wasm_check.sh: the suite failed in node (logs above)" >&2; exit 1; }
echo "scripts/wasm_check.sh: built in $((built - start))s, ran in $((SECONDS - built))s ($dir)"
