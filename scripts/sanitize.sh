#!/usr/bin/env bash
# Sanitizer runs, as CI does them (scripts/test.sh calls this after the Release tests):
#   scripts/sanitize.sh [tsan] [asan] [fuzz]     (default: all three, in this order)
#   asan  clang build of the library and burn_tests with AddressSanitizer + UndefinedBehaviorSanitizer
#         (build-asan/, -O0 but for BURN_SANITIZE_HOT_FILES, a unity build of the library), the whole suite but
#         the slow end-to-end tests listed in BURN_ASAN_SKIP, in BURN_SAN_SHARDS gtest shards (default 8)
#         run BURN_JOBS at a time
#   tsan  clang build of the library and burn_tsan_tests (thread pool, data loader workers, caching
#         allocator, two models trained on two threads at once) with ThreadSanitizer (build-tsan/)
#   fuzz  every fuzz target of fuzz/ for BURN_FUZZ_SECONDS (default 30) seconds each, linked against
#         the asan build's library (scripts/fuzz --no-build); without BURN_FUZZ_SECONDS but with
#         BURN_FUZZ_DEADLINE (an epoch second; scripts/test.sh sets it), what is left until then, 1 to 10 s
#         per target
# Any sanitizer report fails the run. docs/reliability.md explains what is checked and why.
#   BURN_JOBS   parallel compile jobs (default: the number of CPUs)
set -euo pipefail
# shellcheck source=scripts/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(tsan asan fuzz)
burn_install_packages clang libclang-rt-14-dev lld

# The end-to-end suites that train for many steps (minutes under ASan), the timing-based benchmark
# test and TrainCrash (twenty training subprocesses killed and resumed: 60 s under ASan; its code paths
# run in TrainCheckpoint.KillNineThenResumeIsBitIdentical, which stays); everything they run is covered
# by the smaller suites. Also two large-shape checks whose kernels are OpenBLAS's and oneDNN's own code
# (not instrumented) and whose 50 s under ASan are the float64 reference loops at -O0: the built-in GEMM's
# large-shape test and the other oneDNN convolution tests stay. And the op database's gradcheck: its
# finite differences run each entry's forward twice per input element (87 of the suite's 302
# CPU-seconds under ASan), which adds no code path for the sanitizers to check: every entry's forward
# runs in OpDb/OpSweep, its backward in OpDb/LazySweep and the autodiff suites, and gradcheck itself in
# the Release and WebAssembly suites. The DQN test trains for a few hundred episodes (its ops are the suite's
# own; the RL containers and runners are checked by the other Rl* suites, which stay).
BURN_ASAN_SKIP="${BURN_ASAN_SKIP:-MnistTraining*:StoreBench*:*Benchmark*:OnnxReal*cnn_*:TrainCrash*:*MatmulTest.LargeBlocksAndThreads/*:CpuDnnlConv.Winograd*:OpDb/Gradcheck.*:DefaultDeviceEnv.*:RlDqn.*}"

export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1:abort_on_error=0:detect_leaks=1:allocator_may_return_null=1:strict_init_order=1:check_initialization_order=1:detect_stack_use_after_return=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"

san_configure() {  # dir, sanitizers, optimisation, extra cmake args...
    local dir="$1" san="$2" opt="$3"
    shift 3
    # shellcheck disable=SC2046  # zero or one argument
    # Linked with lld: the ASan suite's link takes 3 s instead of 14 with GNU ld, each fuzz target about a
    # quarter of its 6 s (ASan's runtime and the suite's debug lines are most of what a link reads).
    CC=clang CXX=clang++ cmake -S "$BURN_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(burn_launcher_args) \
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$opt" -DBURN_SANITIZE="$san" -DBURN_CUDA=OFF -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld \
        -DBURN_BENCH=OFF -DBURN_EXAMPLES=OFF -DBURN_UNITY_BUILD=ON "$@" >/dev/null
}

# Runs a gtest binary as BURN_SAN_SHARDS (default 8) gtest shards, BURN_JOBS at a time, each started as
# soon as one ends, so that a few long tests (the GEMM kernels' large shapes, 12-20 s each under ASan)
# cannot pile onto one fixed half. On two cores it takes what two halves did (126-129 s against 130 s,
# session 21). Fails if any shard fails; each shard's log goes beside the binary.
run_shards() {  # binary, filter
    local bin="$1" filter="$2" total="${BURN_SAN_SHARDS:-8}" rc=0 i
    rm -f "$bin".shard*.log "$bin".shard*.rc
    for ((i = 0; i < total; i++)); do
        while [ "$(jobs -rp | wc -l)" -ge "$BURN_JOBS" ]; do wait -n || true; done
        (
            r=0
            GTEST_TOTAL_SHARDS=$total GTEST_SHARD_INDEX=$i "$bin" --gtest_filter="$filter" --gtest_brief=1 \
                >"$bin.shard$i.log" 2>&1 || r=$?
            echo "$r" >"$bin.shard$i.rc"
        ) &
    done
    wait
    for ((i = 0; i < total; i++)); do
        if [ "$(cat "$bin.shard$i.rc" 2>/dev/null)" != 0 ]; then
            rc=1
            echo "sanitize: $bin shard $i of $total failed; its log:" >&2
            tail -n 80 "$bin.shard$i.log" >&2
        fi
    done
    grep -h -E '^\[  PASSED  \]|tests? ran' "$bin".shard*.log || true
    return $rc
}

for stage in "${stages[@]}"; do
    start=$SECONDS
    case "$stage" in
    asan)
        san_configure "$BURN_ROOT/build-asan" address,undefined -O0 -DBURN_FUZZ=ON
        cmake --build "$BURN_ROOT/build-asan" --parallel "$BURN_JOBS" --target burn_tests
        run_shards "$BURN_ROOT/build-asan/tests/burn_tests" "-${BURN_ASAN_SKIP}"
        ;;
    tsan)
        # OpenBLAS's own threads are not instrumented (TSan would report its internals): the built-in
        # matmul kernel runs on burn's thread pool instead. -O0: these suites are small, and the
        # library builds in a fraction of the -O1 time (TSan instruments every access either way).
        # ONNX import off: none of these suites use it (23 of the build's 182 CPU-seconds).
        san_configure "$BURN_ROOT/build-tsan" thread -O0 -DBURN_OPENBLAS=OFF -DBURN_ONNX=OFF
        cmake --build "$BURN_ROOT/build-tsan" --parallel "$BURN_JOBS" --target burn_tsan_tests
        BURN_NUM_THREADS=4 "$BURN_ROOT/build-tsan/tests/burn_tsan_tests" --gtest_brief=1
        ;;
    fuzz)
        san_configure "$BURN_ROOT/build-asan" address,undefined -O0 -DBURN_FUZZ=ON
        cmake --build "$BURN_ROOT/build-asan" --parallel "$BURN_JOBS" --target burn_fuzz_targets
        # The inputs that once crashed a target (fuzz/regressions/<target>/) run first, each once.
        for dir in "$BURN_ROOT"/fuzz/regressions/*/; do
            t=$(basename "$dir")
            "$BURN_ROOT/build-asan/fuzz/${t}_fuzz" -runs=1 "$dir"* >"$BURN_ROOT/build-asan/fuzz/regressions-$t.log" 2>&1 ||
                { echo "sanitize: fuzz/regressions/$t fails again:" >&2; tail -n 40 "$BURN_ROOT/build-asan/fuzz/regressions-$t.log" >&2; exit 1; }
            echo "sanitize: fuzz/regressions/$t: $(find "$dir" -type f | wc -l) inputs pass"
        done
        seconds="${BURN_FUZZ_SECONDS:-}"
        if [ -z "$seconds" ] && [ -n "${BURN_FUZZ_DEADLINE:-}" ]; then
            # What is left until the deadline (less 30 s of start-up and corpus replay), shared by the
            # targets two at a time, 1 to 10 s each.
            targets=$(find "$BURN_ROOT/build-asan/fuzz" -maxdepth 1 -name '*_fuzz' -type f | wc -l)
            left=$((BURN_FUZZ_DEADLINE - $(date +%s)))
            seconds=$(((left - 30) * 2 / (targets > 0 ? targets : 1)))
            seconds=$((seconds < 1 ? 1 : seconds > 10 ? 10 : seconds))
            echo "sanitize: ${left}s to the deadline: fuzzing ${seconds} s per target ($targets targets)"
        fi
        "$BURN_ROOT/scripts/fuzz" --no-build --out "$BURN_ROOT/build-asan/fuzz" --jobs 2 \
            --seconds "${seconds:-30}"
        ;;
    *)
        echo "sanitize: unknown stage '$stage' (asan, tsan or fuzz)" >&2
        exit 2
        ;;
    esac
    echo "sanitize: $stage passed in $((SECONDS - start))s"
done
