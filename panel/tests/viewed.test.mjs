import assert from 'node:assert/strict';
import { test } from 'node:test';
import { built } from './built.mjs';

const { markedState, ViewedMarks } = await built('assets/js/viewed.js');

/** The Web Storage calls the marks make (getItem, setItem, removeItem), over a Map that a test reads. */
class MapStorage {
  constructor() {
    this.entries = new Map();
  }
  getItem(key) {
    return this.entries.has(key) ? this.entries.get(key) : null;
  }
  setItem(key, value) {
    this.entries.set(key, String(value));
  }
  removeItem(key) {
    this.entries.delete(key);
  }
}

const file = (path, fingerprint) => ({ path, after: fingerprint === null ? null : { fingerprint } });

test('a mark is kept per turn and read back by a new reader, as after a reload', () => {
  const storage = new MapStorage();
  const a = file('src/a.py', 'regular:12:aa:0644');
  const b = file('src/b.py', 'regular:40:bb:0644');
  new ViewedMarks(storage, 'turn:T1').set(a, true);
  assert.deepEqual([...storage.entries.keys()], ['turndiff.viewed.turn:T1']);
  const reloaded = new ViewedMarks(storage, 'turn:T1');
  assert.equal(reloaded.has(a), true);
  assert.equal(reloaded.has(b), false);
  assert.equal(reloaded.count([a, b]), 1);
  assert.equal(new ViewedMarks(storage, 'turn:T2').has(a), false, 'another turn has marks of its own');
});

test('a file whose after-state changed since it was marked is unviewed again', () => {
  const storage = new MapStorage();
  new ViewedMarks(storage, 'range:A..B').set(file('a.txt', 'regular:3:old:0644'), true);
  const marks = new ViewedMarks(storage, 'range:A..B');
  assert.equal(marks.has(file('a.txt', 'regular:3:old:0644')), true);
  assert.equal(marks.has(file('a.txt', 'regular:4:new:0644')), false);
});

test('unmarking the last file removes the entry; a file with no final after-state is never marked', () => {
  const storage = new MapStorage();
  const marks = new ViewedMarks(storage, 'turn:T');
  const a = file('a', 'regular:1:x:0644');
  marks.set(a, true);
  marks.set(a, false);
  assert.equal(storage.entries.size, 0);
  const open = file('b', null);
  assert.equal(markedState(open), null);
  marks.set(open, true);
  assert.equal(marks.has(open), false);
  assert.equal(storage.entries.size, 0);
});

test('a damaged or foreign entry marks nothing and is rewritten by the next mark', () => {
  for (const stored of ['{not json', '[1,2]', '"text"', '{"a":5}']) {
    const storage = new MapStorage();
    storage.setItem('turndiff.viewed.turn:T', stored);
    const marks = new ViewedMarks(storage, 'turn:T');
    assert.equal(marks.has(file('a', '5')), false, stored);
    marks.set(file('c', 'regular:1:c:0644'), true);
    assert.deepEqual(JSON.parse(storage.getItem('turndiff.viewed.turn:T')), { c: 'regular:1:c:0644' }, stored);
  }
});
