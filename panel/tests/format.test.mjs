import assert from 'node:assert/strict';
import { test } from 'node:test';
import { built } from './built.mjs';

const f = await built('assets/js/format.js');
const { requestOf, newOperationId } = await built('assets/js/rewind.js');

const captured = { exists: true, type: 'regular', captured: true, reason: null };
const side = (reason, extra) => ({ exists: true, type: 'regular', captured: false, reason, ...extra });

test('the reasons a record was not captured: each once, the before-state first', () => {
  assert.deepEqual(f.recordReasons({ before: side('hardlinked'), after: side('hardlinked') }), ['hardlinked']);
  assert.deepEqual(f.recordReasons({ before: side('too_large'), after: side('escapes_workspace') }), ['too_large', 'escapes_workspace']);
  assert.deepEqual(f.recordReasons({ before: captured, after: null }), [], 'an open turn has no after-state yet');
});

test('every reason the README lists reads as words; an unknown code reads as itself', () => {
  for (const code of ['outside_workspace', 'escapes_workspace', 'hardlinked', 'special_file', 'directory', 'too_large', 'unreadable', 'changed_during_read']) {
    assert.ok(f.reasonOf(code).text.length > 20, code);
  }
  assert.match(f.reasonOf('outside_workspace').text, /content never read/);
  assert.deepEqual(f.reasonOf('<b>new</b>'), { badge: '<b>new</b>', text: '<b>new</b>' });
  assert.equal(f.skipText('conflict').includes('do not reverse cleanly'), true);
  assert.equal(f.skipText('escapes_workspace'), f.reasonOf('escapes_workspace').text);
  assert.equal(f.skipText('no_such_reason'), 'no_such_reason');
});

test('not restorable: a change that cannot be put back, but never an unchanged path or a directory', () => {
  assert.equal(f.isNotRestorable({ change: 'unknown', restorable: false, before: side('escapes_workspace'), after: side('escapes_workspace') }), true);
  assert.equal(f.isNotRestorable({ change: 'unchanged', restorable: false, before: captured, after: captured }), false);
  const dir = { exists: true, type: 'directory', captured: false, reason: 'directory' };
  assert.equal(f.isNotRestorable({ change: 'modified', restorable: false, before: dir, after: dir }), false);
  assert.equal(f.isNotRestorable({ change: 'modified', restorable: true, before: captured, after: captured }), false);
});

test('every change the README lists reads as words, a directory a snapshot named among them', () => {
  for (const code of ['added', 'modified', 'deleted', 'unchanged', 'type_changed', 'directory_created', 'directory_removed']) {
    assert.notEqual(f.changeOf({ change: code }).letter, '?', `${code} has a letter of its own`);
    assert.notEqual(f.changeOf({ change: code }).label, code.includes('_') ? code : undefined, `${code} reads as words`);
  }
  assert.deepEqual(f.changeOf({ change: 'directory_created' }), { letter: '+', label: 'directory created' });
  assert.deepEqual(f.changeOf({ change: 'directory_removed' }), { letter: '-', label: 'directory removed' });
});

test('modes, sizes and paths as a person reads them', () => {
  assert.equal(f.modeText('0755'), '0755 (rwxr-xr-x)');
  assert.equal(f.modeText('0640'), '0640 (rw-r-----)');
  assert.equal(f.bytes(0), '0 B');
  assert.equal(f.bytes(2 * 1024 * 1024), '2.0 MiB');
  assert.equal(f.bytes(null), '—');
  assert.deepEqual(f.splitPath('src/shop/cart.py'), ['src/shop/', 'cart.py']);
  assert.deepEqual(f.splitPath('<img src=x onerror=alert(1)>.txt'), ['', '<img src=x onerror=alert(1)>.txt']);
  assert.equal(f.describeSide({ exists: true, type: 'symlink', link_target: '../../outside' }), 'symlink → ../../outside');
  assert.equal(f.describeSide({ exists: null }), 'unknown (could not be read)');
});

test('the rewind request of each scope', () => {
  assert.deepEqual(requestOf({ scope: 'turn', turn: 't-1' }, { dryRun: true }), { turn: 't-1', dry_run: true });
  assert.deepEqual(requestOf({ scope: 'to', turn: 't-1' }, { force: true, operation: 'panel-1' }), { turn: 't-1', to: true, force: true, operation: 'panel-1' });
  assert.deepEqual(requestOf({ scope: 'file', turn: 't-1', path: 'src/a b.py' }, { dryRun: true }), { turn: 't-1', paths: ['src/a b.py'], dry_run: true });
  // a name that is not UTF-8 goes as its bytes, never as its display form with \xNN escapes
  assert.deepEqual(requestOf({ scope: 'file', turn: 't-1', path: 'caf\\xe9.txt', pathBase64: 'Y2Fm6S50eHQ=' }, {}), { turn: 't-1', paths_base64: ['Y2Fm6S50eHQ='] });
});

test('an operation id is one the service accepts (ExternalIds: [A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}), and new each time', () => {
  const ids = new Set(Array.from({ length: 50 }, newOperationId));
  assert.equal(ids.size, 50);
  for (const id of ids) assert.match(id, /^panel-[0-9a-f]{16}$/);
});
