// Viewed marks: a reviewer's "done with this file", kept per turn (or range) in this browser's
// localStorage. The service keeps no per-user state, and a mark is a reviewer's note, not a fact about
// the turn, so it stays in the browser. localStorage is per origin, and one origin is one service over
// one store: the origin is the store's identity here, and the turn's id (random, never reused) the turn's.
//
// A mark is tied to the after-state it was given on, by the state's fingerprint (type, size, content
// hash, mode): a file whose after-state differs from the one marked is unviewed again — GitHub's rule.
// A finished turn's after-states never change, but a range's last after-state does as turns are added.

const PREFIX = 'turndiff.viewed.';

/** The after-state a mark on `record` is tied to; null while the turn is open (nothing final to mark). */
export function markedState(record) {
  return record.after?.fingerprint ?? null;
}

/** The marks of one turn or range (`scope`, e.g. `turn:<id>`), read from and written to `storage` at once. */
export class ViewedMarks {
  constructor(storage, scope) {
    this.storage = storage;
    this.key = PREFIX + scope;
    this.marks = read(storage, this.key);
  }

  /** Viewed: marked on exactly the after-state the record has now. */
  has(record) {
    const state = markedState(record);
    return state !== null && this.marks[record.path] === state;
  }

  /** Marks or unmarks `record`; a record without a final after-state cannot be marked. */
  set(record, viewed) {
    const state = markedState(record);
    if (viewed && state !== null) this.marks[record.path] = state;
    else delete this.marks[record.path];
    if (Object.keys(this.marks).length) this.storage.setItem(this.key, JSON.stringify(this.marks));
    else this.storage.removeItem(this.key);
  }

  /** How many of `records` are viewed. */
  count(records) {
    return records.filter(r => this.has(r)).length;
  }
}

/** The marks stored under `key`; nothing when the entry is missing or not what this module writes. */
function read(storage, key) {
  try {
    const value = JSON.parse(storage.getItem(key) ?? '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value).filter(([, state]) => typeof state === 'string'));
    }
  } catch {
    // a damaged entry marks nothing; the next mark rewrites it
  }
  return {};
}
