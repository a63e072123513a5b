import assert from 'node:assert/strict';
import { test } from 'node:test';
import { built } from './built.mjs';

const { analyse, CONTEXT, moreContext, onlyWhitespaceChanged, viewQuery } = await built('assets/js/diff.js');

test('a missing newline at the end is found on the line it follows, on each side', () => {
  const text = [
    'diff --git a/p.py b/p.py',
    '--- a/p.py',
    '+++ b/p.py',
    '@@ -1,2 +1,2 @@',
    ' keep',
    '-old',
    '\\ No newline at end of file',
    '+new',
    '\\ No newline at end of file',
    '',
  ].join('\n');
  const a = analyse(text);
  assert.equal(a.hunks, 1);
  assert.deepEqual(a.noEol, [{ block: 0, side: 'old', oldLine: 2 }, { block: 0, side: 'new', newLine: 2 }]);
  assert.equal(a.text, text, 'the text diff2html gets is the diff itself');
});

test('turndiff comment lines are taken out of the diff and kept as notices', () => {
  const comment = 'config/credentials.env: before-state not captured (escapes_workspace): symlink -> ../../outside; no content is shown';
  const a = analyse(`diff --git a/config/credentials.env b/config/credentials.env\n# turndiff: ${comment}\n`);
  assert.deepEqual(a.comments, [comment]);
  assert.equal(a.text, 'diff --git a/config/credentials.env b/config/credentials.env\n');
  assert.equal(a.hunks, 0);
});

test('mode changes and binary files are seen', () => {
  const mode = analyse('diff --git a/build.sh b/build.sh\nold mode 100644\nnew mode 100755\n');
  assert.deepEqual(mode.modes, { 'old mode': '100644', 'new mode': '100755' });
  assert.equal(mode.binary, false);
  const binary = analyse('diff --git a/logo.png b/logo.png\nindex 1..2\nBinary files a/logo.png and b/logo.png differ\n');
  assert.equal(binary.binary, true);
  assert.equal(binary.hunks, 0);
});

test('a type change is two blocks, and a mark names its block', () => {
  const text = [
    'diff --git a/active.toml b/active.toml', 'deleted file mode 120000', '--- a/active.toml', '+++ /dev/null',
    '@@ -1 +0,0 @@', '-profiles/dev.toml', '\\ No newline at end of file',
    'diff --git a/active.toml b/active.toml', 'new file mode 100644', '--- /dev/null', '+++ b/active.toml',
    '@@ -0,0 +1 @@', '+mode = "dev"', '',
  ].join('\n');
  const a = analyse(text);
  assert.equal(a.hunks, 2);
  assert.deepEqual(a.noEol, [{ block: 0, side: 'old', oldLine: 1 }]);
  assert.equal(a.modes['deleted file mode'], '120000');
  assert.equal(a.modes['new file mode'], '100644');
});

test('an empty diff (an unchanged file) is nothing', () => {
  assert.deepEqual(analyse(''), { text: '', comments: [], noEol: [], hunks: 0, binary: false, modes: {}, lines: 0 });
});

test('the stored diff is asked for with no view parameters; a reader\'s view names only what differs', () => {
  assert.deepEqual(viewQuery(), { whitespace: undefined, context: undefined });
  assert.deepEqual(viewQuery({ hideWhitespace: false, context: CONTEXT.DEFAULT }), { whitespace: undefined, context: undefined });
  assert.deepEqual(viewQuery({ hideWhitespace: true, context: 23 }), { whitespace: 'ignore', context: 23 });
});

test('more context grows by a step and stops at the whole file', () => {
  assert.equal(moreContext(CONTEXT.DEFAULT), 23);
  assert.equal(moreContext(23), 43);
  assert.equal(moreContext(CONTEXT.WHOLE - 5), CONTEXT.WHOLE);
  assert.equal(CONTEXT.WHOLE, 1_000_000, 'the service\'s bound (DiffOptions.MAX_CONTEXT)');
});

test('only whitespace changed: a modified file whose content changed, drawn without whitespace and with no hunk', () => {
  const header = 'diff --git a/b.py b/b.py\nindex 1111111..2222222 100644\n';
  const record = { change: 'modified', before: { sha256: 'aa' }, after: { sha256: 'bb' } };
  assert.equal(onlyWhitespaceChanged(record, analyse(header), true), true);
  assert.equal(onlyWhitespaceChanged(record, analyse(header), false), false, 'whitespace shown: a diff with no hunk is something else');
  const withHunk = `${header}--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-a\n+b\n`;
  assert.equal(onlyWhitespaceChanged(record, analyse(withHunk), true), false);
  const modeOnly = { change: 'modified', before: { sha256: 'aa' }, after: { sha256: 'aa' } };
  assert.equal(onlyWhitespaceChanged(modeOnly, analyse('diff --git a/x b/x\nold mode 100644\nnew mode 100755\n'), true), false);
  assert.equal(onlyWhitespaceChanged({ ...record, change: 'added' }, analyse(header), true), false);
  assert.equal(onlyWhitespaceChanged(record, analyse(`diff --git a/b b/b\nBinary files a/b and b/b differ\n`), true), false);
});

test('an image-named file shows as images the sides whose content is stored, and only those', async () => {
  const { imageSides } = await built('assets/js/diff.js');
  const stored = { exists: true, captured: true, sha256: 'a'.repeat(64), size: 10 };
  const absent = { exists: false, captured: true, sha256: null };
  const hardlinked = { exists: true, captured: false, reason: 'hardlinked', sha256: 'b'.repeat(64) };
  assert.deepEqual(imageSides({ path: 'img/logo.PNG', before: stored, after: stored }), ['before', 'after']);
  assert.deepEqual(imageSides({ path: 'a.svg', before: absent, after: stored }), ['after'], 'added: the after-state alone');
  assert.deepEqual(imageSides({ path: 'a.jpeg', before: stored, after: absent }), ['before'], 'deleted: the before-state alone');
  assert.deepEqual(imageSides({ path: 'a.gif', before: hardlinked, after: stored }), ['after'], 'a state not captured is never asked for');
  assert.deepEqual(imageSides({ path: 'a.gif', before: stored, after: null }), ['before'], 'an open turn has no after-state yet');
  assert.deepEqual(imageSides({ path: 'notes.txt', before: stored, after: stored }), []);
  assert.deepEqual(imageSides({ path: 'png', before: stored, after: stored }), [], 'a name is not an extension');
});
