// How a request is named in the fixtures, by record.mjs when it saves a response and by serve.mjs when it
// looks one up: the method, the path, the query with its parameters sorted, and a POST body's fields
// (sorted, the operation id and false flags left out: a retry under another id is the same request).
export function keyOf(method, target, body) {
  const u = new URL(target, 'http://x');
  const params = [...u.searchParams].sort(([a, x], [b, y]) => a.localeCompare(b) || x.localeCompare(y));
  const query = params.length ? '?' + new URLSearchParams(params).toString() : '';
  const fields = body ? ' ' + JSON.stringify(Object.fromEntries(Object.entries(body)
    .filter(([k, v]) => k !== 'operation' && v !== false).sort(([a], [b]) => a.localeCompare(b)))) : '';
  return `${method} ${u.pathname}${query}${fields}`;
}
