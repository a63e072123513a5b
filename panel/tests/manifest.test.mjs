import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { dist } from './built.mjs';

const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'panel-files.json'), 'utf8'));

function filesUnder(dir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => (e.isDirectory()
    ? filesUnder(path.join(dir, e.name), `${prefix}${e.name}/`) : [`/${prefix}${e.name}`]));
}

test('panel-files.json lists every file the build wrote, with its bytes and sha256, and nothing else', () => {
  const listed = manifest.files.map(f => f.path);
  assert.deepEqual(filesUnder(dist).filter(p => p !== '/panel-files.json').sort(), [...listed].sort());
  for (const file of manifest.files) {
    const bytes = fs.readFileSync(path.join(dist, file.path));
    assert.equal(bytes.length, file.bytes, file.path);
    assert.equal(createHash('sha256').update(bytes).digest('hex'), file.sha256, file.path);
    assert.match(file.path, /^\/[a-z0-9][a-z0-9._/-]*$/i, 'a plain path the service can match exactly');
    assert.doesNotMatch(file.path, /\.\./);
  }
});

test('the page, its modules, diff2html and the licences are there, each with its content type', () => {
  const types = new Map(manifest.files.map(f => [f.path, f.type]));
  assert.equal(types.get('/index.html'), 'text/html; charset=utf-8');
  assert.equal(types.get('/assets/js/main.js'), 'text/javascript; charset=utf-8');
  assert.equal(types.get('/vendor/diff2html/diff2html.min.js'), 'text/javascript; charset=utf-8');
  assert.equal(types.get('/vendor/eventsource-parser/index.js'), 'text/javascript; charset=utf-8');
  assert.equal(types.get('/assets/panel.css'), 'text/css; charset=utf-8');
  for (const licence of ['/vendor/diff2html/LICENSE.md', '/vendor/diff2html/LICENSE-jsdiff.txt', '/vendor/diff2html/LICENSE-hogan.txt', '/vendor/eventsource-parser/LICENSE.txt']) {
    assert.equal(types.get(licence), 'text/plain; charset=utf-8', licence);
  }
  assert.equal(manifest.diff2html, '3.4.56');
});

test('no source map is referenced (none is shipped)', () => {
  for (const file of manifest.files.filter(f => f.path.endsWith('.js') || f.path.endsWith('.css'))) {
    assert.doesNotMatch(fs.readFileSync(path.join(dist, file.path), 'utf8'), /sourceMappingURL/, file.path);
  }
});

test('every module the page imports is one of the served files (a missing one would fail only in the browser)', () => {
  const served = new Set(manifest.files.map(f => f.path));
  for (const file of manifest.files.filter(f => f.path.startsWith('/assets/js/'))) {
    const text = fs.readFileSync(path.join(dist, file.path), 'utf8');
    for (const [, spec] of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), spec));
      assert.ok(served.has(target), `${file.path} imports ${spec}, which is not served`);
    }
  }
});
