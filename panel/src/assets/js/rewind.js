// Rewinding: a turn, a turn and every later one, or one file of a turn. Always the dry run first (nothing
// is written), shown as a plan; the real run only on confirmation, under an operation id made here so that
// a retry after a dropped connection resumes the same operation instead of starting another; then the
// result, with the undo (rewinding the rewind turn) one click away.
import { api } from './api.js';
import { h, fill, icon } from './dom.js';
import { clock, count, FORCEABLE, plural, shortId, skipText } from './format.js';
import { notice, renderDiff } from './diff.js';
import { routes } from './routes.js';

const dialog = () => document.getElementById('rewind-dialog');

function title({ scope, seq, step, undo, hunk }) {
  if (undo) return seq ? `Undo rewind turn ${seq}` : 'Undo this rewind';
  if (scope === 'hunk') return `Rewind hunk ${hunk} of one file of turn ${seq}`;
  if (scope === 'to') return `Rewind to turn ${seq}`;
  if (scope === 'call') return `Rewind turn ${seq} to before step ${step}`;
  if (scope === 'file') return `Rewind one file of turn ${seq}`;
  return `Rewind turn ${seq}`;
}

function explain({ scope, seq, path, step, stepName, undo, hunk }) {
  if (undo) return 'Puts back what the rewind changed: the files as they were just before it ran.';
  if (scope === 'call') {
    return h('span', null, `Puts back the files as they were before step ${step} of turn ${seq} (`, h('code', { class: 'mono' }, stepName),
      '): that step and every later one are rewound; what the earlier steps did stays.');
  }
  if (scope === 'hunk') return h('span', null, `Reverses hunk ${hunk} of `, h('code', { class: 'mono' }, path), ` as turn ${seq} made it, onto the file as it is now. The turn's other hunks and later edits stay; if the hunk's context changed it is left as a conflict.`);
  if (scope === 'to') return `Puts back turn ${seq} and every later turn of the session, newest first: the files as they were before turn ${seq}.`;
  if (scope === 'file') return h('span', null, 'Puts back ', h('code', { class: 'mono' }, path), ` as it was before turn ${seq}. The rest of the turn stays.`);
  return `Puts back every file turn ${seq} changed, as it was before the turn.`;
}

/** The POST /v1/rewind body for a scope (docs/review-panel.md, section 7). */
export function requestOf(options, { dryRun, force, operation }) {
  const body = { turn: options.turn };
  if (options.scope === 'to') body.to = true;
  if (options.scope === 'call') body.before_tool_call = options.call;
  // a name that is not UTF-8 goes as its exact bytes: its display form has \xNN escapes
  if (options.scope === 'file' || options.scope === 'hunk') {
    if (options.pathBase64) body.paths_base64 = [options.pathBase64];
    else body.paths = [options.path];
  }
  if (options.scope === 'hunk') body.hunk = options.hunk;
  if (force) body.force = true;
  if (dryRun) body.dry_run = true;
  if (operation) body.operation = operation;
  return body;
}

export function newOperationId() {
  const random = crypto.getRandomValues(new Uint8Array(8));
  return `panel-${Array.from(random, b => b.toString(16).padStart(2, '0')).join('')}`;
}

/** openRewind({scope: 'turn'|'to'|'file'|'call'|'hunk', turn, seq, path?, pathBase64?, call?, step?, stepName?, hunk?, undo?, onDone?}) */
export function openRewind(options) {
  const d = dialog();
  let force = false;
  let operation = null;
  let busy = false;
  const titleEl = h('h2', { id: 'rewind-title' }, icon(options.undo ? 'undo' : 'rewind'), title(options));
  const body = h('div', { class: 'dialog-body' });
  const footer = h('div', { class: 'dialog-actions' });
  const close = () => {
    if (!busy) d.close();
  };
  fill(d, h('header', { class: 'dialog-head' }, titleEl,
    h('button', { type: 'button', class: 'icon-button', 'aria-label': 'Close', onclick: close }, icon('x'))),
  h('p', { class: 'dialog-lead' }, explain(options)), body, footer);
  d.oncancel = e => {
    if (busy) e.preventDefault();
  };
  if (!d.open) d.showModal();

  async function plan() {
    busy = true;
    fill(body, h('div', { class: 'state state-loading' }, h('span', { class: 'spinner' }), 'Planning (a dry run: nothing is written)…'));
    fill(footer, h('button', { type: 'button', class: 'button', onclick: close }, 'Cancel'));
    let report;
    try {
      report = (await api.rewind(requestOf(options, { dryRun: true, force }))).value;
    } catch (e) {
      busy = false;
      fill(body, notice('error', e.message));
      fill(footer, h('button', { type: 'button', class: 'button', onclick: close }, 'Close'));
      return;
    }
    busy = false;
    const resuming = report.skipped.some(s => s.reason === 'interrupted');
    if (resuming) operation = report.operation;
    const writes = report.restored.length + report.merged.length + report.created_directories.length
      + report.removed_directories.length + report.directory_modes.length;
    const forceable = report.skipped.filter(s => FORCEABLE.has(s.reason));
    fill(body,
      resuming ? notice('warn', `An unfinished rewind (operation ${report.operation}) already covers this turn. Confirming finishes that operation.`) : null,
      planSummary(report, { planned: true }),
      planSections(report, { planned: true }));
    // a rewind that would put nothing back is not offered: the run would only report what it skipped
    const nothing = writes === 0 && !resuming;
    const confirm = h('button', { type: 'button', class: 'button button-danger', disabled: nothing,
      title: nothing ? (report.skipped.length ? 'Nothing can be put back: every path is left, for the reasons listed' : 'Nothing to put back: the files already hold what they held before') : null,
      onclick: () => run() }, icon('rewind'), nothing ? 'Nothing to put back' : `Rewind ${whatItWrites(report)}${force ? ' (forced)' : ''}`);
    fill(footer,
      // a hunk is reversed only where its context matches: never forced
      (forceable.length || force) && options.scope !== 'hunk' ? h('label', { class: 'toggle force', title: 'Overwrite conflicts and unverified files. What they hold now is stored first, so the undo brings it back.' },
        h('input', { type: 'checkbox', checked: force, onchange: e => { force = e.target.checked; plan(); } }),
        `Force: overwrite ${forceText(forceable)} (stored first; the undo brings them back)`) : h('span'),
      h('span', { class: 'spacer' }),
      h('button', { type: 'button', class: 'button', onclick: close }, 'Cancel'),
      confirm);
    confirm.focus();
  }

  async function run() {
    busy = true;
    operation ??= newOperationId();
    fill(body, h('div', { class: 'state state-loading' }, h('span', { class: 'spinner' }), 'Rewinding… ', h('span', { class: 'muted mono small' }, `operation ${operation}`)));
    fill(footer);
    let report;
    try {
      report = (await api.rewind(requestOf(options, { dryRun: false, force, operation }))).value;
    } catch (e) {
      busy = false;
      fill(body, notice('error', `The rewind did not finish: ${e.message}`),
        h('p', { class: 'muted' }, `Trying again resumes operation ${operation}: paths already put back are not written twice.`));
      fill(footer, h('span', { class: 'spacer' }), h('button', { type: 'button', class: 'button', onclick: close }, 'Close'),
        h('button', { type: 'button', class: 'button button-danger', onclick: () => run() }, 'Try again'));
      return;
    }
    busy = false;
    options.onDone?.(report);
    fill(body,
      report.complete ? notice('info', 'Done: every path was put back.') : notice('warn', 'Done, but some paths were skipped: they are listed below with why.'),
      planSummary(report, { planned: false }),
      planSections(report, { planned: false }),
      report.rewind_turn ? h('p', { class: 'muted small' }, 'Recorded as ', h('a', { href: routes.turn(report.rewind_turn), onclick: () => d.close() }, `rewind turn ${shortId(report.rewind_turn)}`),
        ` (operation ${report.operation}). Rewinding it puts back what this rewind changed.`) : null);
    const undo = report.rewind_turn ? h('button', { type: 'button', class: 'button', onclick: () => openRewind({ scope: 'turn', turn: report.rewind_turn, seq: '', undo: true, onDone: options.onDone }) },
      icon('undo'), 'Undo this rewind…') : null;
    fill(footer, h('span', { class: 'spacer' }), undo, h('button', { type: 'button', class: 'button button-primary', onclick: close }, 'Close'));
    (undo ?? footer.lastChild).focus();
  }

  plan();
}

// A button per hunk (issue 22 item 8): each @@ row diff2html drew gets "Rewind hunk N…", N counted from 1 in
// the file as the turn's diff numbers its hunks (the number `turndiff rewind --hunk PATH:N` takes). The
// rewind itself is the usual dialog: its plan first, then the run, then its undo.
/** Adds the buttons to the diff drawn in `body`; `onRewind(n)` opens the rewind of hunk n. */
export function addHunkButtons(body, onRewind) {
  // a type change is drawn as two blocks (a delete and an add): it has no hunk to reverse alone
  const blocks = body.querySelectorAll('.d2h-file-wrapper');
  if (blocks.length !== 1) return;
  // side by side draws each hunk row on both sides: the left side's rows are the hunks
  const scope = blocks[0].querySelector('.d2h-file-side-diff') ?? blocks[0];
  const rows = [...scope.querySelectorAll('td.d2h-info:not(.d2h-code-linenumber):not(.d2h-code-side-linenumber)')]
    .filter(cell => cell.textContent.trim().startsWith('@@'));
  rows.forEach((cell, i) => {
    const n = i + 1;
    (cell.querySelector('.d2h-code-line, .d2h-code-side-line') ?? cell).append(
      h('button', { type: 'button', class: 'button button-small button-quiet hunk-rewind', dataset: { hunk: String(n) },
        title: `Reverse hunk ${n} alone onto the file as it is now: see the plan first`, onclick: () => onRewind(n) },
      icon('rewind'), `Rewind hunk ${n}…`));
  });
}

/** What the force checkbox overrides, counted by reason as the tallies count them: "2 conflicts and 1 unverified". */
function forceText(forceable) {
  const conflicts = forceable.filter(s => s.reason === 'conflict').length;
  const others = new Map();
  for (const s of forceable) if (s.reason !== 'conflict') others.set(s.reason, (others.get(s.reason) ?? 0) + 1);
  const parts = [conflicts ? plural(conflicts, 'conflict') : null, ...[...others].map(([reason, n]) => `${count(n)} ${reason.replaceAll('_', ' ')}`)];
  return parts.filter(Boolean).join(' and ') || plural(0, 'conflict');
}

/** What the confirm button puts back: files, and directories when there are any. */
function whatItWrites(report) {
  const files = report.restored.length + report.merged.length;
  const dirs = report.created_directories.length + report.removed_directories.length + report.directory_modes.length;
  return [files || !dirs ? plural(files, 'file') : null, dirs ? plural(dirs, 'directory', 'directories') : null].filter(Boolean).join(' and ');
}

function planSummary(report, { planned }) {
  const conflicts = report.skipped.filter(s => s.reason === 'conflict').length;
  const others = report.skipped.length - conflicts;
  const dirs = report.created_directories.length + report.removed_directories.length + report.directory_modes.length;
  const item = (n, label, kind) => h('li', { class: ['tally', kind && `tally-${kind}`, n === 0 && 'tally-zero'] }, h('strong', null, count(n)), label);
  const deleted = report.deleted ?? [];
  return h('ul', { class: 'tallies', role: 'list', 'aria-label': planned ? 'The plan' : 'The result' },
    item(report.restored.length - deleted.length, planned ? 'to restore' : 'restored', 'ok'),
    item(deleted.length, planned ? 'to delete' : 'deleted', 'warn'),
    item(report.merged.length, planned ? 'to merge' : 'merged', 'ok'),
    item(conflicts, conflicts === 1 ? 'conflict' : 'conflicts', 'bad'),
    item(others, 'skipped', 'warn'),
    item(dirs, dirs === 1 ? 'directory' : 'directories'),
    item(report.unchanged.length, 'unchanged'));
}

// a section past this many entries draws only the rows in view, as the file list does (filelist.js): a plan
// of 10,000 paths opens as fast as one of 10
const VIRTUAL_FROM = 200;
const PLAN_ROW = 26;
const PLAN_OVERSCAN = 8;

function pathList(paths, render = p => h('code', { class: 'mono' }, p)) {
  if (paths.length >= VIRTUAL_FROM) return virtualList(paths, render);
  return h('ul', { class: 'plan-list', role: 'list' }, paths.map(p => h('li', null, render(p))));
}

/**
 * A long section: one row per entry, only those in view in the DOM, drawn again on scroll and resize (a
 * section opened later has its size then). A row's detail is cut to the row; the row's title holds it whole.
 */
function virtualList(items, render) {
  const rows = h('ul', { class: 'plan-rows', role: 'list' });
  const spacer = h('div', { class: 'plan-spacer' }, rows);
  const box = h('div', { class: 'plan-list plan-virtual', tabindex: '0', dataset: { entries: String(items.length) } }, spacer);
  spacer.style.height = `${items.length * PLAN_ROW}px`;
  let pending = 0;
  const draw = () => {
    pending = 0;
    const top = box.scrollTop;
    const height = box.clientHeight || 260;
    const first = Math.max(0, Math.floor(top / PLAN_ROW) - PLAN_OVERSCAN);
    const last = Math.min(items.length, Math.ceil((top + height) / PLAN_ROW) + PLAN_OVERSCAN);
    rows.style.transform = `translateY(${first * PLAN_ROW}px)`;
    const nodes = [];
    for (let n = first; n < last; n++) {
      const row = h('li', { class: 'plan-row', aria: { setsize: items.length, posinset: n + 1 } }, render(items[n]));
      row.title = row.textContent;
      nodes.push(row);
    }
    rows.replaceChildren(...nodes);
  };
  const schedule = () => {
    pending ||= requestAnimationFrame(draw);
  };
  box.addEventListener('scroll', schedule);
  new ResizeObserver(schedule).observe(box);
  draw();
  return box;
}

// a section is its list at any size: a long one scrolls within its box (.plan-list), never a bare count
function section(titleText, explanation, n, content, { open = true, kind } = {}) {
  if (!n) return null;
  return h('details', { class: ['plan-section', kind && `plan-${kind}`], open },
    h('summary', null, h('strong', null, titleText), h('span', { class: 'count' }, count(n)), explanation ? h('span', { class: 'muted small' }, explanation) : null),
    content);
}

function changedBy(skip) {
  const by = skip.changed_by;
  if (!by) return h('span', { class: 'reason', dataset: { changedBy: '' } }, 'changed outside any turn');
  // the user's own edit, recorded as a turn outside any turn: linked, but no "rewind to here" (a rewind
  // to a turn leaves the user's edits; rewinding this turn by itself puts the edit back out)
  if (by.kind === 'outside') {
    return h('span', { class: 'reason', dataset: { changedBy: by.turn } },
      'changed outside any turn (', h('a', { href: routes.turn(by.turn), onclick: () => dialog().close() }, `turn ${by.seq}`),
      `) at ${clock(by.began_at)}`);
  }
  return h('span', { class: 'reason', dataset: { changedBy: by.turn } },
    'changed by ', h('a', { href: routes.turn(by.turn), onclick: () => dialog().close() }, `turn ${by.seq}`),
    ` at ${clock(by.began_at)} `,
    h('button', { type: 'button', class: 'button button-small button-quiet', title: `Rewind turn ${by.seq} and every later turn of its session: see the plan first`,
      onclick: () => openRewind({ scope: 'to', turn: by.turn, seq: by.seq }) }, 'rewind to here…'));
}

// a rewind to before a step names the paths that go back with it because calls overlapped (the plan's notes)
function togetherSection(report) {
  const notes = Object.entries(report.notes ?? {});
  return section('Rewound together', 'changed while calls ran at the same time: they go back together', notes.length,
    pathList(notes, ([path, note]) => [h('code', { class: 'mono' }, path), h('span', { class: 'detail' }, note)]), { kind: 'warn' });
}

function planSections(report, { planned }) {
  const conflicts = report.skipped.filter(s => s.reason === 'conflict');
  const skipped = report.skipped.filter(s => s.reason !== 'conflict');
  const skipItem = s => [h('code', { class: 'mono' }, s.path), h('span', { class: 'reason' }, skipText(s.reason)), s.detail ? h('span', { class: 'detail' }, s.detail) : null];
  // a conflict says who made it: a later turn (linked, with "rewind to here"), or no turn at all
  const conflictItem = s => [h('code', { class: 'mono' }, s.path), changedBy(s), s.detail ? h('span', { class: 'detail' }, s.detail) : null];
  const dirs = [
    ...report.created_directories.map(p => [planned ? 'to create' : 'created', p]),
    ...report.removed_directories.map(p => [planned ? 'to remove (when empty)' : 'removed', p]),
    ...report.directory_modes.map(p => [planned ? 'mode to put back' : 'mode put back', p]),
  ];
  // files the turn created go: listed apart from those put back as they were
  const deleted = new Set(report.deleted ?? []);
  const restored = report.restored.filter(p => !deleted.has(p));
  return h('div', { class: 'plan' },
    section(planned ? 'To restore' : 'Restored', 'put back exactly as before', restored.length, pathList(restored), { kind: 'ok' }),
    section(planned ? 'To delete' : 'Deleted', planned ? `will delete ${plural(deleted.size, 'file')} the turn created` : 'files the turn created', deleted.size, pathList([...deleted]), { kind: 'warn' }),
    togetherSection(report),
    section('Merged', 'changed since; the turn\'s own hunks are reversed onto your edits, which stay', report.merged.length,
      pathList(report.merged, p => [h('code', { class: 'mono' }, p), mergePreview(p, report.merge_previews?.[p])]), { kind: 'ok' }),
    section('Conflicts', 'changed since, and the turn\'s hunks do not reverse cleanly: left as they are', conflicts.length, pathList(conflicts, conflictItem), { kind: 'bad', open: true }),
    section('Skipped', 'left as they are, with why', skipped.length, pathList(skipped, skipItem), { kind: 'warn' }),
    section('Directories', null, dirs.length, pathList(dirs, ([what, p]) => [h('code', { class: 'mono' }, p), h('span', { class: 'reason' }, what)])),
    section('Unchanged', 'already as before: not written', report.unchanged.length, pathList(report.unchanged), { open: false }));
}

// A file to merge can be previewed (issue 22 item 3): the plan carries, per file, the patch from the file as
// it is now to what the rewind writes there (made by the run's own decision, so it is what the run writes
// if the file does not change before the confirmation). Drawn by the review's own diff view, when opened.
function mergePreview(path, preview) {
  if (!preview) return null; // a result: what was merged is the rewind turn's diff
  const body = h('div', { class: 'merge-preview-body' });
  const toggle = h('details', { class: 'detail merge-preview', dataset: { path } },
    h('summary', null, `preview: ${plural(preview.added, 'line')} added, ${plural(preview.removed, 'line')} removed`), body);
  toggle.addEventListener('toggle', () => {
    if (!toggle.open || body.childElementCount) return;
    renderDiff(body, { record: { change: 'modified' }, diff: preview.patch }); // unified: the dialog is narrow
    if (preview.omitted_lines) {
      body.append(notice('info', `The preview is cut here: ${plural(preview.omitted_lines, 'more line')} not shown.`));
    }
  });
  return toggle;
}
