#!/usr/bin/env bash
# Builds the CUDA backend on a GPU machine and runs its tests and benchmarks (the H200 check of
# docs/cuda.md). Usage: scripts/cuda_device_check.sh OUTDIR [BENCH_DIR]
#   OUTDIR: logs (build.log, tests.log, tests.xml, bench.log, ceilings.log)
#   BENCH_DIR: folder holding compare.py and torch_reference.py (shared/bench); skipped when absent.
# Env: JOBS (default nproc), TEST_FILTER (gtest filter), SKIP_BENCH=1.
set -u
OUT=${1:?usage: cuda_device_check.sh OUTDIR [BENCH_DIR]}
BENCH=${2:-}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
cmake -S . -B build-cuda -G Ninja -DCMAKE_BUILD_TYPE=Release -DBURN_CUDA=ON -DBURN_HIGHWAY=OFF -DBURN_ZIP=OFF \
  -DBURN_TUI=OFF -DBURN_EXAMPLES=OFF > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
( time ninja -C build-cuda -j"$JOBS" burn_tests burn-bench ) >> "$OUT/build.log" 2>&1 || { grep -B2 -A10 "error" "$OUT/build.log" | head -60; exit 1; }
echo "built: $(grep real "$OUT/build.log")"
echo "ldd burn_tests (libcuda must not be linked):"; ldd build-cuda/tests/burn_tests | grep -i -E "cuda|cublas" 
FILTER=${TEST_FILTER:-'Cuda*:*OpSweep.Devices*:*OpSweep.BadInputs*:*Gradcheck.OnDevices*'}
timeout 200 build-cuda/tests/burn_tests --gtest_filter="$FILTER" --gtest_output=xml:"$OUT/tests.xml" > "$OUT/tests.log" 2>&1
echo "tests rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$OUT/tests.log" | head -40; grep -c "NOTE" "$OUT/tests.log"
grep -E "^\[==========\]" "$OUT/tests.log"
if [ -z "${SKIP_BENCH:-}" ]; then
  python3 - > "$OUT/ceilings.log" 2>&1 <<'PY'
import torch
x = torch.randn(1 << 30, device="cuda"); y = torch.empty_like(x)
for _ in range(3): y.copy_(x)
s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
s.record(); [y.copy_(x) for _ in range(10)]; e.record(); torch.cuda.synchronize()
print(f"copy {2 * x.numel() * 4 * 10 / (s.elapsed_time(e) / 1e3) / 1e12:.2f} TB/s (read + write, torch)")
PY
  cat "$OUT/ceilings.log"
  build-cuda/bench/burn-bench --device cuda > "$OUT/bench.log" 2>&1; echo "bench rc=$?"; grep "^{" "$OUT/bench.log"
  [ -n "${PROFILE:-}" ] && { echo "per-op device time of cnn_train (BURN_CUDA_PROFILE=1):";
    BURN_CUDA_PROFILE=1 build-cuda/bench/burn-bench --device cuda --only cnn_train 2>&1 | grep -v "^{" | head -24; }
  echo "TF32 (BURN_CUDA_TF32=1; PyTorch's default for cuDNN convolutions):"
  for w in matmul_f32_8192 cnn_train; do BURN_CUDA_TF32=1 build-cuda/bench/burn-bench --device cuda --only $w 2>&1 | grep "^{"; done
  if [ -n "$BENCH" ] && [ -f "$BENCH/compare.py" ]; then
    python3 "$BENCH/compare.py" --device cuda --threads 0 --burn build-cuda/bench/burn-bench --rounds 2 \
      --json "$OUT/compare.json" > "$OUT/compare.log" 2>&1; echo "compare rc=$?"; cat "$OUT/compare.log" | tail -25
  fi
fi
