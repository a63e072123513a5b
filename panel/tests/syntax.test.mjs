import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { built, dist } from './built.mjs';

const { cutRuns, HIGHLIGHT_LIMIT, highlightRuns, languageOf, tokenRuns, withinHighlightLimit } = await built('assets/js/syntax.js');
const { analyse } = await built('assets/js/diff.js');

test('the language comes from the file name: extensions, highlight.js aliases, whole names; none for the rest', () => {
  const expected = {
    'src/main/java/io/x/Store.java': 'java', 'web/app.JS': 'javascript', 'a/b.mjs': 'javascript', 'ui/View.tsx': 'typescript',
    'x.ts': 'typescript', 'tool.py': 'python', 'main.go': 'go', 'lib.rs': 'rust', 'x.c': 'c', 'x.h': 'c', 'x.cpp': 'cpp',
    'x.hpp': 'cpp', 'run.sh': 'bash', 'x.zsh': 'bash', 'package.json': 'json', 'ci.yml': 'yaml', 'k.yaml': 'yaml',
    'pom.xml': 'xml', 'index.html': 'xml', 'icon.svg': 'xml', 'site.css': 'css', 'README.md': 'markdown', 'q.sql': 'sql',
    'Build.kt': 'kotlin', 'build.gradle.kts': 'kotlin', 'app.rb': 'ruby', 'Gemfile': 'ruby', 'home/.bashrc': 'bash',
  };
  for (const [file, language] of Object.entries(expected)) assert.equal(languageOf(file), language, file);
  for (const file of ['.env', 'config/.env', 'Makefile', 'notes.txt', 'LICENSE', 'a.unknownext', 'x.cs', '', null]) {
    assert.equal(languageOf(file), null, String(file));
  }
});

test('a diff above 5,000 lines or 250,000 characters is drawn plain', () => {
  const diff = lines => ['diff --git a/A.java b/A.java', '@@ -1,1 +1,1 @@', ...Array.from({ length: lines - 2 }, (_, i) => `+int x${i} = 1;`)].join('\n') + '\n';
  assert.deepEqual(HIGHLIGHT_LIMIT, { lines: 5_000, chars: 250_000 });
  assert.ok(withinHighlightLimit(analyse(diff(5_000))));
  assert.ok(!withinHighlightLimit(analyse(diff(5_001))));
  const wide = `diff --git a/A.java b/A.java\n@@ -1,1 +1,2 @@\n+${'x'.repeat(130_000)}\n+${'y'.repeat(130_000)}\n`;
  assert.ok(!withinHighlightLimit(analyse(wide)), 'four lines, but over 250,000 characters');
});

test('a Java line becomes token runs whose text is the line, markup in it kept as text', () => {
  const line = 'String s = "<img src=x onerror=alert(1)>" & 1; // \'quoted\'';
  const runs = highlightRuns(line, 'java');
  assert.equal(runs.map(r => r.text).join(''), line);
  assert.deepEqual(runs.find(r => r.text === 'String'), { text: 'String', scope: 'hljs-type' });
  assert.equal(runs.find(r => r.text.startsWith('"<img')).scope, 'hljs-string');
  assert.equal(runs.at(-1).scope, 'hljs-comment');
});

test('token runs refuse what is not highlight.js output', () => {
  assert.deepEqual(tokenRuns('<span class="hljs-keyword">if</span> a &lt; b'), [{ text: 'if', scope: 'hljs-keyword' }, { text: ' a < b', scope: '' }]);
  assert.throws(() => tokenRuns('<img src=x onerror=alert(1)>'), /not highlight.js output/);
});

test('runs are cut where diff2html split the line (the <ins>/<del> of a word diff)', () => {
  const runs = [{ text: 'return', scope: 'hljs-keyword' }, { text: ' total', scope: '' }];
  assert.deepEqual(cutRuns(runs, [3, 5, 4]), [
    [{ text: 'ret', scope: 'hljs-keyword' }],
    [{ text: 'urn', scope: 'hljs-keyword' }, { text: ' t', scope: '' }],
    [{ text: 'otal', scope: '' }],
  ]);
  assert.deepEqual(runs, [{ text: 'return', scope: 'hljs-keyword' }, { text: ' total', scope: '' }], 'the runs given are left as they were');
});

test('the highlight.js bundle holds the pinned version and the common languages, and is far smaller than the package', () => {
  const bundle = fs.readFileSync(path.join(dist, 'vendor/highlight.js/highlight.js'), 'utf8');
  assert.match(bundle, /^\/\/ highlight\.js 11\.12\.0 /);
  assert.ok(bundle.length < 400_000, `${bundle.length} bytes`);
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'panel-files.json'), 'utf8'));
  assert.equal(manifest['highlight.js'], '11.12.0');
  for (const file of ['/vendor/highlight.js/highlight.js', '/vendor/highlight.js/LICENSE.txt', '/vendor/highlight.js/github.min.css', '/vendor/highlight.js/github-dark.min.css']) {
    assert.ok(manifest.files.some(f => f.path === file), file);
  }
});

test('each side of a hunk is highlighted as one text: a comment and a string spanning lines stay open on every line', async () => {
  const { hunkLineRuns, splitLines } = await built('assets/js/syntax.js');
  const diff = [
    'diff --git a/Doc.java b/Doc.java',
    '--- a/Doc.java',
    '+++ b/Doc.java',
    '@@ -10,4 +10,5 @@ class Doc {',
    '   /*',
    '-   * old int x = 1;',
    '+   * new int y = 2;',
    '+   * more',
    '    */',
    '   int z = 3;',
    '\\ No newline at end of file',
  ].join('\n') + '\n';
  const byLine = hunkLineRuns(diff, 'java');
  const scopes = key => [...new Set(byLine.get(key).map(run => run.scope))];
  const text = key => byLine.get(key).map(run => run.text).join('');
  assert.equal(text('0:old:11'), '   * old int x = 1;');
  assert.deepEqual(scopes('0:old:11'), ['hljs-comment'], 'the deleted line inside the comment');
  assert.deepEqual(scopes('0:new:11'), ['hljs-comment']);
  assert.deepEqual(scopes('0:new:12'), ['hljs-comment']);
  assert.deepEqual(scopes('0:new:13'), ['hljs-comment'], 'the comment closes on the context line');
  assert.ok(scopes('0:new:14').includes('hljs-type'), 'after it, code again');
  assert.equal(text('0:old:13'), '  int z = 3;', 'the old side numbers its own lines');
  assert.equal(byLine.size, 4 + 5);
  assert.deepEqual(splitLines([{ text: 'a\nb', scope: 's' }, { text: '\n', scope: '' }]),
    [[{ text: 'a', scope: 's' }], [{ text: 'b', scope: 's' }], []]);
});
