// onnxruntime's side of bench/onnx/run.sh (onnxruntime-node, its CPU execution provider): loads an
// .onnx model, runs it on one float32 input (.npy) a few times to warm up, then times `runs` more runs
// and prints the median and the minimum in milliseconds as one JSON line; writes the first output to
// OUT.npy.
//
//   NODE_PATH=DIR/node_modules node ort_bench.js MODEL.onnx INPUT.npy OUT.npy THREADS WARMUP RUNS
"use strict";
const path = require("path");
const ort = require("onnxruntime-node");
const { readNpy, writeNpy } = require(path.join(__dirname, "../../tests/fixtures/onnx_export/npy.js"));

async function main() {
  const [model, input, out, threads, warmup, runs] = process.argv.slice(2);
  if (!runs) throw new Error("usage: node ort_bench.js MODEL.onnx INPUT.npy OUT.npy THREADS WARMUP RUNS");
  const session = await ort.InferenceSession.create(model, {
    executionProviders: ["cpu"],
    intraOpNumThreads: Number(threads),
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });
  const feeds = { [session.inputNames[0]]: readNpy(input) };
  const outName = session.outputNames[0];
  let y;
  for (let r = 0; r < Number(warmup); r++) y = (await session.run(feeds))[outName];
  const ms = [];
  for (let r = 0; r < Number(runs); r++) {
    const t0 = process.hrtime.bigint();
    y = (await session.run(feeds))[outName];
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  ms.sort((a, b) => a - b);
  writeNpy(out, y);
  console.log(JSON.stringify({ median_ms: ms[Math.floor(ms.length / 2)], min_ms: ms[0], runs: ms.length,
                               threads: Number(threads), version: ort.env.versions.node }));
}

main().catch((e) => {
  console.error(`ort_bench.js: ${e.message}`);
  process.exit(1);
});
