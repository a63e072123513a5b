// What the panel is made of, for build.mjs (which copies it into dist/) and dev/serve.mjs (which serves
// dist/). The server jar serves dist/ at / exactly as listed in dist/panel-files.json.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const panelDir = path.dirname(fileURLToPath(import.meta.url));
export const srcDir = path.join(panelDir, 'src');
export const distDir = path.join(panelDir, 'dist');
export const DIFF2HTML_VERSION = '3.4.56';

export const EVENTSOURCE_PARSER_VERSION = '3.1.1';

export const HIGHLIGHT_VERSION = '11.12.0';

/** Third-party files shipped with the panel: the diff2html core bundle (no highlight.js), its CSS, and
 *  the licences of diff2html and of what its bundle contains (jsdiff, Hogan's runtime); the
 *  eventsource-parser ES module (the text/event-stream format, for the live stream read with fetch);
 *  highlight.js's licence and its GitHub themes, light and dark (its code is the bundle build.mjs writes:
 *  highlight-bundle.mjs). */
export const vendorFiles = [
  ['node_modules/diff2html/bundles/js/diff2html.min.js', 'vendor/diff2html/diff2html.min.js'],
  ['node_modules/diff2html/bundles/css/diff2html.min.css', 'vendor/diff2html/diff2html.min.css'],
  ['node_modules/diff2html/LICENSE.md', 'vendor/diff2html/LICENSE.md'],
  ['node_modules/diff/LICENSE', 'vendor/diff2html/LICENSE-jsdiff.txt'],
  ['node_modules/@profoundlogic/hogan/LICENSE', 'vendor/diff2html/LICENSE-hogan.txt'],
  ['node_modules/eventsource-parser/dist/index.js', 'vendor/eventsource-parser/index.js'],
  ['node_modules/eventsource-parser/LICENSE', 'vendor/eventsource-parser/LICENSE.txt'],
  ['node_modules/highlight.js/LICENSE', 'vendor/highlight.js/LICENSE.txt'],
  ['node_modules/highlight.js/styles/github.min.css', 'vendor/highlight.js/github.min.css'],
  ['node_modules/highlight.js/styles/github-dark.min.css', 'vendor/highlight.js/github-dark.min.css'],
];

/** The highlight.js bundle build.mjs writes (highlight-bundle.mjs), relative to dist/. */
export const HIGHLIGHT_BUNDLE = 'vendor/highlight.js/highlight.js';

/** The pinned versions build.mjs checks node_modules against. */
export const PINNED = { diff2html: DIFF2HTML_VERSION, 'eventsource-parser': EVENTSOURCE_PARSER_VERSION, 'highlight.js': HIGHLIGHT_VERSION };

export const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The panel's own files, relative to src/. */
export function appFiles(dir = srcDir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => entry.isDirectory()
    ? appFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
    : [`${prefix}${entry.name}`]).sort();
}
