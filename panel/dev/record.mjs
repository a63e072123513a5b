// Records the fixtures that dev/serve.mjs replays, from a REAL `turndiff serve` of this repository.
//
//   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 node panel/dev/record.mjs
//
// It builds two workspaces under /tmp/turndiff-panel-demo (removed first), runs real turns in them through
// the HTTP API (tool edits, shell changes in a tracked workspace, a write through a link out of the
// workspace, a file over the size limit, a hardlink, a FIFO, a binary file, a mode change, a type change, a
// 1,000-file turn, a turn that stays open while files are snapshotted, rewinds and their undo), and saves
// every response the panel asks for, state by state, in panel/dev/fixtures/.
//
// Endpoints and fields the service does not have yet (see docs/review-panel.md: GET /v1/workspaces, the
// listing fields not_restorable / detected_by_scan / rewound_by / rewinds, GET /v1/range/file, the events)
// are composed here from real responses, and every such fixture says so in "emulated".
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { keyOf } from './fixture-key.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const out = path.join(here, 'fixtures');
const root = '/tmp/turndiff-panel-demo';

// ---- the service ------------------------------------------------------------------------------------

fs.rmSync(root, { recursive: true, force: true });
fs.mkdirSync(path.join(root, 'store'), { recursive: true });
const server = spawn(path.join(repo, 'turndiff'), ['serve', '--port', '0', '--db', path.join(root, 'store/turndiff.db')],
  { stdio: ['ignore', 'pipe', 'inherit'] });
const first = await new Promise((resolve, reject) => {
  readline.createInterface({ input: server.stdout }).once('line', resolve);
  server.once('exit', code => reject(new Error(`turndiff serve exited with ${code}`)));
});
const { url: base, token_file: tokenFile } = JSON.parse(first);
const token = fs.readFileSync(tokenFile, 'utf8').trim();
console.error(`recording from ${base}`);

async function call(method, target, body) {
  const response = await fetch(base + target, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const headers = {};
  for (const name of ['turndiff-operation', 'turndiff-resumed']) {
    if (response.headers.has(name)) headers[name] = response.headers.get(name);
  }
  return { status: response.status, type: response.headers.get('content-type'), headers, body: text };
}

async function must(method, target, body) {
  const r = await call(method, target, body);
  if (r.status >= 300) throw new Error(`${method} ${target} ${JSON.stringify(body ?? '')}: ${r.status} ${r.body}`);
  return r.type?.startsWith('application/json') ? JSON.parse(r.body) : r.body;
}

// ---- fixtures: one map of responses per state; each state keeps only what differs from the one before ----

const states = [];                      // [{name, entries: Map}]
const facts = {                         // what the emulated fields are composed of
  summaries: new Map(),                 // turn -> finish summary
  rewinds: [],                          // real rewind reports (not dry runs)
  workspaces: [],
};

function beginState(name) {
  states.push({ name, entries: new Map() });
}


function save(key, response, emulated) {
  const entry = { status: response.status, type: response.type, headers: response.headers, body: response.body };
  if (emulated) entry.emulated = emulated;
  states.at(-1).entries.set(key, entry);
}

async function record(method, target, body) {
  const r = await call(method, target, body);
  save(keyOf(method, target, body), r);
  return r;
}

const json = (status, value) => ({ status, type: 'application/json; charset=utf-8', headers: {}, body: JSON.stringify(value) });

// ---- workspaces on disk -----------------------------------------------------------------------------

const shop = path.join(root, 'shop-api');
const mono = path.join(root, 'web-monorepo');
const outside = path.join(root, 'outside');

function write(file, content, mode) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  if (mode) fs.chmodSync(file, mode);
}
const sh = (cwd, script) => execFileSync('bash', ['-c', script], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });

function pseudoRandomBytes(seed, size) {
  const chunks = [];
  let block = Buffer.from(seed);
  for (let n = 0; n < size; n += 32) {
    block = createHash('sha256').update(block).digest();
    chunks.push(block);
  }
  return Buffer.concat(chunks).subarray(0, size);
}

function png(seed) {
  // a real PNG signature and IHDR, then noise: binary content (NULs in the first 8 KB)
  return Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d4948445200000040000000400806000000', 'hex'),
    pseudoRandomBytes(seed, 1800)]);
}

const cartV0 = `from decimal import Decimal

from shop.pricing import unit_price


class Cart:
    """A customer's cart: product ids and quantities."""

    def __init__(self, customer_id):
        self.customer_id = customer_id
        self.items = {}

    def add(self, product_id, quantity=1):
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        self.items[product_id] = self.items.get(product_id, 0) + quantity

    def remove(self, product_id):
        self.items.pop(product_id, None)

    def total(self, catalog):
        total = Decimal("0")
        for product_id, quantity in self.items.items():
            total += unit_price(catalog, product_id) * quantity
        return total
`;

const pricingV0 = `from decimal import Decimal


def unit_price(catalog, product_id):
    entry = catalog[product_id]
    return Decimal(str(entry["price"]))


def rounded(amount):
    return amount.quantize(Decimal("0.01"))
`;

const testsV0 = `from decimal import Decimal

from shop.cart import Cart

CATALOG = {"tea": {"price": "4.50"}, "mug": {"price": "12.00"}}


def test_total():
    cart = Cart("c1")
    cart.add("tea", 2)
    cart.add("mug")
    assert cart.total(CATALOG) == Decimal("21.00")
`;

function buildShop() {
  write(path.join(outside, 'credentials.env'), 'API_KEY=outside-secret-canary\n');
  write(path.join(shop, 'README.md'), '# shop-api\n\nThe cart and pricing service.\n');
  write(path.join(shop, '.gitignore'), 'build/\n__pycache__/\n*.pyc\n');
  write(path.join(shop, 'src/shop/__init__.py'), '');
  write(path.join(shop, 'src/shop/cart.py'), cartV0);
  write(path.join(shop, 'src/shop/pricing.py'), pricingV0);
  write(path.join(shop, 'src/shop/legacy.py'), '# kept for the v1 API\n\ndef old_total(cart):\n    return sum(cart.values())\n');
  write(path.join(shop, 'tests/test_cart.py'), testsV0);
  write(path.join(shop, 'scripts/build.sh'), '#!/bin/sh\nset -e\npython -m pytest -q\n', 0o644);
  write(path.join(shop, 'assets/logo.png'), png('logo-v1'));
  write(path.join(shop, 'config/settings.toml'), '[server]\nport = 8080\n');
  fs.symlinkSync('settings.toml', path.join(shop, 'config/active.toml'));
  fs.symlinkSync('../../outside/credentials.env', path.join(shop, 'config/credentials.env'));
  const catalog = { products: Array.from({ length: 30000 }, (_, i) => ({ id: `sku-${String(i).padStart(5, '0')}`, price: ((i * 37) % 9000 + 99) / 100, name: `Product ${i}`, tags: ['tea', 'kitchen', 'gift'].slice(0, 1 + i % 3) })) };
  write(path.join(shop, 'data/catalog.json'), JSON.stringify(catalog, null, 1) + '\n');
  write(path.join(shop, 'shared/notes.txt'), 'Ops notes, shared with the deploy tool (hardlinked as deploy-notes.txt).\n');
  fs.linkSync(path.join(shop, 'shared/notes.txt'), path.join(shop, 'shared/deploy-notes.txt'));
  fs.mkdirSync(path.join(shop, 'run'));
  sh(shop, 'mkfifo run/events.fifo');
}

function buildMono() {
  write(path.join(mono, 'package.json'), '{\n  "name": "web-monorepo",\n  "private": true,\n  "workspaces": ["packages/*"]\n}\n');
  for (let p = 0; p < 20; p++) {
    for (let m = 0; m < 50; m++) {
      const pkg = `pkg-${String(p).padStart(2, '0')}`;
      write(path.join(mono, `packages/${pkg}/src/module-${String(m).padStart(3, '0')}.ts`),
        `import { fetchJson } from '@web/http';\n\nexport interface Item${m} {\n  id: string;\n  label: string;\n}\n\n` +
        `export async function load${m}(base: string): Promise<Item${m}[]> {\n  const items = await fetchJson(\`\${base}/${pkg}/${m}\`);\n` +
        `  return items.map((raw: any) => ({ id: String(raw.id), label: raw.label ?? '' }));\n}\n`);
    }
  }
}

function edit(file, from, to) {
  const text = fs.readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not hold ${JSON.stringify(from)}`);
  fs.writeFileSync(file, text.replace(from, to));
}

// ---- turns ------------------------------------------------------------------------------------------

const pause = ms => new Promise(resolve => setTimeout(resolve, ms));

async function turn(workspace, session, tools, shell) {
  const began = await must('POST', '/v1/turns', { workspace, session });
  for (const [toolCall, paths, act] of tools) {
    await must('POST', `/v1/turns/${began.turn}/snapshots`, { tool_call: toolCall, paths });
    act?.();
  }
  shell?.();
  await pause(1100);                   // turns a second or more apart, as a person sees them
  const summary = await must('POST', `/v1/turns/${began.turn}/finish`);
  facts.summaries.set(began.turn, summary);
  return began.turn;
}

buildShop();
buildMono();
facts.workspaces = [shop, mono];
await must('POST', '/v1/workspaces/track', { workspace: shop });

// an older session in shop-api
const setup = await turn(shop, 'conv-setup', [['write-editorconfig', ['.editorconfig'],
  () => write(path.join(shop, '.editorconfig'), 'root = true\n\n[*.py]\nindent_size = 4\n')]]);

const S = 'conv-discounts';
const t1 = await turn(shop, S, [
  ['edit-cart', ['src/shop/cart.py'], () => {
    edit(path.join(shop, 'src/shop/cart.py'), '        self.items = {}\n', '        self.items = {}\n        self.discount_code = None\n');
    edit(path.join(shop, 'src/shop/cart.py'), '    def remove(self, product_id):', '    def apply_code(self, code):\n        """Applies a discount code; the last one given wins."""\n        self.discount_code = code.strip().upper()\n\n    def remove(self, product_id):');
    edit(path.join(shop, 'src/shop/cart.py'), '            total += unit_price(catalog, product_id) * quantity\n        return total\n',
      '            total += unit_price(catalog, product_id) * quantity\n        return apply_discount(total, self.discount_code)\n');
    edit(path.join(shop, 'src/shop/cart.py'), 'from shop.pricing import unit_price', 'from shop.pricing import apply_discount, unit_price');
  }],
  ['edit-pricing', ['src/shop/pricing.py'], () => {
    edit(path.join(shop, 'src/shop/pricing.py'), 'def rounded(amount):\n    return amount.quantize(Decimal("0.01"))\n',
      'CODES = {"WELCOME10": Decimal("0.10"), "STAFF25": Decimal("0.25")}\n\n\ndef apply_discount(total, code):\n    rate = CODES.get(code, Decimal("0"))\n    return rounded(total * (1 - rate))\n\n\ndef rounded(amount):\n    return amount.quantize(Decimal("0.01"))');
  }],
  ['write-docs', ['docs/discounts.md'], () => write(path.join(shop, 'docs/discounts.md'),
    '# Discount codes\n\n| code | off |\n|---|---|\n| WELCOME10 | 10 % |\n| STAFF25 | 25 % |\n\nCodes are case-insensitive; the last code applied wins.\n')],
  ['remove-legacy', ['src/shop/legacy.py'], () => fs.rmSync(path.join(shop, 'src/shop/legacy.py'))],
  ['write-notes', ['<img src=x onerror=alert(1)>.txt'], () => write(path.join(shop, '<img src=x onerror=alert(1)>.txt'),
    'notes from the page: </script><script>alert(1)</script>\n<b>not bold</b> & not an entity: &amp;\n')],
]);

const t2 = await turn(shop, S, [
  ['chmod-build', ['scripts/build.sh'], () => fs.chmodSync(path.join(shop, 'scripts/build.sh'), 0o755)],
  ['new-logo', ['assets/logo.png'], () => write(path.join(shop, 'assets/logo.png'), png('logo-v2'))],
  ['pin-config', ['config/active.toml'], () => {
    fs.rmSync(path.join(shop, 'config/active.toml'));
    write(path.join(shop, 'config/active.toml'), '[server]\nport = 8080\nworkers = 4\n');
  }],
]);

const t3 = await turn(shop, S, [
  ['rotate-key', ['config/credentials.env'], () => fs.appendFileSync(path.join(shop, 'config/credentials.env'), 'API_KEY_2=rotated\n')],
  ['reprice', ['data/catalog.json'], () => {
    const file = path.join(shop, 'data/catalog.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"price": 0.99', '"price": 1.09'));
  }],
  ['ops-note', ['shared/notes.txt'], () => fs.appendFileSync(path.join(shop, 'shared/notes.txt'), 'Discounts ship on Monday.\n')],
  ['watch-events', ['run/events.fifo']],
  ['edit-tests', ['tests/test_cart.py'], () => fs.appendFileSync(path.join(shop, 'tests/test_cart.py'),
    '\n\ndef test_discount_code():\n    cart = Cart("c2")\n    cart.add("mug")\n    cart.apply_code(" welcome10 ")\n    assert cart.total(CATALOG) == Decimal("10.80")\n')],
]);

const t4 = await turn(shop, S, [
  ['write-test', ['tests/test_pricing.py'], () => write(path.join(shop, 'tests/test_pricing.py'),
    'from decimal import Decimal\n\nfrom shop.pricing import apply_discount\n\n\ndef test_unknown_code_is_no_discount():\n    assert apply_discount(Decimal("10"), "NOPE") == Decimal("10.00")\n')],
], () => sh(shop, [
  // what a shell tool did, announced by nobody: the finish scan of the tracked workspace finds it
  `sed -i 's/Decimal("0")/Decimal(0)/' src/shop/cart.py src/shop/pricing.py`,
  `printf 'pytest==8.3.4\\n' > requirements.txt`,
  'mkdir -p build && echo cache > build/out.txt',   // ignored by .gitignore: never seen
  'chmod 700 scripts',
].join(' && ')));

const t5 = await turn(shop, S, [
  ['edit-cart', ['src/shop/cart.py'], () => edit(path.join(shop, 'src/shop/cart.py'),
    '    def total(self, catalog):\n', '    def total(self, catalog):\n        if not self.items:\n            return Decimal(0)\n')],
  ['edit-tests', ['tests/test_cart.py'], () => fs.appendFileSync(path.join(shop, 'tests/test_cart.py'),
    '\n\ndef test_empty_cart_is_free():\n    assert Cart("c3").total(CATALOG) == 0\n')],
]);

const m1 = await turn(mono, 'conv-codemod', [['edit-root', ['package.json'], () =>
  edit(path.join(mono, 'package.json'), '"private": true,', '"private": true,\n  "packageManager": "pnpm@9.15.0",')]]);
const bigFiles = [];
for (let p = 0; p < 20; p++) for (let m = 0; m < 50; m++) bigFiles.push(`packages/pkg-${String(p).padStart(2, '0')}/src/module-${String(m).padStart(3, '0')}.ts`);
const m2Began = await must('POST', '/v1/turns', { workspace: mono, session: 'conv-codemod' });
for (let i = 0; i < bigFiles.length; i += 100) {
  await must('POST', `/v1/turns/${m2Began.turn}/snapshots`, { tool_call: `codemod-${i / 100 + 1}`, paths: bigFiles.slice(i, i + 100) });
}
for (const file of bigFiles) {
  const f = path.join(mono, file);
  fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace("import { fetchJson } from '@web/http';", "import { requestJson } from '@web/http';")
    .replace('await fetchJson(', 'await requestJson('));
}
const finishStart = performance.now();
facts.summaries.set(m2Began.turn, await must('POST', `/v1/turns/${m2Began.turn}/finish`));
console.error(`finish of the 1,000-file turn: ${(performance.now() - finishStart).toFixed(0)} ms`);
const m2 = m2Began.turn;

// ---- what the panel asks, recorded per state --------------------------------------------------------

const sessionsOf = new Map([[shop, ['conv-setup', S]], [mono, ['conv-codemod']]]);
const pairs = turns => turns.flatMap((a, i) => turns.slice(i).map(b => [a, b]));

/** Records every GET the panel can make (and the dry runs it offers) in the current state. */
async function recordViews({ monorepo }) {
  const listings = new Map();
  for (const [workspace, sessions] of sessionsOf) {
    if (workspace === mono && !monorepo) continue;
    const listed = await must('GET', `/v1/sessions?workspace=${encodeURIComponent(workspace)}`);
    for (const s of listed.sessions) {
      s.last_turn_at = null;
    }
    for (const session of sessions) {
      const page = await must('GET', `/v1/sessions/${session}/turns?limit=500`);
      listings.set(session, { workspace, page });
      const last = page.turns.at(-1);
      listed.sessions.find(s => s.session === session).last_turn_at = last ? last.began_at : null;
    }
    save(keyOf('GET', `/v1/sessions?workspace=${encodeURIComponent(workspace)}`), json(200, listed),
      'sessions: last_turn_at added');
  }
  for (const [session, { workspace, page }] of listings) {
    const turnIds = page.turns.map(t => t.turn);
    for (const listed of page.turns) {
      const records = await must('GET', `/v1/turns/${listed.turn}`);
      Object.assign(records, rewindFacts(listed.turn));
      save(keyOf('GET', `/v1/turns/${listed.turn}`), json(200, records), 'turn: rewound_by and rewinds added');
      Object.assign(listed, listingCounts(listed.turn, records), rewindFacts(listed.turn));
      if (listed.state !== 'open') {
        for (const file of records.files) {
          await record('GET', `/v1/turns/${listed.turn}/file?path=${encodeURIComponent(file.path)}`);
        }
      }
      for (const to of [false, true]) {
        for (const force of [false, true]) {
          await record('POST', '/v1/rewind', { turn: listed.turn, dry_run: true, ...(to ? { to } : {}), ...(force ? { force } : {}) });
        }
      }
    }
    page.workspace = workspace;
    save(keyOf('GET', `/v1/sessions/${session}/turns?limit=500`), json(200, page),
      'turn listing: workspace, not_restorable, detected_by_scan, rewound_by, rewinds added');
    if (workspace === shop && session === S) {
      for (const [from, to] of pairs(turnIds)) {
        const range = await record('GET', `/v1/range?from=${from}&to=${to}`);
        if (range.status !== 200) continue;
        const patch = (await call('GET', `/v1/range/patch?from=${from}&to=${to}`)).body;
        for (const file of JSON.parse(range.body).files) {
          save(keyOf('GET', `/v1/range/file?from=${from}&to=${to}&path=${encodeURIComponent(file.path)}`),
            json(200, { from, to, path: file.path, diff: sectionOf(patch, file.path) }), 'range/file: cut from GET /v1/range/patch');
        }
      }
    }
    const paths = new Set();
    for (const listed of page.turns) {
      const records = JSON.parse(states.at(-1).entries.get(keyOf('GET', `/v1/turns/${listed.turn}`)).body);
      records.files.forEach(f => paths.add(f.path));
    }
    const historyPaths = workspace === mono ? [...paths].slice(0, 3).concat(['package.json']) : [...paths];
    for (const p of historyPaths) {
      const entries = await must('GET', `/v1/history?workspace=${encodeURIComponent(workspace)}&path=${encodeURIComponent(p)}`);
      entries.forEach(e => Object.assign(e, rewindFacts(e.turn)));
      save(keyOf('GET', `/v1/history?workspace=${encodeURIComponent(workspace)}&path=${encodeURIComponent(p)}`), json(200, entries),
        'history: rewound_by and rewinds added');
    }
  }
  const workspaces = [];
  for (const [workspace, sessions] of sessionsOf) {
    const status = await call('GET', `/v1/workspaces/status?workspace=${encodeURIComponent(workspace)}`);
    const pages = sessions.map(s => listings.get(s)?.page).filter(Boolean);
    const all = pages.flatMap(p => p.turns);
    workspaces.push({ workspace, sessions: sessions.length, turns: all.length,
      last_turn_at: all.map(t => t.began_at).sort().at(-1) ?? null, tracked: status.status === 200 });
  }
  if (monorepo) save('GET /v1/workspaces', json(200, { workspaces }), 'workspaces: composed of the sessions listings and status');
  else {
    // the monorepo is not recorded again in later states: its row comes from the base state
    const earlier = JSON.parse(states[0].entries.get('GET /v1/workspaces').body).workspaces;
    save('GET /v1/workspaces', json(200, { workspaces: workspaces.map(w => w.workspace === mono ? earlier.find(e => e.workspace === mono) : w) }),
      'workspaces: composed of the sessions listings and status');
  }
}

/** The counts the listing gains (docs/review-panel.md), checked against the real finish summary. */
function listingCounts(turnId, records) {
  const changed = f => f.change !== 'unchanged';
  const directoryBoth = f => f.before?.type === 'directory' && f.after?.type === 'directory';
  const notRestorable = records.files.filter(f => changed(f) && !f.restorable && !directoryBoth(f)).length;
  const detectedByScan = records.files.filter(f => f.detected_by === 'scan').length;
  const summary = facts.summaries.get(turnId);
  if (summary && records.state !== 'open' && records.kind === 'agent'
      && (summary.not_restorable !== notRestorable || summary.detected_by_scan !== detectedByScan)) {
    throw new Error(`listing counts of ${turnId} (${notRestorable}, ${detectedByScan}) differ from its finish summary `
      + `(${summary.not_restorable}, ${summary.detected_by_scan})`);
  }
  return { not_restorable: notRestorable, detected_by_scan: detectedByScan };
}

/** rewound_by: the rewinds that put the turn back (done ones); rewinds: what a rewind turn put back. */
function rewindFacts(turnId) {
  const by = facts.rewinds.filter(r => r.turns.includes(turnId))
    .map(r => ({ operation: r.operation, rewind_turn: r.rewind_turn, paths: null, complete: r.complete }));
  const of = facts.rewinds.find(r => r.rewind_turn === turnId);
  return { rewound_by: by, rewinds: of ? { operation: of.operation, turns: of.turns, paths: null } : null };
}

/** One file's section of a patch, as the stored per-file diffs have it (binary files summarised). */
function sectionOf(patch, file) {
  const sections = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ') || line.startsWith('# turndiff: ') || sections.length === 0) sections.push([]);
    sections.at(-1).push(line);
  }
  const mine = sections.filter(([head]) => head.startsWith(`# turndiff: ${file}: `)
    || (head.startsWith('diff --git ') && head.endsWith(` b/${file}`)));
  return mine.map(lines => {
    const end = lines.indexOf('GIT binary patch');
    if (end < 0) return lines.join('\n').replace(/\n*$/, '\n');
    return lines.slice(0, end).filter(l => !l.startsWith('index ')).join('\n') + `\nBinary files a/${file} and b/${file} differ\n`;
  }).join('');
}

beginState('base');
await recordViews({ monorepo: true });

// ---- live: a turn that is open while the panel watches ----------------------------------------------

const live = [];
async function liveStep(name, event, data) {
  beginState(name);
  await recordViews({ monorepo: false });
  live.push({ state: name, event, data });
}
const began = await must('POST', '/v1/turns', { workspace: shop, session: S });
const openTurn = () => must('GET', `/v1/turns/${began.turn}`);
const turnObject = async () => {
  const { files, ...turnOnly } = await openTurn();
  return turnOnly;
};
await liveStep('live-1', 'turn_begun', { ...(await turnObject()), new_session: false });
let seen = 0;
async function snapshotLive(toolCall, paths, act, name) {
  await must('POST', `/v1/turns/${began.turn}/snapshots`, { tool_call: toolCall, paths });
  const records = await openTurn();
  const added = records.files.slice(seen);
  seen = records.files.length;
  act();
  await liveStep(name, 'file_snapshotted', { turn: began.turn, session: S, workspace: shop, files: added });
}
await snapshotLive('edit-cart', ['src/shop/cart.py'], () => {
  const cart = path.join(shop, 'src/shop/cart.py');
  edit(cart, 'from decimal import Decimal\n', 'from datetime import datetime, timezone\nfrom decimal import Decimal\n');
  edit(cart, '        self.discount_code = code.strip().upper()\n',
    '        self.discount_code = code.strip().upper()\n        self.code_applied_at = datetime.now(timezone.utc)\n');
}, 'live-2');
await snapshotLive('write-coupons', ['src/shop/coupons.py', 'docs/discounts.md'], () => {
  write(path.join(shop, 'src/shop/coupons.py'), 'from datetime import datetime, timedelta, timezone\n\nVALID_FOR = timedelta(days=30)\n\n\ndef expired(applied_at, now=None):\n    now = now or datetime.now(timezone.utc)\n    return now - applied_at > VALID_FOR\n');
  fs.appendFileSync(path.join(shop, 'docs/discounts.md'), '\nA code expires 30 days after it is applied.\n');
}, 'live-3');
const liveSummary = await must('POST', `/v1/turns/${began.turn}/finish`);
facts.summaries.set(began.turn, liveSummary);
const finished = await turnObject();
await liveStep('live-4', 'turn_finished', { ...liveSummary, workspace: shop, began_at: finished.began_at, finished_at: finished.finished_at });
const t6 = began.turn;

// a person edits between turns: the rewinds below meet their edits
edit(path.join(shop, 'tests/test_cart.py'), 'def test_empty_cart_is_free():', 'def test_an_empty_cart_is_free():');
edit(path.join(shop, 'README.md'), 'The cart and pricing service.', 'The cart and pricing service (discount codes since v2).');
beginState('edited');
await recordViews({ monorepo: false });

// ---- a real rewind, then its undo -------------------------------------------------------------------

const transitions = [];
async function rewind(name, request) {
  const r = await call('POST', '/v1/rewind', request);
  if (r.status !== 200) throw new Error(`rewind ${JSON.stringify(request)}: ${r.status} ${r.body}`);
  const report = JSON.parse(r.body);
  facts.rewinds.push(report);
  beginState(name);
  save(keyOf('POST', '/v1/rewind', request), r);
  await recordViews({ monorepo: false });
  transitions.push({ request: keyOf('POST', '/v1/rewind', request), state: name,
    event: { operation: report.operation, session: S, workspace: shop, turns: report.turns, rewind_turn: report.rewind_turn, complete: report.complete, paths: null } });
  return report;
}
const undone = await rewind('rewound', { turn: t4, to: true, operation: 'op-panel-demo-1' });
await rewind('undone', { turn: undone.rewind_turn, operation: 'op-panel-demo-2' });

// ---- write the fixtures -----------------------------------------------------------------------------

function resolved(index, key) {
  for (let i = index; i >= 0; i--) {
    if (states[i].entries.has(key)) return states[i].entries.get(key);
  }
  return undefined;
}
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const files = [];
states.forEach((state, index) => {
  const entries = {};
  for (const [key, entry] of [...state.entries].sort(([a], [b]) => a.localeCompare(b))) {
    if (index > 0 && JSON.stringify(resolved(index - 1, key)) === JSON.stringify(entry)) continue;
    entries[key] = entry;
  }
  const file = `${String(index).padStart(2, '0')}-${state.name}.json`;
  fs.writeFileSync(path.join(out, file), JSON.stringify(entries, null, 0).replace(/,"(GET|POST) /g, ',\n"$1 ') + '\n');
  files.push({ state: state.name, file, entries: Object.keys(entries).length });
});
const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
fs.writeFileSync(path.join(out, 'meta.json'), JSON.stringify({
  recorded_with: `turndiff serve at ${commit} (panel/dev/record.mjs)`,
  recorded_at: new Date().toISOString(),
  states: files,
  live,
  transitions,
  turns: { setup, t1, t2, t3, t4, t5, t6, m1, m2 },
}, null, 2) + '\n');
console.error(files.map(f => `${f.file}: ${f.entries} responses`).join('\n'));

server.kill('SIGTERM');
await new Promise(resolve => server.once('exit', resolve));
