import assert from 'node:assert/strict';
import { test } from 'node:test';
import { built } from './built.mjs';

const { newestWins } = await built('assets/js/reload.js');

/** A load whose answers the test hands out, in any order. */
function loads() {
  const pending = [];
  const load = () => new Promise(resolve => pending.push(resolve));
  return { load, answer: (i, value) => pending[i](value) };
}

test('an older answer that comes back last is not drawn over the newer one', async () => {
  const { load, answer } = loads();
  const drawn = [];
  const reload = newestWins(load, value => drawn.push(value));
  const first = reload();
  const second = reload();
  answer(1, 'two turns');
  await second;
  answer(0, 'one turn');
  await first;
  assert.deepEqual(drawn, ['two turns']);
});

test('answers in order: only the newest is drawn, once', async () => {
  const { load, answer } = loads();
  const drawn = [];
  const reload = newestWins(load, value => drawn.push(value));
  const calls = [reload(), reload(), reload()];
  answer(0, 'a');
  answer(1, 'b');
  answer(2, 'c');
  await Promise.all(calls);
  assert.deepEqual(drawn, ['c']);
});

test('a failed load (null: the view drew its error) draws nothing, and the next reload draws again', async () => {
  const { load, answer } = loads();
  const drawn = [];
  const reload = newestWins(load, value => drawn.push(value));
  const failed = reload();
  answer(0, null);
  await failed;
  const next = reload();
  answer(1, 'fresh');
  await next;
  assert.deepEqual(drawn, ['fresh']);
});
