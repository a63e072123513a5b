// The panel's addresses: hash routes (#/kind/part/part?file=P), built from encoded parts and parsed back
// to the same strings, whatever a workspace, session, turn or file name holds (`/`, `?`, `#`, `%`, spaces,
// markup). Also the login fragment `turndiff open` prints: #login=CODE[&next=ROUTE].

const enc = encodeURIComponent;
const withFile = file => (file ? `?file=${enc(file)}` : '');

export const routes = {
  workspaces: () => '#/',
  workspace: ws => `#/w/${enc(ws)}`,
  session: s => `#/s/${enc(s)}`,
  turn: (t, file) => `#/t/${enc(t)}${withFile(file)}`,
  range: (from, to, file) => `#/r/${enc(from)}/${enc(to)}${withFile(file)}`,
  history: (ws, path) => `#/h/${enc(ws)}/${enc(path)}`,
};

/** '#/t/turn-1?file=a%2Fb' -> {segments: ['t', 'turn-1'], query: URLSearchParams {file: 'a/b'}} */
export function parseRoute(hash) {
  const raw = hash.replace(/^#/, '') || '/';
  const at = raw.indexOf('?');
  const pathPart = at < 0 ? raw : raw.slice(0, at);
  const segments = pathPart.split('/').filter(Boolean).map(s => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;                    // a hand-typed `%` that is no escape stays as it is
    }
  });
  return { segments, query: new URLSearchParams(at < 0 ? '' : raw.slice(at + 1)) };
}

/** The same route with another query (selection, diff style): `#/seg/seg?k=v`. */
export function withQuery(hash, params) {
  const { segments } = parseRoute(hash);
  const query = new URLSearchParams(params).toString();
  return `#/${segments.map(enc).join('/')}${query ? `?${query}` : ''}`;
}

/**
 * The login fragment: {code, route} for '#login=CODE[&next=/w/…]', else null. `route` is where the page
 * goes after the code left the address bar: a route of this page (`#/…`), never anything else.
 */
export function loginFromHash(hash) {
  if (!hash.startsWith('#login=')) return null;
  const params = new URLSearchParams(hash.slice(1));
  const next = params.get('next');
  return { code: params.get('login') ?? '', route: `#${next && next.startsWith('/') ? next : '/'}` };
}
