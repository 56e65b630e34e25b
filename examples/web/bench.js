// bench.html: cnn_infer_b1 (one digit, batch 1) and training samples/s of the MNIST convnet in burn's
// wasm modules, onnxruntime-web (wasm backend) and TensorFlow.js (wasm backend), one thread each, in
// the same page. Writes one JSON object into <pre id="bench">.
/* global BurnInfer, BurnWeb, ort, tf */
'use strict';

const params = new URLSearchParams(location.search);
const RUNS = Number(params.get('runs') || 300);
// Warm-up per runtime in ms (?warmup=, default 5000): V8 tiers hot wasm functions up to optimised code in
// the background, which on a loaded 2-core machine can take longer than that.
const WARMUP = Number(params.get('warmup') || 5000);
const TRAIN_STEPS = Number(params.get('steps') || 20);
const $ = (id) => document.getElementById(id);

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`fetching ${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// Warm-up for a second first: V8 compiles wasm with its baseline compiler and tiers up to optimised code
// in the background, so early runs are slower.
async function timeRuns(fn) {
  for (const t0 = performance.now(); performance.now() - t0 < WARMUP;) await fn();
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

// A test digit-like input (the same for every framework).
const digit = new Float32Array(784).map((_, i) => ((i * 37) % 101) / 100);
const normalized = digit.map((v) => (v - 0.1307) / 0.3081);

function softmax(logits) {
  const m = Math.max(...logits), e = logits.map((v) => Math.exp(v - m)), s = e.reduce((a, b) => a + b);
  return e.map((v) => v / s);
}
const maxDiff = (a, b) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));

async function burnInfer(model) {
  const m = await BurnInfer();
  const ptr = m._malloc(model.length);
  m.HEAPU8.set(model, ptr);
  if (m._bw_load_model(ptr, model.length) !== 0) throw new Error(m.UTF8ToString(m._bw_error()));
  const inp = m._malloc(784 * 4), out = m._malloc(40);
  m.HEAPF32.set(digit, inp / 4);
  m._bw_classify(inp, 784, out);
  const probs = Array.from(m.HEAPF32.subarray(out / 4, out / 4 + 10));
  // bw_bench_infer: the median of RUNS forwards inside wasm (no JavaScript in the loop)
  // warm-up for a second, as timeRuns does: V8 tiers the module up in the background, and one call of
  // RUNS forwards (about 0.1 s) measured the baseline code for part of its runs (0.41 ms against 0.21)
  for (const t0 = performance.now(); performance.now() - t0 < WARMUP;) m._bw_bench_infer(20);
  const inside = m._bw_bench_infer(RUNS);
  // and through the C API from JavaScript, as the page calls it
  const fromJs = await timeRuns(() => m._bw_classify(inp, 784, out));
  return { ms: inside, ms_js: fromJs, probs };
}

async function ortInfer() {
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.wasmPaths = new URL('vendor/', location.href).href;
  const session = await ort.InferenceSession.create('model.onnx', { executionProviders: ['wasm'] });
  const feeds = { [session.inputNames[0]]: new ort.Tensor('float32', normalized, [1, 28, 28]) };
  const run = async () => (await session.run(feeds))[session.outputNames[0]].data;
  const probs = softmax(Array.from(await run()));
  return { ms: await timeRuns(run), probs };
}

// safetensors: an 8-byte little-endian header length, a JSON header, then the data.
function parseSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const n = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const out = {};
  for (const [name, t] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const [a, b] = t.data_offsets;
    out[name] = { shape: t.shape, data: new Float32Array(bytes.slice(8 + n + a, 8 + n + b).buffer) };
  }
  return out;
}

// The convnet in TensorFlow.js with burn's weights: conv [out, in, kh, kw] -> [kh, kw, in, out], linear
// [out, in] -> [in, out]; the flatten reads NCHW as burn does.
function tfModel(w) {
  const conv = (n) => tf.tensor(w[`${n}.weight`].data, w[`${n}.weight`].shape).transpose([2, 3, 1, 0]);
  const lin = (n) => tf.tensor(w[`${n}.weight`].data, w[`${n}.weight`].shape).transpose([1, 0]);
  const bias = (n) => tf.tensor1d(w[`${n}.bias`].data);
  const p = { c1: conv('conv1'), b1: bias('conv1'), c2: conv('conv2'), b2: bias('conv2'),
              f1: lin('fc1'), g1: bias('fc1'), f2: lin('fc2'), g2: bias('fc2') };
  return (x) => tf.tidy(() => {
    let h = tf.maxPool(tf.relu(tf.add(tf.conv2d(x, p.c1, 1, 'same'), p.b1)), 2, 2, 'valid');
    h = tf.maxPool(tf.relu(tf.add(tf.conv2d(h, p.c2, 1, 'same'), p.b2)), 2, 2, 'valid');
    h = tf.reshape(tf.transpose(h, [0, 3, 1, 2]), [1, 3136]);
    h = tf.relu(tf.add(tf.matMul(h, p.f1), p.g1));
    return tf.add(tf.matMul(h, p.f2), p.g2);
  });
}

async function tfInfer() {
  const w = parseSafetensors(await fetchBytes('model.safetensors'));
  const forward = tfModel(w);
  const x = tf.tensor4d(normalized, [1, 28, 28, 1]);
  const run = () => forward(x).dataSync();
  const probs = softmax(Array.from(run()));
  return { ms: await timeRuns(run), probs };
}

// Training: the same convnet (dropout 0.2 after fc1), Adam lr 1e-3, batch 64, TRAIN_STEPS steps.
async function tfTrain(steps) {
  const model = tf.sequential({ layers: [
    tf.layers.conv2d({ inputShape: [28, 28, 1], filters: 32, kernelSize: 3, padding: 'same', activation: 'relu' }),
    tf.layers.maxPooling2d({ poolSize: 2 }),
    tf.layers.conv2d({ filters: 64, kernelSize: 3, padding: 'same', activation: 'relu' }),
    tf.layers.maxPooling2d({ poolSize: 2 }),
    tf.layers.flatten(),
    tf.layers.dense({ units: 128, activation: 'relu' }),
    tf.layers.dropout({ rate: 0.2 }),
    tf.layers.dense({ units: 10 }),
  ] });
  model.compile({ optimizer: tf.train.adam(1e-3),
                  loss: (y, logits) => tf.losses.softmaxCrossEntropy(y, logits) });
  const x = tf.randomNormal([64, 28, 28, 1]);
  const y = tf.oneHot(tf.randomUniform([64], 0, 10, 'int32'), 10);
  await model.trainOnBatch(x, y);
  const t = performance.now();
  for (let i = 0; i < steps; i++) await model.trainOnBatch(x, y);
  return (64 * steps) / ((performance.now() - t) / 1000);
}

async function burnTrain() {
  const m = await BurnWeb();
  m.FS.mkdir('/mnist');
  for (let d = 0; d < 10; d++) m.FS.writeFile(`/mnist/${d}.json`, await fetchBytes(`mnist/${d}.json`));
  const check = (s) => { if (s !== 0) throw new Error(m.UTF8ToString(m._bw_error())); };
  check(m.ccall('bw_load_digits', 'number', ['string'], ['/mnist']));
  check(m._bw_train_begin(0, 1, 64, 1e-3, 42));  // batch 64 like tfjs below
  check(m._bw_train_step(2));
  const t = performance.now();
  check(m._bw_train_step(TRAIN_STEPS));
  return (64 * TRAIN_STEPS) / ((performance.now() - t) / 1000);
}

async function main() {
  const model = await fetchBytes('model.bpk');
  $('status').textContent = 'burn…';
  const burn = await burnInfer(model);
  $('status').textContent = 'onnxruntime-web…';
  const ortR = await ortInfer();
  $('status').textContent = 'TensorFlow.js…';
  tf.wasm.setThreadsCount(1);
  tf.wasm.setWasmPaths(new URL('vendor/', location.href).href);
  await tf.setBackend('wasm');
  const tfR = await tfInfer();
  $('status').textContent = 'training…';
  const burnSps = await burnTrain();
  console.log(`bench: burn ${JSON.stringify(burn.ms)} ms, ort ${ortR.ms} ms, tfjs ${tfR.ms} ms, burn training ${burnSps}/s`);
  // tfjs-backend-wasm 4.22 has no Conv2DBackpropFilter kernel: training the convnet there throws, so
  // TensorFlow.js trains on its plain JavaScript 'cpu' backend instead (its only other backend here).
  let tfSps = null, tfWasmTrainError = '';
  $('status').textContent = 'training: TensorFlow.js (wasm)…';
  try { tfSps = await tfTrain(TRAIN_STEPS); } catch (e) { tfWasmTrainError = e.message; }
  $('status').textContent = 'training: TensorFlow.js (cpu)…';
  console.log(`bench: tfjs wasm training: ${tfWasmTrainError || tfSps}; now the cpu backend`);
  await tf.setBackend('cpu');
  const tfCpuSps = await tfTrain(Number(params.get('cpu_steps') || 3));
  const result = {
    cnn_infer_b1_ms: { burn: burn.ms, burn_from_js: burn.ms_js, ort_web: ortR.ms, tfjs_wasm: tfR.ms },
    max_prob_diff_vs_burn: { ort_web: maxDiff(ortR.probs, burn.probs), tfjs_wasm: maxDiff(tfR.probs, burn.probs) },
    train_samples_per_s: { burn: burnSps, tfjs_wasm: tfSps, tfjs_cpu: tfCpuSps },
    tfjs_wasm_train_error: tfWasmTrainError,
    versions: { ort_web: ort.env.versions ? ort.env.versions.web : '', tfjs: tf.version.tfjs },
    cross_origin_isolated: self.crossOriginIsolated,
  };
  $('table').innerHTML = Object.entries(result.cnn_infer_b1_ms)
    .map(([k, v]) => `<tr><th>${k}</th><td>${v.toFixed(3)} ms</td></tr>`).join('');
  $('bench').textContent = JSON.stringify(result);
  $('status').textContent = 'done';
}

main().catch((e) => {
  $('status').textContent = `failed: ${e.message}`;
  $('bench').textContent = JSON.stringify({ error: e.message });
});
