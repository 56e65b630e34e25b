// The page: burn_infer.wasm on the main thread classifies what is drawn (live), worker.js evaluates and
// trains and runs ONNX models picked from disk. index.html?selftest=1 runs everything without input and
// writes one JSON object into <pre id="selftest"> (docs/wasm.md, "The selftest contract"), after the ONNX
// part's into <pre id="selftest-onnx">.
/* global BurnInfer */
'use strict';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const selftest = params.get('selftest') === '1';
let infer = null;       // the inference module
let modelBytes = null;  // the Burnpack the page classifies with
let worker = null;
let workerReady = null; // resolves when the digits are loaded in the worker

function showError(message) {
  $('error').textContent = message ? `Error: ${message}` : '';
}
function status(text) { $('status').textContent = text; }

// ---- the inference module ----------------------------------------------------------------------------
function lastError() { return infer.UTF8ToString(infer._bw_error()); }

function loadModel(bytes, name) {
  const ptr = infer._malloc(Math.max(bytes.length, 1));
  infer.HEAPU8.set(bytes, ptr);
  const status = infer._bw_load_model(ptr, bytes.length);
  infer._free(ptr);
  if (status !== 0) throw new Error(`cannot load ${name}: ${lastError()}`);
  modelBytes = bytes;
  $('model-name').textContent = `model: ${name}`;
}

// Classifies grey levels (784 expected); returns the ten probabilities or throws with burn's message.
function classify(pixels) {
  const input = infer._malloc(pixels.length * 4 || 4);
  const out = infer._malloc(10 * 4);
  try {
    infer.HEAPF32.set(pixels, input / 4);
    if (infer._bw_classify(input, pixels.length, out) !== 0) throw new Error(lastError());
    return Array.from(infer.HEAPF32.subarray(out / 4, out / 4 + 10));
  } finally {
    infer._free(input);
    infer._free(out);
  }
}

// ---- drawing -----------------------------------------------------------------------------------------
const pad = $('pad');
const ctx = pad.getContext('2d');
let drawing = false;
let dirty = false;

function clearPad() {
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, pad.width, pad.height);
  $('guess').textContent = '?';
  drawBars(new Array(10).fill(0));
}

function stroke(e) {
  const r = pad.getBoundingClientRect();
  const x = e.clientX - r.left, y = e.clientY - r.top;
  ctx.lineTo(x, y);
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(x, y);
  dirty = true;
}

pad.addEventListener('pointerdown', (e) => {
  drawing = true;
  ctx.strokeStyle = '#fff'; ctx.lineWidth = 20; ctx.lineCap = 'round'; ctx.lineJoin = 'round';
  ctx.beginPath();
  const r = pad.getBoundingClientRect();
  ctx.moveTo(e.clientX - r.left, e.clientY - r.top);
  stroke(e);
});
pad.addEventListener('pointermove', (e) => { if (drawing) stroke(e); });
window.addEventListener('pointerup', () => { drawing = false; });
$('clear').onclick = clearPad;

// MNIST's framing: the drawing's bounding box scaled into 20 x 20, centred in 28 x 28.
function padPixels() {
  const img = ctx.getImageData(0, 0, pad.width, pad.height).data;
  let x0 = pad.width, y0 = pad.height, x1 = -1, y1 = -1;
  for (let y = 0; y < pad.height; y++)
    for (let x = 0; x < pad.width; x++)
      if (img[(y * pad.width + x) * 4] > 0) { x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y); }
  if (x1 < 0) return null;
  const w = x1 - x0 + 1, h = y1 - y0 + 1, s = 20 / Math.max(w, h);
  const small = document.createElement('canvas');
  small.width = 28; small.height = 28;
  const sc = small.getContext('2d');
  sc.fillStyle = '#000'; sc.fillRect(0, 0, 28, 28);
  sc.imageSmoothingEnabled = true;
  sc.drawImage(pad, x0, y0, w, h, 14 - (w * s) / 2, 14 - (h * s) / 2, w * s, h * s);
  const d = sc.getImageData(0, 0, 28, 28).data;
  const pixels = new Float32Array(784);
  for (let i = 0; i < 784; i++) pixels[i] = d[i * 4] / 255;
  return pixels;
}

function drawBars(p) {
  const best = p.indexOf(Math.max(...p));
  $('bars').innerHTML = p.map((v, i) =>
    `<div class="bar${v > 0 && i === best ? ' best' : ''}"><div style="height:${Math.round(v * 150)}px"></div>` +
    `${i}<br>${(v * 100).toFixed(0)}%</div>`).join('');
}

function tick() {
  if (dirty && infer && modelBytes) {
    dirty = false;
    const pixels = padPixels();
    if (pixels) {
      try {
        const p = classify(pixels);
        drawBars(p);
        $('guess').textContent = String(p.indexOf(Math.max(...p)));
        showError('');
      } catch (err) { showError(err.message); }
    }
  }
  requestAnimationFrame(tick);
}

$('model-file').onchange = async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  try {
    loadModel(new Uint8Array(await file.arrayBuffer()), file.name);
    showError('');
    dirty = true;
  } catch (err) { showError(err.message); }
};

// ---- the worker and training -------------------------------------------------------------------------
let onWorker = null;  // the handler of the current request: (message) => void

function startWorker() {
  worker = new Worker('worker.js');
  worker.onmessage = (e) => {
    if (e.data.type === 'progress') { showProgress(e.data); return; }
    if (onWorker) onWorker(e.data);
  };
  worker.onerror = (e) => { if (onWorker) onWorker({ type: 'error', message: e.message || 'worker failed' }); };
  workerReady = request({ cmd: 'init' }, 'ready');
  return workerReady;
}

// Sends a message to the worker; resolves with its answer of type `want`, rejects on an error.
function request(msg, want, transfer) {
  return new Promise((resolve, reject) => {
    if (onWorker) { reject(new Error('the worker is busy (training?): try again when it is done')); return; }
    onWorker = (data) => {
      onWorker = null;
      if (data.type === 'error') reject(new Error(data.message));
      else if (data.type === want) resolve(data);
      else reject(new Error(`unexpected answer ${data.type} from the worker`));
    };
    worker.postMessage(msg, transfer || []);
  });
}

const curve = { loss: [], accuracy: [] };

function showProgress(p) {
  $('progress').value = p.done / p.total;
  curve.loss.push(p.loss);
  curve.accuracy.push(p.accuracy / 100);
  $('train-status').textContent = `step ${p.done} / ${p.total}: loss ${p.loss.toFixed(3)}, batch accuracy ` +
    `${p.accuracy.toFixed(1)} %, ${(p.samples / (p.ms / 1000)).toFixed(0)} samples/s`;
  drawCurve();
}

function drawCurve() {
  const c = $('curve').getContext('2d');
  const W = c.canvas.width, H = c.canvas.height;
  c.clearRect(0, 0, W, H);
  c.strokeStyle = '#ccc'; c.strokeRect(0, 0, W, H);
  const n = curve.loss.length;
  const maxLoss = Math.max(2.5, ...curve.loss);
  const plot = (values, scale, color) => {
    c.strokeStyle = color; c.beginPath();
    values.forEach((v, i) => {
      const x = n > 1 ? (i / (n - 1)) * (W - 10) + 5 : 5, y = H - 5 - (v / scale) * (H - 10);
      if (i === 0) c.moveTo(x, y); else c.lineTo(x, y);
    });
    c.stroke();
  };
  plot(curve.loss, maxLoss, '#d0704a');
  plot(curve.accuracy, 1, '#4a7bd0');
  c.fillStyle = '#d0704a'; c.fillText('loss', 10, 14);
  c.fillStyle = '#4a7bd0'; c.fillText('batch accuracy', 40, 14);
}

async function train(settings) {
  curve.loss = []; curve.accuracy = [];
  $('train').disabled = true;
  try {
    status('loading the digits in the worker…');
    await workerReady;
    status('training in the worker…');
    const r = await request({ cmd: 'train', lr: 2e-3, ...settings }, 'trained');
    loadModel(r.model, `trained here (${r.epochs} epoch${r.epochs > 1 ? 's' : ''})`);
    $('train-status').textContent = `trained: ${r.steps} steps, ${r.samples} samples, ` +
      `${r.samples_per_s.toFixed(0)} samples/s; held-out accuracy ${r.accuracy.toFixed(2)} % on ${r.digits} digits`;
    status('ready: the trained model classifies what you draw');
    return r;
  } finally { $('train').disabled = false; }
}

// The worker yields between chunks of batches, so this reaches it: training stops, and the model as
// trained so far is evaluated and used.
$('stop').onclick = () => { if (worker) worker.postMessage({ cmd: 'stop' }); };

$('train').onclick = () => {
  train({ subset: Number($('subset').value), epochs: Number($('epochs').value), batch: Number($('batch').value) })
    .catch((err) => showError(err.message));
};

// ---- ONNX from disk (in the worker: onnx_api.cpp) ------------------------------------------------------
function describeSpec(v) {
  return `${v.name} ${v.dtype} [${v.shape ? v.shape.join(', ') : '?'}]`;
}

async function onnxLoad(bytes, name) {
  const info = await request({ cmd: 'onnx-load', bytes }, 'onnx', [bytes.buffer]);
  const ops = Object.entries(info.ops).map(([op, n]) => `${op} ${n}`).join(', ');
  $('onnx-info').textContent = `${name}: opset ${info.opset}, ${info.nodes} nodes (${ops})` +
    `${info.producer ? `, from ${info.producer}` : ''}\ninputs:  ${info.inputs.map(describeSpec).join('; ')}` +
    `\noutputs: ${info.outputs.map(describeSpec).join('; ')}`;
  $('onnx-run').disabled = false;
  return info;
}

async function onnxRun(pixels) {
  const r = await request({ cmd: 'onnx-run', pixels, scaling: Number($('onnx-scaling').value) }, 'onnx');
  $('onnx-out').textContent = `ran in ${r.ms.toFixed(2)} ms on ${pixels ? 'the drawing' : 'generated inputs'}\n` +
    r.outputs.map((o) => `${o.name} ${o.dtype} [${o.shape.join(', ')}]: arg max ${o.argmax}; ` +
      `${o.values.map((v) => Number(v.toPrecision(4))).join(', ')}${o.values.length < o.shape.reduce((a, b) => a * b, 1) ? ', …' : ''}`).join('\n');
  return r;
}

$('onnx-file').onchange = async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  $('onnx-info').textContent = ''; $('onnx-out').textContent = ''; $('onnx-run').disabled = true;
  try {
    await workerReady;
    const info = await onnxLoad(new Uint8Array(await file.arrayBuffer()), file.name);
    const takesDigit = info.inputs.length > 0 && info.inputs[0].dtype.startsWith('f') && info.inputs[0].shape &&
      info.inputs[0].shape.map((d) => (typeof d === 'number' ? d : 1)).reduce((a, b) => a * b, 1) === 784;
    await onnxRun(takesDigit ? padPixels() : null);
    showError('');
  } catch (err) { showError(err.message); }
};
$('onnx-run').onclick = () => onnxRun(padPixels()).then(() => showError('')).catch((err) => showError(err.message));

// The selftest's ONNX part: the site's model.onnx (the shipped model, exported by web_native) read as a
// file picked from disk would be, a truncated copy refused readably, the 2,000 held-out digits classified.
async function onnxSelftest() {
  let bytes;
  try { bytes = await fetchBytes('model.onnx'); } catch (err) { return { onnx: `skipped: ${err.message}` }; }
  let corruptError = '';
  try { await onnxLoad(bytes.slice(0, Math.floor(bytes.length / 2)), 'a truncated model.onnx'); } catch (err) { corruptError = err.message; }
  if (!corruptError.includes('ONNX')) throw new Error(`a truncated ONNX model was not refused readably: '${corruptError}'`);
  const info = await onnxLoad(bytes.slice(), 'model.onnx');
  const run = await onnxRun(null);
  const e = await request({ cmd: 'onnx-eval', limit: 0, scaling: 0 }, 'onnx');
  return {
    onnx_accuracy: Number(e.accuracy.toFixed(2)), onnx_digits: e.digits, onnx_ms_per_digit: Number(e.ms_per_digit.toFixed(4)),
    onnx_nodes: info.nodes, onnx_opset: info.opset, onnx_outputs: run.outputs.map((o) => o.shape), onnx_corrupt_error: corruptError,
  };
}

// ---- start and selftest ------------------------------------------------------------------------------
async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`fetching ${url}: HTTP ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

// Bad input must give readable errors: a corrupt model file and a wrong-shaped drawing buffer.
function checkBadInput(shipped) {
  const corrupt = shipped.slice(0, 200);
  corrupt[0] ^= 0xff;
  let loadError = '';
  try { loadModel(corrupt, 'a corrupt model'); } catch (err) { loadError = err.message; }
  if (!loadError) throw new Error('a corrupt model file was accepted');
  let shapeError = '';
  try { classify(new Float32Array(100)); } catch (err) { shapeError = err.message; }
  if (!shapeError.includes('784')) throw new Error(`a 100-value drawing was not rejected: '${shapeError}'`);
  showError(`${loadError}\n${shapeError}`);  // shown, as a user would see them
  loadModel(shipped, 'model.bpk (shipped)');
}

async function runSelftest(shipped) {
  const t0 = performance.now();
  checkBadInput(shipped);
  const ready = await workerReady;
  status('selftest: classifying the 2,000 held-out digits…');
  const e = await request({ cmd: 'eval', model: shipped.slice() }, 'eval');
  status('selftest: an ONNX model…');
  const o = await onnxSelftest();
  $('selftest-onnx').textContent = JSON.stringify(o);
  const subset = Number(params.get('subset') || 8000), epochs = Number(params.get('epochs') || 1);
  status('selftest: training…');
  const t = await train({ subset, epochs, batch: 32 });
  const result = {
    accuracy: Number(e.accuracy.toFixed(2)), digits: e.digits, ms_per_digit: Number(e.ms_per_digit.toFixed(4)),
    train_epochs: epochs, train_accuracy: Number(t.accuracy.toFixed(2)), threads: ready.threads,
  };
  console.log(`selftest: ${JSON.stringify({ ...result, train_digits: subset, train_samples_per_s: t.samples_per_s, wall_s: (performance.now() - t0) / 1000 })}`);
  $('selftest').textContent = JSON.stringify(result);
  status('selftest done');
}

async function main() {
  clearPad();
  requestAnimationFrame(tick);
  infer = await BurnInfer();
  startWorker().catch((err) => showError(`the training worker: ${err.message}`));
  const shipped = await fetchBytes('model.bpk');
  loadModel(shipped, 'model.bpk (shipped)');
  const threads = infer._bw_threads();
  status(`ready: draw a digit (${threads > 1 ? `${threads} threads` : 'single-threaded'})`);
  if (selftest) await runSelftest(shipped);
}

main().catch((err) => {
  showError(err.message);
  status('failed');
  if (selftest) $('selftest').textContent = JSON.stringify({ error: err.message });
});
