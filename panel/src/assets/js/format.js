// How the service's codes read to a person. Codes come from docs/review-panel.md and the README.

export const CHANGES = {
  added: { letter: 'A', label: 'added' },
  modified: { letter: 'M', label: 'modified' },
  deleted: { letter: 'D', label: 'deleted' },
  type_changed: { letter: 'T', label: 'type changed' },
  unchanged: { letter: '=', label: 'unchanged' },
  unknown: { letter: '?', label: 'unknown' },
  // a directory a snapshot named that the turn made or removed: no file change (README, Semantics)
  directory_created: { letter: '+', label: 'directory created' },
  directory_removed: { letter: '-', label: 'directory removed' },
  open: { letter: '…', label: 'recording' },
  // a path the turn added that git's rule (`git diff -M`) pairs with one it deleted: one entry, `old → new`
  renamed: { letter: 'R', label: 'renamed' },
};

export function changeOf(record) {
  if (record.renamed_from) return CHANGES.renamed;
  return CHANGES[record.change ?? 'open'] ?? { letter: '?', label: String(record.change) };
}
export const capitalised = text => text.charAt(0).toUpperCase() + text.slice(1);

/** Why a state was not captured: a short badge and the sentence the panel shows. */
export const REASONS = {
  outside_workspace: { badge: 'outside', text: 'outside the workspace — content never read' },
  escapes_workspace: { badge: 'escapes', text: 'leads outside the workspace through a link — content never read' },
  hardlinked: { badge: 'hardlinked', text: 'hardlinked — another name (maybe outside the workspace) shares this file; content not read' },
  special_file: { badge: 'special file', text: 'a special file (FIFO, socket or device) — never read' },
  directory: { badge: 'directory', text: 'a directory — recorded with its mode only' },
  too_large: { badge: 'too large', text: 'over the size limit — only a sampled fingerprint was taken, no content stored' },
  unreadable: { badge: 'unreadable', text: 'could not be read (permissions or an I/O error) — no content stored' },
  changed_during_read: { badge: 'changed while read', text: 'changed while it was being read — no consistent content stored' },
  ignored_not_stored: { badge: 'ignored, not stored', text: 'ignored by git, and this store keeps ignored files\' stat and hash only — content not stored' },
};

export function reasonOf(code) {
  return REASONS[code] ?? { badge: String(code), text: String(code) };
}

/** Why a rewind skipped a path (rewind reasons, then snapshot reasons). */
const SKIP = {
  conflict: 'changed since the turn, and the turn\'s hunks do not reverse cleanly onto it',
  chain_broken: 'the turns do not follow on from each other for this path (changed between them)',
  unverified: 'what the turn left was not captured, so nothing proves the file still holds it',
  refused: 'cannot be written safely (a link, a file where a directory should be, or unreadable now)',
  not_captured: 'its before-state was not captured',
  directory_not_empty: 'the directory still holds other files; left as it is',
  damaged: 'its stored content reads back as other bytes: the store is damaged; left as it is',
  interrupted: 'the operation has not finished',
};
export function skipText(reason) {
  return SKIP[reason] ?? REASONS[reason]?.text ?? String(reason);
}
/** Skips that --force can overwrite (their current state stored first, so the undo brings it back). */
export const FORCEABLE = new Set(['conflict', 'unverified']);

/** The reasons a record was not captured on either side, deduplicated, before first. */
export function recordReasons(record) {
  const reasons = [];
  for (const side of [record.before, record.after]) {
    if (side && !side.captured && side.reason && !reasons.includes(side.reason)) reasons.push(side.reason);
  }
  return reasons;
}

export function isNotRestorable(record) {
  const changed = record.change !== 'unchanged';
  const directory = record.before?.type === 'directory' && record.after?.type === 'directory';
  return changed && !record.restorable && !directory;
}

const number = new Intl.NumberFormat();
export const count = n => number.format(n);
export const plural = (n, one, many = `${one}s`) => `${count(n)} ${n === 1 ? one : many}`;

export function bytes(n) {
  if (n === null || n === undefined) return '—';
  if (n < 1024) return `${count(n)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = -1;
  do { v /= 1024; u++; } while (v >= 1024 && u < units.length - 1);
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[u]}`;
}

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const date = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'long' });
export const clock = iso => (iso ? time.format(new Date(iso)) : '—');
export const day = iso => (iso ? date.format(new Date(iso)) : '—');
export const exact = iso => (iso ? full.format(new Date(iso)) : '');

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
export function ago(iso, now = Date.now()) {
  if (!iso) return '';
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const steps = [[60, 'second'], [60, 'minute'], [24, 'hour'], [30, 'day'], [12, 'month'], [Infinity, 'year']];
  let v = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(v) < size) return relative.format(Math.trunc(v), unit);
    v /= size;
  }
  return '';
}

export function duration(fromIso, toIso) {
  if (!fromIso || !toIso) return '';
  const ms = new Date(toIso) - new Date(fromIso);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** 'src/shop/cart.py' -> ['src/shop/', 'cart.py'] */
export function splitPath(path) {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? ['', path] : [path.slice(0, slash + 1), path.slice(slash + 1)];
}

export const shortId = id => (id && id.length > 14 ? `${id.slice(0, 13)}…` : id);
export const shortHash = sha => (sha ? sha.slice(0, 10) : '—');

export function modeText(mode) {
  if (!mode) return '—';
  const bits = parseInt(mode, 8);
  const rwx = s => ['r', 'w', 'x'].map((c, i) => (s & (4 >> i) ? c : '-')).join('');
  return `${mode} (${rwx(bits >> 6)}${rwx(bits >> 3)}${rwx(bits)})`;
}

export const TYPE_NAMES = {
  regular: 'file', directory: 'directory', symlink: 'symlink', fifo: 'FIFO', socket: 'socket',
  char_device: 'character device', block_device: 'block device', unknown: 'unknown type',
};
export function describeSide(side) {
  if (!side) return 'not taken yet';
  if (side.exists === false) return 'absent';
  if (side.exists === null) return 'unknown (could not be read)';
  const type = TYPE_NAMES[side.type] ?? 'file';
  if (side.type === 'symlink') return `symlink → ${side.link_target ?? '?'}`;
  return `${type}, ${bytes(side.size)}, mode ${side.mode ?? '—'}`;
}
