#!/usr/bin/env bash
# Builds the CUDA backend on a GPU machine and runs its tests, the MNIST example on the GPU and the
# benchmarks against PyTorch (the H200 check of docs/cuda.md). Usage:
#   scripts/cuda_device_check.sh OUTDIR [BENCH_DIR]
#   OUTDIR: logs (build.log, tests.log, tests.xml, mnist.log, bench.log, compare.log, compare.json)
#   BENCH_DIR: folder holding compare.py and torch_reference.py (shared/bench); compare is skipped when absent.
# Env: JOBS (default nproc), BUILD_DIR (default build-cuda), TEST_FILTER (gtest filter; default: the whole
# suite, CPU and GPU), SKIP_BENCH=1, ROUNDS (compare.py rounds, default 2), PROFILE=1 (per-op device time
# of gpt_train and cnn_train), BURN_DATA_DIR (where mnist/ is; the MNIST run is skipped without it).
set -u
OUT=${1:?usage: cuda_device_check.sh OUTDIR [BENCH_DIR]}
BENCH=${2:-}
JOBS=${JOBS:-$(nproc)}
B=${BUILD_DIR:-build-cuda}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBURN_CUDA=ON -DBURN_HIGHWAY=OFF -DBURN_ZIP=OFF \
  -DBURN_TUI=OFF > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
grep -E "burn: (cuDNN|cudnn)" "$OUT/build.log"
( time ninja -C "$B" -j"$JOBS" burn_tests burn-bench mnist ) >> "$OUT/build.log" 2>&1 ||
  { grep -B2 -A10 "error" "$OUT/build.log" | head -60; exit 1; }
echo "built: $(grep real "$OUT/build.log")"
echo "ldd burn_tests (libcuda and libcudnn must not be linked):"; ldd "$B/tests/burn_tests" | grep -i -E "cuda|cublas|cudnn"
timeout 400 "$B/tests/burn_tests" --gtest_filter="${TEST_FILTER:-*}" --gtest_brief=1 --gtest_output=xml:"$OUT/tests.xml" \
  > "$OUT/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |tests from .* ran" "$OUT/tests.log" | head -40
grep "NOTE" "$OUT/tests.log" | sort | uniq -c
if [ -n "${BURN_DATA_DIR:-}" ] && [ -d "$BURN_DATA_DIR/mnist" ]; then
  "$B/examples/mnist" --device cuda --epochs 3 --plain --artifact-dir /tmp/burn-mnist-artifacts > "$OUT/mnist.log" 2>&1
  echo "mnist --device cuda rc=$?"; tail -4 "$OUT/mnist.log"
fi
[ -n "${SKIP_BENCH:-}" ] && exit 0
if [ -n "${PROFILE:-}" ]; then
  for w in gpt_train cnn_train; do
    echo "per-op device time of $w (BURN_CUDA_PROFILE=1):"
    BURN_CUDA_PROFILE=1 "$B/bench/burn-bench" --device cuda --only $w 2>&1 | grep -v "^{" | head -16
  done
fi
if [ -n "$BENCH" ] && [ -f "$BENCH/compare.py" ]; then
  python3 "$BENCH/compare.py" --device cuda --threads 0 --burn "$B/bench/burn-bench" --rounds "${ROUNDS:-2}" \
    --json "$OUT/compare.json" > "$OUT/compare.log" 2>&1
  echo "compare rc=$?"; tail -25 "$OUT/compare.log"
else
  "$B/bench/burn-bench" --device cuda > "$OUT/bench.log" 2>&1; echo "bench rc=$?"; grep "^{" "$OUT/bench.log"
fi
