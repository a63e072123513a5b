// npm run build [-- --out DIR]: checks the panel's sources against the rules the CSP enforces, then
// assembles dist/ (or DIR): the panel's files, the diff2html bundle, the highlight.js bundle (written here,
// highlight-bundle.mjs), CSS and licences, and
// panel-files.json (path, type, bytes, sha256 of every file: the list the server serves, and nothing else).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { appFiles, CONTENT_TYPES, distDir as defaultDist, HIGHLIGHT_BUNDLE, panelDir, PINNED, srcDir, vendorFiles } from './files.mjs';
import { highlightBundle } from './highlight-bundle.mjs';
import { preloadProblems, sourceProblems } from './source-rules.mjs';

const outAt = process.argv.indexOf('--out');
const distDir = outAt > 0 ? path.resolve(process.argv[outAt + 1]) : defaultDist;

const problems = [];

for (const [name, version] of Object.entries(PINNED)) {
  const manifest = path.join(panelDir, 'node_modules', name, 'package.json');
  const installed = fs.existsSync(manifest) ? JSON.parse(fs.readFileSync(manifest, 'utf8')).version : 'nothing';
  if (installed !== version) problems.push(`node_modules holds ${name} ${installed}, not ${version}: run npm ci`);
}

// the rules the CSP enforces, checked in the sources
for (const file of appFiles()) problems.push(...sourceProblems(file, fs.readFileSync(path.join(srcDir, file), 'utf8')));
const modules = [...appFiles().filter(f => f.endsWith('.js') && f !== 'assets/js/main.js'), 'vendor/eventsource-parser/index.js', HIGHLIGHT_BUNDLE];
problems.push(...preloadProblems(fs.readFileSync(path.join(srcDir, 'index.html'), 'utf8'), modules));
if (problems.length) {
  console.error(problems.map(p => `build: ${p}`).join('\n'));
  process.exit(1);
}

// replaced whole, but only when it is an earlier build (or empty): a mistyped --out never empties a folder
if (fs.existsSync(distDir) && fs.readdirSync(distDir).length && !fs.existsSync(path.join(distDir, 'panel-files.json'))) {
  console.error(`build: ${distDir} holds files but no panel-files.json: not a panel build; give an empty or new folder`);
  process.exit(1);
}
fs.rmSync(distDir, { recursive: true, force: true });
const copied = [];
const copy = (from, to) => {
  const target = path.join(distDir, to);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(from, target);
  copied.push(to);
};
for (const file of appFiles()) copy(path.join(srcDir, file), file);
for (const [from, to] of vendorFiles) copy(path.join(panelDir, from), to);
fs.mkdirSync(path.dirname(path.join(distDir, HIGHLIGHT_BUNDLE)), { recursive: true });
fs.writeFileSync(path.join(distDir, HIGHLIGHT_BUNDLE), highlightBundle(path.join(panelDir, 'node_modules/highlight.js')));
copied.push(HIGHLIGHT_BUNDLE);
// a vendored module's source map is not shipped: drop the comment that would make developer tools ask for it
for (const file of copied.filter(f => f.startsWith('vendor/') && f.endsWith('.js'))) {
  const target = path.join(distDir, file);
  fs.writeFileSync(target, fs.readFileSync(target, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
}

const manifest = copied.sort().map(file => {
  const bytes = fs.readFileSync(path.join(distDir, file));
  const type = CONTENT_TYPES[path.extname(file)];
  if (!type) throw new Error(`no content type for ${file}`);
  return { path: `/${file}`, type, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
});
fs.writeFileSync(path.join(distDir, 'panel-files.json'), JSON.stringify({ ...PINNED, files: manifest }, null, 2) + '\n');
console.log(`build: ${path.relative(process.cwd(), distDir) || '.'} holds ${manifest.length} files, ${manifest.reduce((n, f) => n + f.bytes, 0)} bytes`);
