#!/usr/bin/env bash
# The portable core (docs/building.md, "Targets and options"): builds burn_core with BURN_THREADS,
# BURN_EXCEPTIONS and BURN_FILESYSTEM off (-fno-exceptions -fno-rtti) through tests/portable/, as a
# consumer project would, and runs the MNIST convnet forward in it against a float64 reference.
# scripts/test.sh runs it after the Release tests; BURN_PORTABLE_DIR sets the build folder.
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

dir="${BURN_PORTABLE_DIR:-$BURN_ROOT/build-portable}"
start=$SECONDS
# shellcheck disable=SC2046  # zero or one argument
mkdir -p "$dir"
cmake -S "$BURN_ROOT/tests/portable" -B "$dir" -G Ninja $(burn_launcher_args) > "$dir/configure.log" 2>&1 ||
    { cat "$dir/configure.log"; exit 1; }
cmake --build "$dir" --parallel "$BURN_JOBS" --target mnist_forward
"$dir/mnist_forward"
# Without exceptions, an error goes to the handler the program installed (it prints, then exits 3).
rc=0
out=$("$dir/mnist_forward" --error) || rc=$?
echo "$out"
if [ "$rc" != 3 ] || ! grep -q "burn error (kind 1): \[matmul\]" <<<"$out"; then
    echo "scripts/portable_check.sh: the error handler was not called as expected (exit $rc)" >&2
    exit 1
fi
# BURN_CPU_DTYPES leaves f64 out: an f64 op reaches the handler with a message naming the option.
rc=0
out=$("$dir/mnist_forward" --dtype-error) || rc=$?
echo "$out"
if [ "$rc" != 3 ] || ! grep -q "no kernels for dtype f64: it was configured with -DBURN_CPU_DTYPES=f32,i32,i64,bool" <<<"$out"; then
    echo "scripts/portable_check.sh: the f64 op of a build without f64 kernels did not fail as expected (exit $rc)" >&2
    exit 1
fi
echo "scripts/portable_check.sh: portable core built and checked in $((SECONDS - start))s"
