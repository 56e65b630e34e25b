// Trains the model the page ships when the main job's model is not there (scripts/build_wasm.sh):
// the page's own training code (burn_web.wasm, web_mnist.hpp's Trainer) run by node.
//   node --no-experimental-fetch make_model.cjs WEB_DIR DIGITS_DIR [SUBSET] [EPOCHS]  -> WEB_DIR/model.bpk
const fs = require('fs');
const path = require('path');

async function main() {
  const [webDir, digitsDir, subset = '0', epochs = '1'] = process.argv.slice(2);
  const factory = require(path.resolve(webDir, 'burn_web.js'));
  const m = await factory();
  const call = (name, ...args) => {
    const types = args.map((a) => (typeof a === 'string' ? 'string' : 'number'));
    const status = m.ccall(name, 'number', types, args);
    if (status !== 0) throw new Error(`${name}: ${m.UTF8ToString(m._bw_error())}`);
  };
  m.FS.mkdir('/mnist');
  for (let d = 0; d < 10; d++) m.FS.writeFile(`/mnist/${d}.json`, fs.readFileSync(path.join(digitsDir, `${d}.json`)));
  call('bw_load_digits', '/mnist');
  call('bw_train_begin', Number(subset), Number(epochs), 32, 2e-3, 42);  // web_mnist.hpp's TrainSettings
  const start = Date.now();
  while (m._bw_train_done() < m._bw_train_total()) call('bw_train_step', 25);
  const secs = (Date.now() - start) / 1000;
  call('bw_train_finish');
  const bytes = m.HEAPU8.slice(m._bw_bytes(), m._bw_bytes() + m._bw_bytes_size());
  fs.writeFileSync(path.join(webDir, 'model.bpk'), bytes);
  call('bw_evaluate', 0);
  console.log(`make_model: ${m._bw_train_samples()} samples in ${secs.toFixed(1)} s ` +
              `(${(m._bw_train_samples() / secs).toFixed(0)} samples/s), held-out accuracy ` +
              `${m._bw_eval_accuracy().toFixed(2)} % on ${m._bw_eval_digits()} digits`);
}
// process.exit: the pthreads module's web workers (worker_threads in node) would keep node running.
main().then(() => process.exit(0), (e) => { console.error(`make_model: ${e.message}`); process.exit(1); });
