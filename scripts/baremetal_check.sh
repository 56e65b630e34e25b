#!/usr/bin/env bash
# Checks the bare-metal example (docs/embedded.md): builds it with scripts/build_baremetal.sh, runs
# mnist_m4.elf (qemu mps2-an386) and mnist_m55.elf (qemu mps3-an547) under a timeout, and asserts
#  - each prints `N of 100 correct` as its last line and exits 0 through semihosting;
#  - both models' predictions, digit by digit, equal the native build's (mnist_native);
#  - bad input reaches the error handler with a message naming the op and the sizes, exit code 3:
#    a corrupt embedded pack, a truncated one, an arena too small for the convnet, a matmul of
#    mismatched shapes (kind 1) and an f64 op in a build without f64 kernels (the message names
#    BURN_CPU_DTYPES). These last two replace scripts/portable_check.sh in CI: the firmware is the
#    portable core (threads, exceptions, RTTI and files off) on a stricter target.
# Prints its time. Environment: as build_baremetal.sh; BM_QEMU_TIMEOUT (seconds per run, default 120).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

dir="${BURN_BAREMETAL_DIR:-$BURN_ROOT/build-baremetal}"
limit="${BM_QEMU_TIMEOUT:-120}"
start=$SECONDS
bash "$BURN_ROOT/scripts/build_baremetal.sh"
built=$SECONDS

fail() {
    echo "scripts/baremetal_check.sh: $*" >&2
    exit 1
}

# run MACHINE ELF [ARGS]: the program's output in $out, its exit code in $rc.
run() {
    local machine=$1 elf=$2
    shift 2
    rc=0
    out=$(timeout "$limit" qemu-system-arm -M "$machine" -nographic -monitor none -serial none \
        -semihosting-config enable=on,target=native -icount shift=0 -kernel "$elf" -append "$*" 2>&1) || rc=$?
}

native=$("$dir/mnist_native") || fail "mnist_native failed"
echo "$native"
for target in m4:mps2-an386 m55:mps3-an547; do
    core="${target%%:*}" machine="${target#*:}"
    elf="$dir/mnist_$core.elf"
    run "$machine" "$elf"
    echo "$out"
    [ "$rc" = 0 ] || fail "mnist_$core.elf on $machine exited with $rc"
    last=$(tail -n 1 <<<"$out")
    [[ "$last" =~ ^[0-9]+\ of\ 100\ correct$ ]] || fail "mnist_$core.elf: the last line is '$last'"
    for model in mlp cnn; do
        want=$(grep "^$model predictions: " <<<"$native")
        got=$(grep "^$model predictions: " <<<"$out")
        [ -n "$want" ] && [ "$got" = "$want" ] || fail "mnist_$core.elf: $model predictions differ from the native build's
  native: $want
  $core:    $got"
    done
    [ "$last" = "$(tail -n 1 <<<"$native")" ] || fail "mnist_$core.elf: '$last', natively '$(tail -n 1 <<<"$native")'"

    # Bad input: the handler prints "burn error (kind K): [op] ..." with the sizes and exits 3.
    expect_error() {
        local mode=$1 pattern=$2
        run "$machine" "$elf" "$mode"
        echo "$mode: $(grep 'burn error' <<<"$out" || true)"
        [ "$rc" = 3 ] || fail "mnist_$core.elf $mode exited with $rc (expected 3 from the error handler):
$out"
        grep -Eq "$pattern" <<<"$out" || fail "mnist_$core.elf $mode: the message does not match '$pattern':
$out"
    }
    expect_error --corrupt-pack '^burn error \(kind 0\): \[BurnpackView\] model_weights: starts with 0x4255524f instead of the Burnpack magic'
    expect_error --truncated-pack '^burn error \(kind 0\): \[BurnpackView\] model_weights: .*spans bytes \[[0-9]+, [0-9]+\) of a data section of [0-9]+ bytes'
    expect_error --small-arena '^burn error \(kind 0\): \[[a-z_0-9]+\] out of memory: [0-9]+ bytes do not fit the arena of [0-9]+ bytes'
    expect_error --shape-error '^burn error \(kind 1\): \[matmul\] inner dims differ: lhs \[2, 3\] vs rhs \[4, 5\]'
    expect_error --dtype-error '^burn error \(kind [0-9]+\): .*no kernels for dtype f64: it was configured with -DBURN_CPU_DTYPES=f32,i32,i64,u8,bool'
done
echo "scripts/baremetal_check.sh: passed; built in $((built - start))s, checked in $((SECONDS - built))s, $((SECONDS - start))s in all"
