// The panel without the Java side: serves panel/dist/ with the security headers of docs/review-panel.md,
// logs a browser in the way the service will (one-time code -> HttpOnly session cookie + anti-CSRF value),
// and answers the API with the responses dev/record.mjs recorded from a real `turndiff serve`.
//
//   npm run build && node dev/serve.mjs [--port 7434] [--state base] [--no-live] [--live-delay MS] [--codes N]
//
// It prints one JSON line: {"url", "login_urls": [...]}. Each login URL works once; type "login" and Enter
// for another. The recorded states are replayed in order: the live turn arrives over the event stream a
// few seconds after a page subscribes to its session, and a confirmed rewind that was recorded moves the
// fixtures to the state recorded after it. Everything else is answered from the current state.
// No dependencies beyond Node 20.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { keyOf } from './fixture-key.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../dist');
const fixtures = path.join(here, 'fixtures');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const port = Number(option('--port', '7434'));
const liveEnabled = !args.includes('--no-live');
const liveDelay = Number(option('--live-delay', '4000'));
const liveStepMs = Number(option('--live-step', '2500'));
const initialCodes = Number(option('--codes', '1'));

// ---- the security headers every response carries (docs/review-panel.md, "Headers") ------------------

export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  'trusted-types turndiff-diff2html',
].join('; ');
const SECURITY_HEADERS = {
  'Content-Security-Policy': CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  'Cache-Control': 'no-store',
};

// ---- fixtures ---------------------------------------------------------------------------------------

if (!fs.existsSync(path.join(dist, 'panel-files.json'))) {
  console.error('dev/serve.mjs: panel/dist is missing: run `npm ci && npm run build` in panel/ first');
  process.exit(2);
}
const panelFiles = new Map(JSON.parse(fs.readFileSync(path.join(dist, 'panel-files.json'), 'utf8')).files.map(f => [f.path, f]));
const meta = JSON.parse(fs.readFileSync(path.join(fixtures, 'meta.json'), 'utf8'));
const states = meta.states.map(s => ({ name: s.state, entries: JSON.parse(fs.readFileSync(path.join(fixtures, s.file), 'utf8')) }));
let current = Math.max(0, states.findIndex(s => s.name === option('--state', 'base')));
const liveTurn = meta.turns.t6;
const liveSession = meta.live[0].data.session;
const liveWorkspace = meta.live[0].data.workspace;
let livePlayed = !liveEnabled || current > states.findIndex(s => s.name === 'live-1');


function lookup(key) {
  for (let i = current; i >= 0; i--) {
    if (key in states[i].entries) return states[i].entries[key];
  }
  return null;
}

// ---- login, sessions --------------------------------------------------------------------------------

const codes = new Map();             // code -> expiry (ms)
const sessions = new Map();          // cookie value -> {csrf}
const cookieName = () => `turndiff_session_${server.address().port}`;
const origin = () => `http://127.0.0.1:${server.address().port}`;
const origins = () => new Set([origin(), `http://localhost:${server.address().port}`]);

function newCode() {
  const code = randomBytes(32).toString('base64url');
  codes.set(code, Date.now() + 120_000);
  return `${origin()}/#login=${code}`;
}

const same = (a, b) => typeof a === 'string' && typeof b === 'string' && a.length === b.length
  && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function cookieOf(req) {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === cookieName()) return value.join('=');
  }
  return null;
}

/** A request from the page: same origin, with the session cookie and its anti-CSRF value. */
function authenticate(req) {
  if (req.headers.origin !== undefined && !origins().has(req.headers.origin)) return [403, 'forbidden_origin', `Origin '${req.headers.origin}' is not this service`];
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return [403, 'forbidden_origin', `a ${site} request`];
  const session = sessions.get(cookieOf(req));
  if (!session) return [401, 'unauthorized', 'no session: open the panel with the link `turndiff open` prints'];
  if (!same(req.headers['x-turndiff-csrf'], session.csrf)) return [403, 'csrf', 'the X-Turndiff-CSRF header is missing or wrong'];
  return null;
}

// ---- events -----------------------------------------------------------------------------------------

const subscribers = new Set();       // {res, scope}
let eventId = 0;

function matches(scope, data) {
  if (scope.session) return data.session === scope.session;
  if (scope.workspace) return data.workspace === scope.workspace;
  return true;
}

function emit(name, data) {
  eventId++;
  for (const s of subscribers) {
    if (matches(s.scope, data)) s.res.write(`id: ${eventId}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }
}

function playLive() {
  if (livePlayed) return;
  livePlayed = true;
  console.error(`dev/serve.mjs: the live turn ${liveTurn} begins in ${liveDelay} ms`);
  meta.live.forEach((step, i) => setTimeout(() => {
    current = Math.max(current, states.findIndex(s => s.name === step.state));
    emit(step.event, step.data);
    if (i === meta.live.length - 1) current = Math.max(current, states.findIndex(s => s.name === 'edited'));
  }, liveDelay + i * liveStepMs));
}

// ---- the API ----------------------------------------------------------------------------------------

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, ...headers });
  res.end(body);
}
const error = (res, status, code, message) => send(res, status, 'application/json; charset=utf-8', JSON.stringify({ error: code, message }));
const replay = (res, entry, extra = {}) => send(res, entry.status, entry.type ?? 'application/json; charset=utf-8', entry.body, { ...entry.headers, ...extra });

async function bodyOf(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 1 << 20) throw new Error('too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const REWIND_FIELDS = new Set(['turn', 'to', 'operation', 'dry_run', 'force', 'paths', 'paths_base64']);

async function rewind(req, res) {
  let body;
  try {
    body = JSON.parse(await bodyOf(req));
  } catch {
    return error(res, 400, 'bad_request', 'the body is not a JSON object');
  }
  const unknown = Object.keys(body).find(k => !REWIND_FIELDS.has(k));
  if (unknown) return error(res, 400, 'bad_request', `unknown field '${unknown}'`);
  const { paths, ...rest } = body;
  if (paths !== undefined) {
    if (!Array.isArray(paths) || !paths.length || paths.some(p => typeof p !== 'string' || !p)) return error(res, 400, 'bad_request', "field 'paths' must be a non-empty array of paths");
    if (!rest.dry_run) {
      return error(res, 501, 'not_recorded', 'a single-file rewind is new (docs/review-panel.md): the dev server can show its plan, emulated from the turn\'s, but not run it');
    }
    const whole = lookup(keyOf('POST', '/v1/rewind', rest));
    if (!whole) return error(res, 404, 'not_recorded', `no recorded dry run for ${JSON.stringify(rest)}`);
    if (whole.status !== 200) return replay(res, whole);
    const report = JSON.parse(whole.body);
    const wanted = new Set(paths);
    const under = dir => paths.some(p => p.startsWith(`${dir}/`));
    const filtered = {
      ...report,
      restored: report.restored.filter(p => wanted.has(p)),
      merged: report.merged.filter(p => wanted.has(p)),
      skipped: report.skipped.filter(s => wanted.has(s.path)),
      unchanged: report.unchanged.filter(p => wanted.has(p)),
      created_directories: report.created_directories.filter(under),
      removed_directories: report.removed_directories.filter(under),
      directory_modes: report.directory_modes.filter(under),
    };
    filtered.complete = filtered.skipped.length === 0;
    return send(res, 200, 'application/json; charset=utf-8', JSON.stringify(filtered), { 'Turndiff-Dev-Emulated': 'the plan of the whole turn, cut to the paths' });
  }
  const key = keyOf('POST', '/v1/rewind', body);
  if (body.dry_run) {
    const entry = lookup(key);
    return entry ? replay(res, entry) : error(res, 404, 'not_recorded', `no recorded dry run for ${JSON.stringify(body)} in state ${states[current].name}`);
  }
  const transition = meta.transitions.find(t => t.request === key);
  if (!transition) {
    return error(res, 501, 'not_recorded', `the dev server runs only the rewinds that were recorded: ${meta.transitions.map(t => t.request.replace('POST /v1/rewind ', '')).join(', ')}`);
  }
  const target = states.findIndex(s => s.name === transition.state);
  const entry = states[target].entries[key];
  current = Math.max(current, target);
  replay(res, entry, body.operation ? { 'Turndiff-Operation': JSON.parse(entry.body).operation } : {});
  setTimeout(() => emit('rewind_done', transition.event), 50);
}

function events(req, res, url) {
  const scope = {};
  for (const name of ['session', 'workspace']) if (url.searchParams.has(name)) scope[name] = url.searchParams.get(name);
  res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
  res.write(`retry: 3000\nevent: hello\ndata: ${JSON.stringify({ ...scope, server_time: new Date().toISOString() })}\n\n`);
  const subscriber = { res, scope };
  subscribers.add(subscriber);
  const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
  req.on('close', () => {
    clearInterval(ping);
    subscribers.delete(subscriber);
  });
  if (scope.session === liveSession || scope.workspace === liveWorkspace) playLive();
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url, 'http://x');
    const host = req.headers.host;
    if (!host || !new Set([`127.0.0.1:${server.address().port}`, `localhost:${server.address().port}`]).has(host)) {
      return error(res, 403, 'forbidden_host', `Host '${host}' is not this service's loopback address`);
    }
    if (!url.pathname.startsWith('/v1/')) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return error(res, 405, 'method_not_allowed', `${req.method} ${url.pathname}`);
      const file = panelFiles.get(url.pathname === '/' ? '/index.html' : url.pathname);
      if (!file || url.pathname === '/index.html') return error(res, 404, 'not_found', `no such file: ${url.pathname}`);
      // the panel's files change only with the jar: revalidated by their hash, never served stale
      const etag = `"${file.sha256}"`;
      const caching = { 'Cache-Control': 'no-cache', ETag: etag };
      if (req.headers['if-none-match'] === etag) return send(res, 304, file.type, undefined, caching);
      return send(res, 200, file.type, fs.readFileSync(path.join(dist, file.path)), caching);
    }
    if (url.pathname === '/v1/login') {
      if (req.method !== 'POST') return error(res, 405, 'method_not_allowed', 'POST /v1/login');
      if (req.headers.origin !== undefined && !origins().has(req.headers.origin)) return error(res, 403, 'forbidden_origin', `Origin '${req.headers.origin}'`);
      if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return error(res, 415, 'bad_request', 'the body must be application/json');
      let code;
      try {
        code = JSON.parse(await bodyOf(req)).code;
      } catch {
        return error(res, 400, 'bad_request', 'the body is not {"code": "..."}');
      }
      const expiry = typeof code === 'string' ? codes.get(code) : undefined;
      codes.delete(code);
      if (!expiry || expiry < Date.now()) return error(res, 401, 'unauthorized', 'this login code is unknown, used or expired');
      const id = randomBytes(32).toString('base64url');
      const session = { csrf: randomBytes(32).toString('base64url') };
      sessions.set(id, session);
      return send(res, 200, 'application/json; charset=utf-8', JSON.stringify({ csrf: session.csrf, csrf_header: 'X-Turndiff-CSRF' }),
        { 'Set-Cookie': `${cookieName()}=${id}; HttpOnly; SameSite=Strict; Path=/` });
    }
    const refused = authenticate(req);
    if (refused) return error(res, ...refused);
    if (url.pathname === '/v1/logout' && req.method === 'POST') {
      sessions.delete(cookieOf(req));
      return send(res, 200, 'application/json; charset=utf-8', '{"ok":true}', { 'Set-Cookie': `${cookieName()}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0` });
    }
    if (url.pathname === '/v1/events' && req.method === 'GET') return events(req, res, url);
    if (url.pathname === '/v1/rewind' && req.method === 'POST') return await rewind(req, res);
    if (req.method !== 'GET') return error(res, 405, 'method_not_allowed', `${req.method} ${url.pathname}`);
    const entry = lookup(keyOf('GET', req.url));
    if (!entry) return error(res, 404, 'not_recorded', `no recorded response for GET ${req.url} in state ${states[current].name} (the dev server replays recorded responses only)`);
    return replay(res, entry);
  } catch (e) {
    console.error(e);
    if (!res.headersSent) error(res, 500, 'internal', 'internal error');
  }
});

server.listen(port, '127.0.0.1', () => {
  const login_urls = Array.from({ length: initialCodes }, newCode);
  console.log(JSON.stringify({ url: origin(), login_urls, state: states[current].name }));
  readline.createInterface({ input: process.stdin }).on('line', line => {
    if (line.trim() === 'login') console.log(newCode());
  });
});
