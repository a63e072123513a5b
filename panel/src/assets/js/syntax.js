// Syntax highlighting of a diff's lines with highlight.js (the panel's bundle of its core and the common
// languages: highlight-bundle.mjs). diff2html draws the diff; each line it drew is then highlighted on its
// own, and its tokens are laid over what diff2html put in the line (the text, and the <ins>/<del> of a
// word diff) as spans built here: highlight.js's HTML never enters the page, only its token classes do,
// so no markup from a file can.
//
// A line is highlighted alone, without the lines around it: a hunk is not the whole file, so a comment or
// a string that spans lines is coloured from the line where it opens only when that line is in the hunk.
import hljs from '../../vendor/highlight.js/highlight.js';
import { h } from './dom.js';

/**
 * Above these a diff is drawn plain. highlight.js costs about 2 µs a character here: 20,000 lines of
 * 80-character Java took 3.4 s in Node on the project's 2-core VM under other builds' load (2026-12-02),
 * before any DOM work, and the page does nothing else meanwhile. These bounds keep that under about half
 * a second; a diff this long (a generated or vendored file, most often) is read for its size, not its
 * tokens.
 */
export const HIGHLIGHT_LIMIT = { lines: 5_000, chars: 250_000 };

/** Whole file names whose language their extension does not tell. */
const LANGUAGE_BY_NAME = {
  gemfile: 'ruby',
  rakefile: 'ruby',
  '.bashrc': 'bash',
  '.bash_profile': 'bash',
  '.profile': 'bash',
  '.zshrc': 'bash',
};

/** Each extension highlight.js knows, as a language's name or alias (`h` is C, `tsx` TypeScript), to its language. */
const LANGUAGE_BY_EXTENSION = new Map(hljs.listLanguages().flatMap(name =>
  [name, ...(hljs.getLanguage(name).aliases ?? [])].map(alias => [alias.toLowerCase(), name])));

/** The language of a file, from its name alone; null when the panel has none for it (it is drawn plain). */
export function languageOf(path) {
  const name = String(path ?? '').split('/').pop().toLowerCase();
  if (Object.hasOwn(LANGUAGE_BY_NAME, name)) return LANGUAGE_BY_NAME[name];
  const dot = name.lastIndexOf('.');
  // no extension, or a dot file such as .env: nothing names its language
  if (dot <= 0) return null;
  return LANGUAGE_BY_EXTENSION.get(name.slice(dot + 1)) ?? null;
}

/** Whether a diff (diff.js analyse) is small enough to highlight. */
export function withinHighlightLimit(analysis) {
  return analysis.lines <= HIGHLIGHT_LIMIT.lines && analysis.text.length <= HIGHLIGHT_LIMIT.chars;
}

const ENTITIES = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };

/**
 * highlight.js's HTML for a line as runs of text, each with the classes of the innermost token around it
 * ('' outside any). Its HTML holds only `<span class="...">`, `</span>` and the five entities its
 * escaping writes; anything else is not its output and is refused.
 */
export function tokenRuns(html) {
  const runs = [];
  const scopes = [];
  let read = 0;
  for (const [whole, open, close, text] of html.matchAll(/<span class="([^"<>]*)">|(<\/span>)|([^<]+)/gy)) {
    read += whole.length;
    if (open !== undefined) scopes.push(open);
    else if (close) scopes.pop();
    else runs.push({ text: text.replace(/&(?:amp|lt|gt|quot|#x27);/g, e => ENTITIES[e]), scope: scopes.at(-1) ?? '' });
  }
  // the sticky pattern stops at the first thing it does not know: then not all of it was read
  if (read !== html.length) throw new Error('not highlight.js output');
  return runs;
}

/** The runs cut at the given lengths, in order: the tokens of each piece of a line diff2html drew. */
export function cutRuns(runs, lengths) {
  const queue = runs.map(r => ({ ...r }));
  return lengths.map(length => {
    const piece = [];
    let left = length;
    while (left > 0 && queue.length) {
      const run = queue[0];
      if (run.text.length <= left) {
        piece.push(queue.shift());
        left -= run.text.length;
      } else {
        piece.push({ text: run.text.slice(0, left), scope: run.scope });
        run.text = run.text.slice(left);
        left = 0;
      }
    }
    return piece;
  });
}

/** The highlighted text of one line, as runs (tokenRuns). */
export function highlightRuns(text, language) {
  return tokenRuns(hljs.highlight(text, { language, ignoreIllegals: true }).value);
}

/**
 * Highlights every line diff2html drew in `body` as `language`: each child of a line's content (a text
 * node, or the <ins>/<del> of a word diff) keeps its place and gets its share of the tokens.
 */
export function highlightLines(body, language) {
  for (const line of body.querySelectorAll('.d2h-code-line-ctn')) {
    const text = line.textContent;
    if (!text.trim()) continue;
    const pieces = [...line.childNodes];
    const cut = cutRuns(highlightRuns(text, language), pieces.map(node => node.textContent.length));
    pieces.forEach((node, i) => {
      const tokens = cut[i].map(run => (run.scope ? h('span', { class: run.scope }, run.text) : run.text));
      if (node.nodeType === Node.ELEMENT_NODE) node.replaceChildren(...tokens);
      else node.replaceWith(...tokens);
    });
  }
}
