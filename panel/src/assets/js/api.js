// Every call the panel makes (docs/review-panel.md, "API calls"). Same origin only; the session cookie goes
// with each request (HttpOnly: this code never sees it) and the anti-CSRF value in X-Turndiff-CSRF, which
// lives in this tab's sessionStorage (per origin, port included) and nowhere else.

const CSRF_KEY = 'turndiff.csrf';
export const CSRF_HEADER = 'X-Turndiff-CSRF';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

let onUnauthorized = () => {};
export function whenUnauthorized(handler) {
  onUnauthorized = handler;
}

export const csrf = {
  get: () => sessionStorage.getItem(CSRF_KEY),
  set: value => sessionStorage.setItem(CSRF_KEY, value),
  clear: () => sessionStorage.removeItem(CSRF_KEY),
};

function headers(extra) {
  const h = { Accept: 'application/json', ...extra };
  const token = csrf.get();
  if (token) h[CSRF_HEADER] = token;
  return h;
}

async function failure(response) {
  let code = 'http_' + response.status;
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    code = body.error ?? code;
    message = body.message ?? message;
  } catch {
    // not JSON: keep the status line
  }
  if (response.status === 401) {
    csrf.clear();
    onUnauthorized(message);
  }
  return new ApiError(response.status, code, message);
}

export async function getJson(path, { signal } = {}) {
  const response = await fetch(path, { headers: headers(), credentials: 'same-origin', cache: 'no-store', signal });
  if (!response.ok) throw await failure(response);
  return response.json();
}

export async function postJson(path, body, { signal } = {}) {
  const response = await fetch(path, {
    method: 'POST',
    headers: headers({ 'Content-Type': 'application/json' }),
    credentials: 'same-origin',
    cache: 'no-store',
    body: JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  let value;
  try {
    value = text ? JSON.parse(text) : {};
  } catch {
    throw new ApiError(response.status, 'bad_response', `the service answered ${response.status} with no JSON`);
  }
  // A rewind sends 200 before its first write; a failure after that comes as an error object in the body.
  if (!response.ok || (value && typeof value.error === 'string' && typeof value.message === 'string')) {
    if (response.status === 401) {
      csrf.clear();
      onUnauthorized(value?.message);
    }
    throw new ApiError(response.status, value?.error ?? 'http_' + response.status, value?.message ?? response.statusText);
  }
  return { value, operation: response.headers.get('Turndiff-Operation') };
}

const q = params => {
  const parts = Object.entries(params).filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  return parts.length ? `?${parts.join('&')}` : '';
};
const seg = encodeURIComponent;

export const api = {
  login: code => fetch('/v1/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    credentials: 'same-origin',
    cache: 'no-store',
    body: JSON.stringify({ code }),
  }),
  logout: () => postJson('/v1/logout', {}),
  workspaces: opts => getJson('/v1/workspaces', opts),
  sessions: (workspace, opts) => getJson(`/v1/sessions${q({ workspace })}`, opts),
  turnsPage: (session, after, opts) => getJson(`/v1/sessions/${seg(session)}/turns${q({ after, limit: 500 })}`, opts),
  turn: (turn, opts) => getJson(`/v1/turns/${seg(turn)}`, opts),
  // view: how the reader asked the diff drawn (diff.js viewQuery: whitespace, context), none for the stored one
  fileDiff: (turn, path, view = {}, opts) => getJson(`/v1/turns/${seg(turn)}/file${q({ path, ...view })}`, opts),
  // a stored state of a file as an image, for an <img src> (never fetched into the page: docs/review-panel.md)
  imageUrl: (turn, path, side) => `/v1/turns/${seg(turn)}/file/raw${q({ path, side })}`,
  range: (from, to, opts) => getJson(`/v1/range${q({ from, to })}`, opts),
  rangeFile: (from, to, path, view = {}, opts) => getJson(`/v1/range/file${q({ from, to, path, ...view })}`, opts),
  history: (workspace, path, opts) => getJson(`/v1/history${q({ workspace, path })}`, opts),
  rewind: request => postJson('/v1/rewind', request),
  eventsUrl: scope => `/v1/events${q(scope)}`,
};

/** Every turn of a session, page by page (oldest first, as the service pages them). */
export async function allTurns(session, opts) {
  let after;
  let page;
  const turns = [];
  do {
    page = await api.turnsPage(session, after, opts);
    turns.push(...page.turns);
    after = page.next_after;
  } while (after !== null && after !== undefined);
  return { ...page, turns };
}
