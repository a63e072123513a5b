// Screenshots of every view in the system's Chromium (1280x800 and 420 wide, light and dark), against the
// dev server and the recorded fixtures; checks on the way that the page raised no CSP violation, no error
// and no dialog, and that hostile names and content render as text; and times the first screen of the
// 1,000-file turn.
//
//   cd panel && npm ci && npm run build && cd dev && npm ci && node shots.mjs [--only NAME]
//
// Writes dev/screenshots/*.png (quantised to 256 colours with pngquant when the machine has it: a third of
// the bytes, for the copies kept in the repository) and prints the timings as JSON on the last line.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.join(here, 'screenshots');
const meta = JSON.parse(fs.readFileSync(path.join(here, 'fixtures/meta.json'), 'utf8'));
const T = meta.turns;
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];
const XSS_NAME = '<img src=x onerror=alert(1)>.txt';
const PNGQUANT = ['/usr/bin/pngquant', '/usr/local/bin/pngquant'].find(p => fs.existsSync(p));

fs.mkdirSync(outDir, { recursive: true });
const problems = [];
const check = (ok, what) => {
  if (!ok) problems.push(what);
};

async function devServer(...extra) {
  const child = spawn(process.execPath, [path.join(here, 'serve.mjs'), '--port', '0', '--codes', '10', ...extra], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', code => reject(new Error(`serve.mjs exited with ${code}`)));
  });
  return { child, ...JSON.parse(line) };
}

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });

/** Records dialogs, errors and CSP violations of a page. */
async function prepare(page) {
  page.dialogs = [];
  page.on('dialog', async d => {
    page.dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss();
  });
  page.on('pageerror', e => problems.push(`page error: ${e.message}`));
  page.on('console', m => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console error: ${m.text()}`);
  });
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', e => window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  return page;
}

/** A logged-in tab; the login URL is used once, and the tab keeps its anti-CSRF value across navigations. */
async function tab(server, { width = 1280, height = 800, dark = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme: dark ? 'dark' : 'light', deviceScaleFactor: 1 });
  const page = await prepare(await context.newPage());
  await page.goto(server.login_urls.shift());
  await page.waitForSelector('.cards');
  check(!page.url().includes('login='), 'the login code stayed in the address bar');
  return page;
}

async function settle(page) {
  await page.waitForFunction(() => !document.querySelector('.state-loading'));
  await page.waitForTimeout(150);
}

async function shot(page, name) {
  if (only && !name.includes(only)) return;
  await settle(page);
  const violations = await page.evaluate(() => window.__violations);
  check(violations.length === 0, `${name}: CSP violations ${violations.join(' | ')}`);
  check(page.dialogs.length === 0, `${name}: dialogs ${page.dialogs.join(' | ')}`);
  const file = path.join(outDir, `${name}.png`);
  await page.screenshot({ path: file });
  if (PNGQUANT) spawnSync(PNGQUANT, ['--quality=70-95', '--speed', '1', '--strip', '--force', '--ext', '.png', file], { stdio: 'inherit' });
  console.error(`shot ${name}`);
}

async function go(page, hash) {
  await page.evaluate(h => { location.hash = h; }, hash);
  await page.waitForTimeout(50);
  await settle(page);
}

async function selectFile(page, filePath) {
  await page.fill('.filter', filePath);
  await page.click('.file-row >> nth=0');
  await page.fill('.filter', '');
  await page.locator('.filter').blur();
  await settle(page);
}

const enc = encodeURIComponent;
const shop = '/tmp/turndiff-panel-demo/shop-api';

// ---- A: the recorded store after the rewind and its undo ----------------------------------------------

const a = await devServer('--state', 'undone', '--no-live');
for (const dark of [false, true]) {
  const theme = dark ? 'dark' : 'light';
  const page = await tab(a, { dark });
  await shot(page, `workspaces-1280-${theme}`);
  await go(page, `#/w/${enc(shop)}`);
  await shot(page, `sessions-1280-${theme}`);
  await go(page, '#/s/conv-discounts');
  await shot(page, `timeline-1280-${theme}`);
  if (!dark) {
    // j/k and Enter on the timeline
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    check(await page.evaluate(() => [...document.querySelectorAll('.turn-row')].findIndex(r => r.classList.contains('selected'))) === 1, 'j/k move the selected turn');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.review-head');
    check(page.url().includes('#/t/'), 'Enter opens the selected turn');
    await page.keyboard.press('s');
    check(await page.locator('.d2h-file-side-diff').count() > 0, 's shows side by side');
    await page.keyboard.press('u');
    check(await page.locator('.d2h-file-side-diff').count() === 0, 'u shows unified');
  }

  await go(page, `#/t/${T.t1}?file=${enc('src/shop/cart.py')}`);
  await page.click('text=Side by side');
  await shot(page, `turn-side-by-side-1280-${theme}`);
  if (!dark) {
    await page.keyboard.press('u');
    await shot(page, 'turn-unified-1280-light');
    // the hostile name and content: text, no element made, no dialog
    await selectFile(page, 'onerror');
    const name = await page.textContent('.diff-path');
    check(name === XSS_NAME, `the file name renders as text (got ${name})`);
    const injected = await page.evaluate(() => document.querySelectorAll('img[src="x"], script:not([src])').length);
    check(injected === 0, `injected elements: ${injected}`);
    const content = await page.textContent('.diff-body');
    check(content.includes('</script><script>alert(1)</script>'), 'the hostile content renders as text');
    await shot(page, 'turn-hostile-name-1280-light');
    await selectFile(page, 'pricing.py');
    check(await page.locator('.no-eol').count() > 0, 'the missing newline is marked on its line');
    await shot(page, 'turn-no-newline-1280-light');
    await go(page, `#/t/${T.t2}?file=${enc('assets/logo.png')}`);
    await shot(page, 'turn-binary-1280-light');
    await selectFile(page, 'build.sh');
    await shot(page, 'turn-mode-1280-light');
    await selectFile(page, 'active.toml');
    await shot(page, 'turn-type-change-1280-light');
    await go(page, `#/t/${T.t3}?file=${enc('data/catalog.json')}`);
    await shot(page, 'turn-too-large-1280-light');
    await go(page, `#/t/${T.t4}?file=${enc('requirements.txt')}`);
    await shot(page, 'turn-shell-scan-1280-light');
    await go(page, `#/r/${T.t1}/${T.t5}`);
    await shot(page, 'range-1280-light');
    await go(page, `#/h/${enc(shop)}/${enc('src/shop/cart.py')}`);
    await shot(page, 'history-1280-light');
  }
  await go(page, `#/t/${T.t3}?file=${enc('config/credentials.env')}`);
  await shot(page, `turn-not-captured-1280-${theme}`);
  await go(page, `#/t/${T.m2}`);
  await shot(page, `turn-1000-files-1280-${theme}`);

  await go(page, `#/t/${T.t1}`);
  await page.click('text=Rewind turn…');
  await page.waitForSelector('.tallies');
  await shot(page, `rewind-plan-conflicts-1280-${theme}`);
  await page.keyboard.press('Escape');
  if (!dark) {
    await go(page, `#/t/${T.t3}`);
    await page.click('text=Rewind to here…');
    await page.waitForSelector('.tallies');
    await shot(page, 'rewind-to-plan-1280-light');
    await page.keyboard.press('Escape');
    await go(page, `#/t/${T.t1}?file=${enc('docs/discounts.md')}`);
    await page.click('text=Rewind file…');
    await page.waitForSelector('.tallies');
    await shot(page, 'rewind-file-plan-1280-light');
    await page.keyboard.press('Escape');
  }
  await page.context().close();
}

// narrow windows
for (const dark of [false, true]) {
  const theme = dark ? 'dark' : 'light';
  const page = await tab(a, { width: 420, height: 860, dark });
  await go(page, '#/s/conv-discounts');
  await shot(page, `timeline-420-${theme}`);
  await go(page, `#/t/${T.t3}`);
  await shot(page, `turn-files-420-${theme}`);
  await page.click('.file-row >> nth=5');
  await shot(page, `turn-diff-420-${theme}`);
  if (!dark) {
    await page.click('.back-to-files');
    await page.click('text=Rewind turn…');
    await page.waitForSelector('.tallies');
    await shot(page, 'rewind-plan-420-light');
    await page.keyboard.press('Escape');
  }
  await page.context().close();
}

// the first screen of the 1,000-file turn, in a fresh document each time (same tab, so still logged in)
const timings = [];
{
  const page = await tab(a);
  for (let run = 0; run < 5; run++) {
    await page.goto('about:blank');
    await page.goto(`${a.url}/#/t/${T.m2}`);
    await page.waitForFunction(() => document.body.dataset.firstScreen);
    const t = await page.evaluate(() => ({
      first_screen_ms: Number(document.body.dataset.firstScreen),
      rows_in_dom: document.querySelectorAll('.file-row').length,
      records: document.querySelector('.filelist-summary').textContent,
      records_request_ms: performance.getEntriesByType('resource').filter(r => r.name.includes('/v1/turns/') && !r.name.includes('/file'))
        .map(r => Math.round(r.duration))[0],
    }));
    timings.push(t);
  }
  // j walks the files; the next diff was fetched ahead
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await settle(page);
  check((await page.textContent('.diff-path')).includes('module-002'), 'j moves to the next file');
  await page.context().close();
}

// the login URL works once; a tab with no session sees the login page, and the API refuses it
{
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await prepare(await context.newPage());
  const used = a.login_urls.shift();
  await page.goto(used);
  await page.waitForSelector('.cards');
  const second = await prepare(await context.newPage());
  await second.goto(used);
  await second.waitForSelector('.login-needed');
  await shot(second, 'login-needed-1280-light');
  const status = await second.evaluate(async () => (await fetch('/v1/workspaces')).status);
  check(status === 403, `a call with the cookie but without the CSRF header is refused (got ${status})`);
  // over raw HTTP, with the session's own cookie and CSRF value
  const cookie = (await context.cookies()).find(c => c.name.startsWith('turndiff_session_'));
  check(cookie?.httpOnly && cookie.sameSite === 'Strict' && cookie.path === '/', `the session cookie is HttpOnly, SameSite=Strict, Path=/ (${JSON.stringify(cookie)})`);
  const csrf = await page.evaluate(() => sessionStorage.getItem('turndiff.csrf'));
  const raw = (headers, method = 'GET', target = '/v1/workspaces', body) => fetch(a.url + target, { method, headers, body }).then(r => r.status);
  const auth = { Cookie: `${cookie.name}=${cookie.value}`, 'X-Turndiff-CSRF': csrf };
  check(await raw(auth) === 200, 'cookie + CSRF header: 200');
  check(await raw({ 'X-Turndiff-CSRF': csrf }) === 401, 'no cookie: 401');
  check(await raw({ Cookie: auth.Cookie }) === 403, 'no CSRF header: 403');
  check(await raw({ ...auth, 'X-Turndiff-CSRF': 'x'.repeat(csrf.length) }) === 403, 'a wrong CSRF value: 403');
  check(await raw({ ...auth, Origin: 'http://127.0.0.1:1', 'Content-Type': 'application/json' }, 'POST', '/v1/rewind', '{"turn":"x","dry_run":true}') === 403, 'a cross-origin POST: 403');
  check(await raw({ ...auth, 'Sec-Fetch-Site': 'same-site' }) === 403, 'a same-site (other port) request: 403');
  const headers = (await fetch(`${a.url}/`)).headers;
  check(headers.get('content-security-policy')?.includes("frame-ancestors 'none'") && headers.get('x-content-type-options') === 'nosniff'
    && headers.get('referrer-policy') === 'no-referrer', 'the security headers on /');
  await context.close();
}
a.child.kill();

// ---- B: live, then a real (recorded) rewind and its undo ---------------------------------------------

const b = await devServer('--live-delay', '1500', '--live-step', '1800');
{
  // a second tab stays on the workspaces page (every event): its count of turns moves without a reload
  const watcher = await tab(b);
  const shopCard = () => watcher.locator('.card', { hasText: 'shop-api' }).textContent();
  check((await shopCard()).includes('6 turns'), 'the workspaces page starts with 6 turns of shop-api');
  const page = await tab(b);
  await go(page, '#/s/conv-discounts');
  await page.waitForSelector('.turn-open', { timeout: 10_000 });
  await page.waitForFunction(() => document.querySelector('.turn-open .turn-stats')?.textContent.includes('1 file'));
  await shot(page, 'timeline-live-1280-light');
  await watcher.waitForFunction(() => [...document.querySelectorAll('.card')].some(c => c.textContent.includes('shop-api') && c.textContent.includes('7 turns')), null, { timeout: 10_000 });
  await shot(watcher, 'workspaces-live-1280-light');
  await watcher.context().close();
  await page.click('.turn-open .turn-link');
  await page.waitForSelector('.file-row');
  await shot(page, 'turn-live-open-1280-light');
  await page.waitForFunction(() => document.querySelectorAll('.file-row').length >= 3, null, { timeout: 10_000 });
  await page.waitForFunction(() => !document.querySelector('.chip-open'), null, { timeout: 10_000 });
  await settle(page);
  await shot(page, 'turn-live-finished-1280-light');
  check((await page.textContent('.review-head')).includes('Turn 6'), 'the live turn is shown');

  await go(page, `#/t/${T.t4}`);
  await page.click('text=Rewind to here…');
  await page.waitForSelector('.tallies');
  await page.click('.dialog-actions .button-danger');
  await page.waitForSelector('text=Undo this rewind…');
  await shot(page, 'rewind-done-1280-light');
  await page.click('text=Undo this rewind…');
  await page.waitForSelector('.tallies');
  await shot(page, 'rewind-undo-plan-1280-light');
  await page.click('.dialog-actions .button-danger');
  await page.waitForSelector('text=Done');
  await page.click('.dialog-actions .button-primary');
  await go(page, '#/s/conv-discounts');
  await page.waitForTimeout(300);
  await shot(page, 'timeline-after-undo-1280-light');
  await page.context().close();
}
b.child.kill();
await browser.close();

const sorted = timings.map(t => t.first_screen_ms).sort((x, y) => x - y);
console.log(JSON.stringify({ first_screen_1000_files_ms: { runs: timings.map(t => t.first_screen_ms), median: sorted[2] },
  records_request_ms: timings.map(t => t.records_request_ms), rows_in_dom: timings[0].rows_in_dom, list: timings[0].records, problems }));
if (problems.length) process.exit(1);
