// Live updates: GET /v1/events (text/event-stream), read with fetch rather than EventSource so that the
// stream carries the anti-CSRF header like every other call (a cookie alone opens nothing). One stream at a
// time, for the scope the current view needs; it reconnects with a growing delay, and after a reconnect the
// view reloads what it shows (the service does not replay missed events).
import { api, CSRF_HEADER, csrf } from './api.js';

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

async function run(sub, scope) {
  let delay = 1000;
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
      delay = 1000;
      await read(response.body, (name, data) => {
        if (!sub.stopped) sub.handlers.onEvent?.(name, data);
      });
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

/** Parses text/event-stream (the WHATWG format: event:, data:, id:, comments, blank line ends an event). */
async function read(body, dispatch) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let name = 'message';
  let data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
      if (line === '') {
        if (data.length) {
          let parsed = null;
          try {
            parsed = JSON.parse(data.join('\n'));
          } catch {
            parsed = null;
          }
          if (parsed !== null) dispatch(name, parsed);
        }
        name = 'message';
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const v = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') name = v;
        else if (field === 'data') data.push(v);
      }
    }
  }
}
