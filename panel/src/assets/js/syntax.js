// Syntax highlighting of a diff's lines with highlight.js (the panel's bundle of its core and the common
// languages: highlight-bundle.mjs). diff2html draws the diff; each side of each hunk (the old side: its
// context and deleted lines; the new side: its context and added lines) is then highlighted as one text
// and cut at its line ends, so a comment or a string that spans lines stays open from one line to the
// next, as it is in the file. Each line diff2html drew gets the tokens of its side and number, laid over
// what diff2html put in it (the text, and the <ins>/<del> of a word diff) as spans built here:
// highlight.js's HTML never enters the page, only its token classes do, so no markup from a file can.
//
// A hunk is not the whole file: a comment that opens above a hunk's first line is not known to be one
// there ("Whole file" shows the file as one hunk, and then it is).
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

/** The runs cut at their line ends: one list of runs per line, a token open across a line end in both. */
export function splitLines(runs) {
  const lines = [[]];
  for (const run of runs) {
    run.text.split('\n').forEach((text, i) => {
      if (i > 0) lines.push([]);
      if (text) lines.at(-1).push({ text, scope: run.scope });
    });
  }
  return lines;
}

/**
 * The runs of every line of a diff's hunks, each side of a hunk highlighted as one text, by the key
 * `block:side:number` ({@link lineKey}): `block` counts the diff's files from 0 as diff2html draws
 * them, `side` is `old` or `new`, `number` the line's number in that side's file.
 */
export function hunkLineRuns(diffText, language) {
  const byLine = new Map();
  let block = -1;
  let hunk = null;
  const flush = () => {
    for (const side of hunk ? ['old', 'new'] : []) {
      const { start, texts } = hunk[side];
      if (!texts.length) continue;
      splitLines(highlightRuns(texts.join('\n'), language))
        .forEach((runs, i) => byLine.set(`${Math.max(block, 0)}:${side}:${start + i}`, runs));
    }
    hunk = null;
  };
  for (const line of diffText.split('\n')) {
    const mark = line[0];
    if (hunk && (mark === ' ' || mark === '-' || mark === '+')) {
      if (mark !== '+') hunk.old.texts.push(line.slice(1));
      if (mark !== '-') hunk.new.texts.push(line.slice(1));
    } else if (hunk && mark === '\\') {
      // "\ No newline at end of file": about the line before, not one of the file's
    } else {
      flush();
      if (line.startsWith('diff --git ')) block++;
      const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (header) hunk = { old: { start: Number(header[1]), texts: [] }, new: { start: Number(header[2]), texts: [] } };
    }
  }
  flush();
  return byLine;
}

/**
 * The key (hunkLineRuns) of a line diff2html drew in the `block`-th file: its side and number, from its
 * row's line number cell. Unified rows number both sides (a deleted line is the old side's, the rest the
 * new's); side by side, the left table is the old side and the right the new. Null for a row that is no
 * line of either side.
 */
export function lineKey(block, line) {
  const row = line.closest('tr');
  const cell = row?.querySelector('.d2h-code-linenumber, .d2h-code-side-linenumber');
  if (!cell) return null;
  let side;
  let number;
  if (cell.classList.contains('d2h-code-linenumber')) {
    side = cell.classList.contains('d2h-del') ? 'old' : 'new';
    number = cell.querySelector(side === 'old' ? '.line-num1' : '.line-num2')?.textContent;
  } else {
    const table = line.closest('.d2h-file-side-diff');
    side = table && !table.previousElementSibling ? 'old' : 'new';
    number = cell.textContent;
  }
  number = Number.parseInt(number ?? '', 10);
  return Number.isInteger(number) ? `${block}:${side}:${number}` : null;
}

/**
 * Highlights every line diff2html drew in `body` from `diffText` as `language`: each child of a line's
 * content (a text node, or the <ins>/<del> of a word diff) keeps its place and gets its share of the
 * tokens. A line whose text is not the one its hunk's side gives (never expected) is highlighted alone.
 */
export function highlightLines(body, language, diffText) {
  const byLine = hunkLineRuns(diffText, language);
  body.querySelectorAll('.d2h-file-wrapper').forEach((block, index) => {
    for (const line of block.querySelectorAll('.d2h-code-line-ctn')) {
      const text = line.textContent;
      if (!text.trim()) continue;
      const carried = byLine.get(lineKey(index, line));
      const runs = carried && carried.map(run => run.text).join('') === text ? carried : highlightRuns(text, language);
      const pieces = [...line.childNodes];
      const cut = cutRuns(runs, pieces.map(node => node.textContent.length));
      pieces.forEach((node, i) => {
        const tokens = cut[i].map(run => (run.scope ? h('span', { class: run.scope }, run.text) : run.text));
        if (node.nodeType === Node.ELEMENT_NODE) node.replaceChildren(...tokens);
        else node.replaceWith(...tokens);
      });
    }
  });
}
