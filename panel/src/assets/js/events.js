// Live updates: GET /v1/events (text/event-stream), read with fetch rather than EventSource so that the
// stream carries the anti-CSRF header like every other call (a cookie alone opens nothing). One stream at a
// time, for the scope the current view needs; it reconnects with a growing delay, and after a reconnect the
// view reloads what it shows (the service does not replay missed events).
import { api, CSRF_HEADER, csrf } from './api.js';
import { readEvents } from './sse.js';

const status = new EventTarget();
let current = null;

export function onLiveStatus(handler) {
  status.addEventListener('status', e => handler(e.detail));
}
function setStatus(state, detail) {
  status.dispatchEvent(new CustomEvent('status', { detail: { state, detail } }));
}

/**
 * subscribe({session: 'S'} | {workspace: 'W'}, {onEvent(name, data), onResync()}) -> unsubscribe
 * A subscription to the same scope as the current one keeps the open stream.
 */
export function subscribe(scope, handlers) {
  const key = JSON.stringify(scope);
  if (current && current.key === key) {
    current.handlers = handlers;
    return () => {};
  }
  current?.stop();
  const sub = { key, handlers, controller: null, stopped: false, stop() {
    this.stopped = true;
    this.controller?.abort();
    if (current === this) {
      current = null;
      setStatus('off');
    }
  } };
  current = sub;
  run(sub, scope);
  return () => {};
}

export function unsubscribeAll() {
  current?.stop();
}

// A page the browser keeps in its back/forward cache keeps its open requests: the stream of every
// panel page left behind held one of Chromium's six connections to the service, and the seventh load
// waited about a minute (found by PanelReviewBrowserIT). The stream leaves with the page, and comes back
// with it; the view then reloads what it shows, as after any reconnect (missed events are not replayed).
let parked = null;
globalThis.addEventListener?.('pagehide', () => {
  if (!current) return;
  parked = { scope: JSON.parse(current.key), handlers: current.handlers };
  current.stop();
});
globalThis.addEventListener?.('pageshow', e => {
  if (!e.persisted || !parked) return;
  const { scope, handlers } = parked;
  parked = null;
  subscribe(scope, handlers);
  handlers.onResync?.();
});

async function run(sub, scope) {
  let base = 1000;               // the service's `retry:` when it sent one
  let delay = base;
  let first = true;
  while (!sub.stopped) {
    sub.controller = new AbortController();
    try {
      setStatus(first ? 'connecting' : 'reconnecting');
      const response = await fetch(api.eventsUrl(scope), {
        headers: { Accept: 'text/event-stream', [CSRF_HEADER]: csrf.get() ?? '' },
        credentials: 'same-origin',
        cache: 'no-store',
        signal: sub.controller.signal,
      });
      if (response.status === 401 || response.status === 403) {
        setStatus('off', 'not logged in');
        return;
      }
      if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
      setStatus('live');
      if (!first) sub.handlers.onResync?.();
      first = false;
      delay = base;
      await readEvents(response.body, (name, data) => {
        if (sub.stopped) return;
        // another process committed to the store (a CLI snapshot, another service): which turns it
        // touched is unknown, so the view reloads what it shows, as after a reconnect
        if (name === 'store_changed') sub.handlers.onResync?.();
        else sub.handlers.onEvent?.(name, data);
      }, { onRetry: ms => { base = delay = Math.min(Math.max(ms, 500), 30_000); } });
    } catch (e) {
      if (sub.stopped || e.name === 'AbortError') return;
    }
    if (sub.stopped) return;
    first = false;
    setStatus('reconnecting');
    await new Promise(resolve => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 30_000);
  }
}
