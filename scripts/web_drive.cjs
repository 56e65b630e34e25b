// Opens a page of examples/web in headless Chromium (Debian's /usr/bin/chromium driven by npm
// playwright-core), waits until <pre id="ID"> holds a JSON object, prints it and exits 0 (1 when the
// object has an "error" key, the page fails or the time runs out). ID may be a comma-separated list:
// each element's JSON is printed on its own line, in that order. Used by scripts/web_check.sh and
// scripts/web_bench.sh.
//   NODE_PATH=<dir>/node_modules node web_drive.cjs URL [ID[,ID...]] [TIMEOUT_S]
const { chromium } = require('playwright-core');

async function main() {
  const [url, id = 'selftest', timeoutS = '600'] = process.argv.slice(2);
  const browser = await chromium.launch({
    executablePath: process.env.BURN_CHROMIUM || '/usr/bin/chromium',
    // BURN_WEB_JS_FLAGS: V8 flags for experiments (e.g. --no-liftoff: every wasm function compiled
    // optimised up front, no tier-up during the measurement)
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'].concat(
      process.env.BURN_WEB_JS_FLAGS ? ['--js-flags=' + process.env.BURN_WEB_JS_FLAGS] : []),
  });
  let status = 1;
  try {
    const page = await browser.newPage();
    page.on('console', (m) => console.error(`[page ${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => console.error(`[page error] ${e.message}`));
    const start = Date.now();
    await page.goto(url);
    status = 0;
    for (const one of id.split(',')) {
      const left = Math.max(1000, Number(timeoutS) * 1000 - (Date.now() - start));
      const handle = await page.waitForFunction((sel) => {
        const el = document.getElementById(sel);
        // the page writes {"error": ...} into the main element when anything fails
        const main = document.getElementById('selftest');
        if (main && main.textContent.includes('"error"')) return main.textContent;
        return el && el.textContent.trim().startsWith('{') ? el.textContent : null;
      }, one, { timeout: left, polling: 250 });
      const text = await handle.jsonValue();
      console.log(text);
      if (JSON.parse(text).error) { status = 1; break; }
    }
    console.error(`web_drive: ${url} answered in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  } catch (e) {
    console.error(`web_drive: ${e.message}`);
  } finally {
    await browser.close();
  }
  process.exit(status);
}
main();
