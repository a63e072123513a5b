import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { appFiles, srcDir } from '../files.mjs';
import { HTML_MODULE, preloadProblems, sourceProblems } from '../source-rules.mjs';

const panelDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('the panel\'s own sources break no rule', () => {
  for (const file of appFiles()) assert.deepEqual(sourceProblems(file, fs.readFileSync(path.join(srcDir, file), 'utf8')), [], file);
});

/** Each snippet, alone in a file named `file`, breaks exactly one rule: the one named. */
function assertCaught(file, cases) {
  for (const [code, rule] of Object.entries(cases)) {
    const found = sourceProblems(file, code);
    assert.equal(found.length, 1, code);
    assert.match(found[0], new RegExp(rule), code);
  }
}

test('each rule catches what the CSP would refuse in the browser', () => {
  const js = {
    'eval("1")': 'eval-like',
    'const f = new Function("return 1")': 'eval-like',
    'setTimeout("alert(1)", 0)': 'eval-like',
    'el.innerHTML = name': 'HTML from a string',
    'el.outerHTML = name': 'HTML from a string',
    "el.insertAdjacentHTML('beforeend', name)": 'HTML from a string',
    'document.write(name)': 'HTML from a string',
    "new DOMParser().parseFromString(name, 'text/html')": 'HTML from a string',
    'Diff2Html.html(diff, { rawTemplates: {} })': 'rawTemplates',
    "el.setAttribute('style', 'color: red')": 'a style attribute',
    "h('div', { style: 'color: red' })": 'a style attribute',
    "h('a', { href: 'javascript:alert(1)' })": 'javascript: URL',
    "h('img', { src: 'data:image/svg+xml,' + text })": 'a data: or blob: URL',
    'img.src = `data:image/png;base64,${b64}`': 'a data: or blob: URL',
    'img.src = URL.createObjectURL(blob)': 'a data: or blob: URL',
  };
  assertCaught('assets/js/views/x.js', js);
  const html = {
    '<script>alert(1)</script>': 'an inline script',
    '<script type="module">import "./x.js"</script>': 'an inline script',
    '<div style="color: red">': 'inline style',
    '<style>body{}</style>': 'inline style',
    '<img src=x onerror=alert(1)>': 'inline event handler',
    '<button onclick="go()">': 'inline event handler',
  };
  assertCaught('index.html', html);
});

test('what the rules allow: module scripts by src, el.style properties, diff2html HTML in diff.js only', () => {
  assert.deepEqual(sourceProblems('index.html', '<script src="assets/js/main.js" type="module"></script>'), []);
  assert.deepEqual(sourceProblems('assets/js/filelist.js', 'this.spacer.style.height = `${n}px`;'), []);
  assert.deepEqual(sourceProblems('assets/js/diff.js', 'renderDiff(body, { style: style() })'), []);
  assert.deepEqual(sourceProblems(HTML_MODULE, 'el.innerHTML = policy.createHTML(html)'), []);
  assert.equal(sourceProblems('assets/js/ui.js', 'el.innerHTML = policy.createHTML(html)').length, 1);
});

test('a module index.html does not preload is named', () => {
  const index = fs.readFileSync(path.join(panelDir, 'src/index.html'), 'utf8');
  assert.deepEqual(preloadProblems(index, ['assets/js/api.js', 'vendor/eventsource-parser/index.js']), []);
  assert.deepEqual(preloadProblems(index, ['assets/js/new-view.js']), ['src/index.html: no modulepreload link for assets/js/new-view.js']);
});
