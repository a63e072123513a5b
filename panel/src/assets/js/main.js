// The panel: logs the tab in with the one-time code, then routes between the views.
import { api, csrf, whenUnauthorized } from './api.js';
import { h, fill, icon } from './dom.js';
import { onLiveStatus, unsubscribeAll } from './events.js';
import { workspacesView } from './views/workspaces.js';
import { sessionsView } from './views/sessions.js';
import { timelineView } from './views/timeline.js';
import { turnView, rangeView } from './views/review.js';
import { historyView } from './views/history.js';
import { mono } from './ui.js';
import { loginFromHash, parseRoute, withQuery } from './routes.js';

const main = document.getElementById('main');
const crumbs = document.getElementById('crumbs');
const live = document.getElementById('live');
let active = null;          // the current view: {destroy?, onKey?}
let renderId = 0;

// ---- login -------------------------------------------------------------------------------------------

async function login() {
  const fragment = loginFromHash(location.hash);
  if (!fragment) return;
  const { code, route: next } = fragment;
  // the code leaves the address bar (and the tab's history) before anything else happens
  history.replaceState(null, '', `${location.pathname}${next}`);
  let response;
  try {
    response = await api.login(code);
  } catch (e) {
    throw Object.assign(new Error(`The service did not answer: ${e.message}`), { code: 'login' });
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok || typeof body.csrf !== 'string') {
    throw Object.assign(new Error(body.message ?? `login failed (${response.status})`), { code: body.error ?? 'login' });
  }
  csrf.set(body.csrf);
}

function loginNeeded(reason) {
  unsubscribeAll();
  active?.destroy?.();
  active = null;
  fill(crumbs);
  fill(main, h('section', { class: 'login-needed' },
    h('div', { class: 'login-card' },
      icon('lock'),
      h('h1', null, 'Open the panel from turndiff'),
      reason ? h('p', { class: 'login-reason' }, reason) : null,
      h('p', null, 'This tab is not logged in. The service prints a link that logs a browser in once:'),
      h('pre', null, mono('turndiff open --workspace .')),
      h('p', { class: 'muted' }, 'The link holds a one-time code; the page trades it for a session cookie and removes it from the address bar.'))));
}

// ---- routing -----------------------------------------------------------------------------------------

const ctx = {
  crumbs(items) {
    fill(crumbs, items.map((item, i) => [
      i ? h('span', { class: 'crumb-sep', aria: { hidden: 'true' } }, '/') : null,
      item.href && i < items.length - 1
        ? h('a', { class: ['crumb', item.mono && 'mono'], href: item.href, title: item.title }, item.label)
        : h('span', { class: ['crumb', 'crumb-current', item.mono && 'mono'], title: item.title, aria: { current: 'page' } }, item.label),
    ]));
  },
  /** Replaces the query part of the current route without a history entry (selection, diff style). */
  replaceQuery(params) {
    history.replaceState(null, '', withQuery(location.hash, params));
  },
};

async function route() {
  const id = ++renderId;
  active?.destroy?.();
  active = null;
  const { segments, query } = parseRoute(location.hash);
  const [kind, a, b] = segments;
  const views = {
    undefined: () => workspacesView(main, ctx),
    w: () => sessionsView(main, ctx, a),
    s: () => timelineView(main, ctx, a),
    t: () => turnView(main, ctx, a, query),
    r: () => rangeView(main, ctx, a, b, query),
    h: () => historyView(main, ctx, a, b),
  };
  const view = views[kind] ?? (() => {
    fill(main, h('div', { class: 'state state-empty' }, 'No such page. ', h('a', { href: '#/' }, 'All workspaces')));
    return null;
  });
  main.scrollTop = 0;
  const made = await view();
  if (id !== renderId) {
    made?.destroy?.();
    return;
  }
  active = made;
}

// ---- keyboard ----------------------------------------------------------------------------------------

const help = document.getElementById('help-dialog');
help.querySelector('[data-close]').addEventListener('click', () => help.close());
document.getElementById('help-button').addEventListener('click', () => help.showModal());

document.addEventListener('keydown', e => {
  if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) {
    if (e.key === 'Escape') target.blur();
    return;
  }
  if (document.querySelector('dialog[open]')) return;
  if (e.key === '?') {
    help.showModal();
    e.preventDefault();
    return;
  }
  if (active?.onKey?.(e.key, e)) e.preventDefault();
});

// ---- live status -------------------------------------------------------------------------------------

onLiveStatus(({ state }) => {
  live.dataset.state = state;
  const text = { live: 'Live', connecting: 'Connecting…', reconnecting: 'Reconnecting…', off: '' }[state] ?? '';
  live.textContent = text;
  live.title = state === 'live' ? 'Live: new turns and files appear as they are recorded' : text;
});

// ---- start -------------------------------------------------------------------------------------------

whenUnauthorized(message => loginNeeded(message ? `The service says: ${message}` : null));

/**
 * Logs the tab in when the address holds a login link, then shows the route. Run at load and again on
 * each change of the fragment: a fresh link pasted into a tab that already shows the panel (its old
 * session gone, say the service restarted) differs from the page only in its fragment, so the browser
 * does not load the page again; it only changes the hash.
 */
async function start() {
  try {
    await login();
  } catch (e) {
    csrf.clear();
    loginNeeded(`This login link did not work: ${e.message}. A link works once and for a short time.`);
    return;
  }
  if (csrf.get()) {
    await route();
  } else if (!main.hasChildNodes()) {
    loginNeeded();
  }
}

addEventListener('hashchange', () => {
  if (loginFromHash(location.hash)) start();
  else if (csrf.get()) route();
});
await start();
