// The highlight.js the panel ships: one ES module, built from the pinned npm package at build time, holding
// its core and the languages below and nothing else (the whole package is 9 MB; this is about 250 kB).
//
// The package's own ES entry points cannot be served as they are: es/core.js re-exports lib/core.js, a
// CommonJS file a browser cannot import. lib/core.js requires nothing, so it is wrapped in a function
// that hands it a `module` object, and each language (es/languages/NAME.js, an ES module with no imports
// and one `export { NAME as default }`) is wrapped in a function of its own, so that the files' top-level
// names (several declare `decimalDigits`, `KEYWORDS`...) never meet.
import fs from 'node:fs';
import path from 'node:path';

/** The languages the panel highlights (docs/review-panel.md): the ones agents' turns mostly touch. */
export const HIGHLIGHT_LANGUAGES = ['bash', 'c', 'cpp', 'css', 'go', 'java', 'javascript', 'json', 'kotlin', 'markdown',
  'python', 'ruby', 'rust', 'shell', 'sql', 'typescript', 'xml', 'yaml'];

/** The bundle's text, from the package in `packageDir` (node_modules/highlight.js). */
export function highlightBundle(packageDir) {
  const core = fs.readFileSync(path.join(packageDir, 'lib/core.js'), 'utf8');
  const parts = [
    `// highlight.js ${JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version} (BSD-3-Clause, LICENSE.txt beside this file): its core and ${HIGHLIGHT_LANGUAGES.length} languages, assembled by the panel's build (highlight-bundle.mjs)`,
    'const hljs = (() => {',
    'const module = { exports: {} };',
    core,
    'return module.exports;',
    '})();',
  ];
  for (const name of HIGHLIGHT_LANGUAGES) {
    const source = fs.readFileSync(path.join(packageDir, 'es/languages', `${name}.js`), 'utf8');
    const exported = `export { ${name} as default };`;
    if (!source.includes(exported) || /^\s*import\b/m.test(source)) {
      throw new Error(`highlight.js language ${name}: not the shape the panel's build wraps (one "${exported}", no imports)`);
    }
    parts.push(`hljs.registerLanguage('${name}', (() => {`, source.replace(exported, ''), `return ${name};`, '})());');
  }
  parts.push('export default hljs;', '');
  return parts.join('\n');
}
