// onnxruntime's side of bench/onnx/run.sh (onnxruntime-node, its CPU execution provider): loads an
// .onnx model, runs it on one float32 input (.npy) a few times to warm up, then times `runs` more runs
// and prints the median and the minimum in milliseconds as one JSON line; writes the first output to
// OUT.npy.
//
//   NODE_PATH=DIR/node_modules node ort_bench.js MODEL.onnx INPUT.npy OUT.npy THREADS WARMUP RUNS
"use strict";
const fs = require("fs");
const ort = require("onnxruntime-node");

function readNpy(path) {
  const buf = fs.readFileSync(path);
  if (buf.readUInt8(0) !== 0x93 || buf.toString("latin1", 1, 6) !== "NUMPY")
    throw new Error(`${path}: not a .npy file`);
  const major = buf.readUInt8(6);
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLen;
  const header = buf.toString("latin1", major === 1 ? 10 : 12, start);
  if (!/'descr':\s*'<f4'/.test(header) || /'fortran_order':\s*True/.test(header))
    throw new Error(`${path}: expected little-endian float32 in C order, header ${header}`);
  const shape = header.match(/'shape':\s*\(([^)]*)\)/)[1].split(",").map((s) => s.trim()).filter((s) => s).map(Number);
  const n = shape.reduce((a, b) => a * b, 1);
  const data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = buf.readFloatLE(start + 4 * i);
  return new ort.Tensor("float32", data, shape);
}

function writeNpy(path, tensor) {
  const shape = tensor.dims.length === 1 ? `(${tensor.dims[0]},)` : `(${tensor.dims.join(", ")})`;
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
  header += " ".repeat(63 - ((10 + header.length) % 64)) + "\n";  // data on a 64-byte boundary
  const head = Buffer.alloc(10);
  head.writeUInt8(0x93, 0);
  head.write("NUMPY", 1, "latin1");
  head.writeUInt8(1, 6);
  head.writeUInt8(0, 7);
  head.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength);
  fs.writeFileSync(path, Buffer.concat([head, Buffer.from(header, "latin1"), data]));
}

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
