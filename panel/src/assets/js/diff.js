// One file's diff: what diff2html draws (unified or side by side), plus what it does not show and a
// reviewer must see: a state that was not captured and why, binary content, a mode or type change, and a
// missing newline at the end of a file (diff2html drops `\ No newline at end of file`).
import { h, fill, icon } from './dom.js';
import { bytes, count, describeSide, modeText, reasonOf, recordReasons, shortHash, TYPE_NAMES } from './format.js';
import { highlightLines, languageOf, withinHighlightLimit } from './syntax.js';

// The one place an HTML string enters the DOM. diff2html escapes every file name and line it draws (its
// templates are precompiled; the raw-templates option, which would compile templates at run time, is never
// passed: build.mjs refuses it). The CSP requires Trusted Types with this policy name alone.
const policy = globalThis.trustedTypes?.createPolicy('turndiff-diff2html', { createHTML: html => html });
function setDiffHtml(el, html) {
  el.innerHTML = policy ? policy.createHTML(html) : html;
}

const LARGE_LINES = 20_000;

/**
 * The context a reader can ask a diff for (the service's `context` parameter): git's 3 lines, 20 more a
 * click, up to the whole file (the service's bound, more lines than any stored file holds).
 */
export const CONTEXT = { DEFAULT: 3, STEP: 20, WHOLE: 1_000_000 };

/** The query parameters of a file's diff drawn as the reader asked; none for the stored diff. */
export function viewQuery({ hideWhitespace = false, context = CONTEXT.DEFAULT } = {}) {
  return {
    whitespace: hideWhitespace ? 'ignore' : undefined,
    context: context === CONTEXT.DEFAULT ? undefined : context,
  };
}

/** The context after one more "show more lines": STEP more, never past the whole file. */
export function moreContext(context) {
  return Math.min(CONTEXT.WHOLE, context + CONTEXT.STEP);
}

/**
 * A modified file whose content changed, drawn with whitespace ignored and found with no hunk: every
 * line it changed differs in whitespace alone (the service sends the entry's header, no hunk).
 */
export function onlyWhitespaceChanged(record, analysis, hideWhitespace) {
  return hideWhitespace && record.change === 'modified' && !analysis.hunks && !analysis.binary && !analysis.comments.length
    && !!record.before?.sha256 && !!record.after?.sha256 && record.before.sha256 !== record.after.sha256;
}

/** What a stored git-style diff holds, beyond its hunks. */
export function analyse(text) {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const comments = [];
  const kept = [];
  const noEol = [];
  let block = -1;
  let oldLine = 0;
  let newLine = 0;
  let previous = null;
  let hunks = 0;
  let binary = false;
  const modes = {};
  for (const line of lines) {
    if (line.startsWith('# turndiff: ')) {
      comments.push(line.slice('# turndiff: '.length));
      continue;
    }
    kept.push(line);
    if (line.startsWith('diff --git ')) {
      block++;
      previous = null;
    } else if (line.startsWith('@@ ')) {
      const m = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
      if (m) {
        oldLine = Number(m[1]);
        newLine = Number(m[2]);
        hunks++;
      }
      previous = null;
    } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
      binary = true;
    } else if (/^(old|new) mode \d+$/.test(line) || /^(new|deleted) file mode \d+$/.test(line)) {
      const [, which, mode] = /^(old mode|new mode|new file mode|deleted file mode) (\d+)$/.exec(line);
      modes[which] = mode;
    } else if (hunks && line.startsWith('\\')) {
      if (previous) noEol.push({ block: Math.max(block, 0), ...previous });
    } else if (hunks && (line.startsWith(' ') || line.startsWith('-') || line.startsWith('+'))) {
      const c = line[0];
      if (c === ' ') previous = { side: 'both', oldLine: oldLine++, newLine: newLine++ };
      else if (c === '-') previous = { side: 'old', oldLine: oldLine++ };
      else previous = { side: 'new', newLine: newLine++ };
    }
  }
  return { text: kept.length ? kept.join('\n') + '\n' : '', comments, noEol, hunks, binary, modes, lines: kept.length };
}

const IMAGE_NAME = /\.(png|jpe?g|gif|svg)$/i;

/**
 * The sides of a record to show as images: a file named as a PNG, JPEG, GIF or SVG, each side that
 * exists and whose content the store holds (an added file has only its after-state, a deleted one only
 * its before-state). The name only decides whether to ask: the service serves a state as an image only
 * when its bytes are one, and an <img> it refuses shows as not an image.
 */
export function imageSides(record) {
  if (!IMAGE_NAME.test(record.path ?? '')) return [];
  return ['before', 'after'].filter(side => record[side]?.exists && record[side]?.captured && record[side]?.sha256);
}

/**
 * Before and after as images, side by side: each an <img> whose src is the service's raw route, so the
 * browser draws it as an image and never as a document: an SVG's scripts do not run in an <img>, and
 * nothing of its content enters this page (no data: URI, no markup). The pixel size comes from the loaded
 * image itself.
 */
function imageCompare(record, imageUrl, sides) {
  const figure = side => {
    const state = record[side];
    const size = h('span', { class: 'image-size' }, `${bytes(state.size)}`);
    const img = h('img', {
      src: imageUrl(side),
      alt: `${side === 'before' ? 'Before' : 'After'}: ${record.path}`,
      dataset: { side },
      onload: () => {
        size.textContent = `${bytes(state.size)} · ${img.naturalWidth} × ${img.naturalHeight} px`;
        img.dataset.loaded = 'true';
      },
      onerror: () => {
        size.textContent = `${bytes(state.size)} · not shown: the service does not serve it as an image`;
        img.dataset.loaded = 'false';
      },
    });
    return h('figure', { class: 'image-side' },
      h('figcaption', null, h('strong', null, side === 'before' ? 'Before' : 'After'), ' ', size),
      h('div', { class: 'image-frame' }, img));
  };
  return h('div', { class: 'image-compare' }, sides.map(figure));
}

/** Renders a file's diff into `target`. */
export function renderDiff(target, { record, diff, style, open, error, hideWhitespace = false, imageUrl }) {
  const parts = [];
  const reasons = recordReasons(record);
  for (const code of reasons) {
    const reason = reasonOf(code);
    const side = !record.before?.captured && record.before?.reason === code ? record.before : record.after;
    parts.push(notice('warn', `Not captured: ${reason.text}.`, side?.detail));
  }
  if (record.change === 'unknown') {
    parts.push(notice('warn', 'Unknown change: a side was not captured, and nothing known proves what the turn did here. A rewind cannot put it back.', record.detail));
  }
  if (record.via) parts.push(notice('info', `Reached through a link: the tool named ${record.via}.`));
  if (open) {
    parts.push(card('eye', 'The turn is still open', 'Its diff is made when it finishes. Recorded before-state: ' + describeSide(record.before) + '.'));
    parts.push(statesTable(record, { open: true }));
    return fill(target, parts);
  }
  if (error) {
    parts.push(notice('error', `The diff could not be loaded: ${error.message}`));
    return fill(target, parts);
  }
  const a = analyse(diff ?? '');
  for (const comment of a.comments) {
    // the store's own words for an uncaptured side, e.g. "P: before-state not captured (hardlinked): …"
    if (!reasons.length && record.change !== 'unknown') parts.push(notice('warn', comment));
  }
  if (record.change === 'type_changed' && record.before && record.after) {
    parts.push(card('file', `Type changed: ${TYPE_NAMES[record.before.type] ?? record.before.type} → ${TYPE_NAMES[record.after.type] ?? record.after.type}`,
      `Before: ${describeSide(record.before)}. After: ${describeSide(record.after)}. Shown as a delete and an add, as git does.`));
  }
  const oldMode = a.modes['old mode'];
  const newMode = a.modes['new mode'];
  if (oldMode && newMode) {
    parts.push(card('lock', `Mode changed: ${modeText(oldMode.slice(-4))} → ${modeText(newMode.slice(-4))}`,
      a.hunks || a.binary ? 'The content changed too (below).' : 'The content is unchanged.'));
  }
  if (a.binary) {
    const b = record.before;
    const f = record.after;
    parts.push(card('binary', 'Binary file — not shown as text',
      h('span', null, `Before: ${b?.exists ? `${bytes(b.size)}, sha256 ` : 'absent'}`, b?.exists ? h('code', { class: 'mono' }, shortHash(b.sha256)) : null,
        ` · After: ${f?.exists ? `${bytes(f.size)}, sha256 ` : 'absent'}`, f?.exists ? h('code', { class: 'mono' }, shortHash(f.sha256)) : null,
        record.restorable ? ' · the before-state is stored and can be put back.' : '')));
  }
  const images = imageUrl ? imageSides(record) : [];
  if (images.length) parts.push(imageCompare(record, imageUrl, images));
  if (a.noEol.length) {
    const sides = new Set(a.noEol.map(n => n.side));
    const which = sides.has('both') || (sides.has('old') && sides.has('new')) ? 'Neither version ends' : sides.has('old') ? 'The old version does not end' : 'The new version does not end';
    parts.push(notice('info', `${which} with a newline (marked on its last line).`));
  }
  if (record.change === 'unchanged') {
    parts.push(card('check', 'Unchanged', 'The turn recorded this path, and it is as it was.'));
  }
  const body = h('div', { class: 'diff-body' });
  parts.push(body);
  parts.push(statesTable(record, { open: !a.hunks }));
  fill(target, parts);
  if (onlyWhitespaceChanged(record, a, hideWhitespace)) {
    body.append(card('check', 'Only whitespace changed', 'Every line this file changed differs in whitespace alone. Turn off "Hide whitespace" to see them.'));
    body.dataset.onlyWhitespace = 'true';
    return target;
  }
  if (!a.hunks) {
    if (!a.binary && !(oldMode && newMode) && record.change !== 'unchanged' && !a.comments.length && !reasons.length && record.change !== 'type_changed') {
      body.append(card('file', 'No textual difference', record.change === 'added' ? 'An empty file was added.' : record.change === 'deleted' ? 'An empty file was deleted.' : 'Nothing to show.'));
    }
    if (record.change !== 'type_changed') return target;
  }
  const draw = () => {
    const started = performance.now();
    setDiffHtml(body, globalThis.Diff2Html.html(a.text, {
      outputFormat: style === 'side' ? 'side-by-side' : 'line-by-line',
      drawFileList: false,
      matching: 'lines',
      diffStyle: 'word',
      colorScheme: 'auto',
    }));
    body.classList.toggle('show-d2h-headers', record.change === 'type_changed');
    const language = languageOf(record.path);
    if (language && withinHighlightLimit(a)) {
      highlightLines(body, language, a.text);
      body.dataset.language = language;
    }
    markNoEol(body, a.noEol, style);
    body.dataset.renderMs = (performance.now() - started).toFixed(1);
  };
  if (a.lines > LARGE_LINES) {
    body.append(card('file', `A large diff: ${count(a.lines)} lines`, h('button', { type: 'button', class: 'button', onclick: () => { body.replaceChildren(); draw(); } }, 'Show it')));
  } else {
    draw();
  }
  return target;
}

/** The hunk header cells diff2html drew, per block (in side by side, the left side's): where a hunk's controls go. */
export function hunkHeaderCells(block) {
  const scope = block.querySelector('.d2h-file-side-diff') ?? block;
  return [...scope.querySelectorAll('td.d2h-info:not(.d2h-code-linenumber):not(.d2h-code-side-linenumber)')]
    .filter(cell => cell.textContent.trim().startsWith('@@'));
}

/**
 * "N more lines" and "Whole file" on every hunk header: the service draws the diff again with more
 * context, from the states it stored. None once the whole file is shown.
 */
export function addContextButtons(body, context, { onMore, onWhole }) {
  if (context >= CONTEXT.WHOLE) return;
  for (const block of body.querySelectorAll('.d2h-file-wrapper')) {
    for (const cell of hunkHeaderCells(block)) {
      (cell.querySelector('.d2h-code-line, .d2h-code-side-line') ?? cell).append(
        h('button', { type: 'button', class: 'button button-small button-quiet context-more', title: `Show ${CONTEXT.STEP} more lines above and below each change`, onclick: onMore }, `↕ ${CONTEXT.STEP} more lines`),
        h('button', { type: 'button', class: 'button button-small button-quiet context-whole', title: 'Show the whole file around the changes', onclick: onWhole }, 'Whole file'));
    }
  }
}

function markNoEol(body, marks, style) {
  const blocks = body.querySelectorAll('.d2h-file-wrapper');
  for (const mark of marks) {
    const block = blocks[mark.block];
    if (!block) continue;
    const rows = [];
    if (style === 'side') {
      const [left, right] = block.querySelectorAll('.d2h-file-side-diff');
      if (mark.side !== 'new') rows.push(findSideRow(left, mark.oldLine));
      if (mark.side !== 'old') rows.push(findSideRow(right, mark.newLine));
    } else {
      rows.push(findUnifiedRow(block, mark));
    }
    for (const row of rows.filter(Boolean)) {
      const line = row.querySelector('.d2h-code-line-ctn') ?? row.querySelector('.d2h-code-line, .d2h-code-side-line');
      line?.append(h('span', { class: 'no-eol', title: '\\ No newline at end of file' }, 'no newline at end of file'));
    }
  }
}

function findUnifiedRow(block, mark) {
  for (const cell of block.querySelectorAll('.d2h-code-linenumber')) {
    const oldN = cell.querySelector('.line-num1')?.textContent.trim();
    const newN = cell.querySelector('.line-num2')?.textContent.trim();
    const hit = mark.side === 'old' ? oldN === String(mark.oldLine) && !newN
      : mark.side === 'new' ? newN === String(mark.newLine) && !oldN
        : oldN === String(mark.oldLine) && newN === String(mark.newLine);
    if (hit) return cell.parentElement;
  }
  return null;
}

function findSideRow(table, line) {
  if (!table) return null;
  for (const cell of table.querySelectorAll('.d2h-code-side-linenumber')) {
    if (cell.textContent.trim() === String(line)) return cell.parentElement;
  }
  return null;
}

/** Both recorded states side by side: what a reviewer checks when there is no text to diff. */
function statesTable(record, { open }) {
  const sides = [record.before, record.after];
  const yesNo = v => (v === true ? 'yes' : v === false ? 'no' : 'unknown');
  const rows = [
    ['exists', s => (s ? yesNo(s.exists) : '—')],
    ['type', s => (s?.type ? TYPE_NAMES[s.type] ?? s.type : '—')],
    ['size', s => (s?.size !== null && s?.size !== undefined ? bytes(s.size) : '—')],
    ['mode', s => s?.mode ?? '—'],
    ['content', s => (s?.sha256 ? `sha256 ${shortHash(s.sha256)}` : s?.sampled_sha256 ? `sampled ${shortHash(s.sampled_sha256)} (not a content hash)` : '—')],
    ['link text', s => s?.link_target ?? '—'],
    ['captured', s => (!s ? 'not yet' : s.captured ? 'yes' : `no: ${reasonOf(s.reason).badge}`)],
    ['detail', s => s?.detail ?? '—'],
    ['boundary', s => s?.boundary ?? '—'],
  ].filter(([, get]) => sides.some(s => get(s) !== '—'));
  return h('details', { class: 'states', open },
    h('summary', null, 'Recorded states'),
    h('table', null,
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, ''), h('th', { scope: 'col' }, 'Before'), h('th', { scope: 'col' }, 'After'))),
      h('tbody', null, rows.map(([label, get]) => h('tr', null, h('th', { scope: 'row' }, label),
        sides.map(s => h('td', { class: get(s) !== get(sides[0]) || get(s) !== get(sides[1]) ? 'differs' : null }, get(s))))))));
}

export function notice(kind, text, detail) {
  return h('div', { class: `notice notice-${kind}`, role: kind === 'error' ? 'alert' : null },
    icon(kind === 'info' ? 'eye' : 'warn'),
    h('div', null, h('p', null, text), detail ? h('p', { class: 'notice-detail mono' }, detail) : null));
}

function card(iconName, title, text) {
  return h('div', { class: 'diff-card' }, icon(iconName), h('div', null, h('strong', null, title), h('p', null, text)));
}
