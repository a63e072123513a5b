// Reviewing a turn, or a range of turns: the files on the left, one file's diff on the right. Diffs are
// fetched one at a time when a file is selected (and the next one ahead of time), so a 1,000-file turn
// shows its first screen as soon as its records arrive.
import { allTurns, api } from '../api.js';
import { h, fill, icon } from '../dom.js';
import { capitalised, changeOf, clock, count, day, duration, exact, isNotRestorable, plural, recordReasons, shortId } from '../format.js';
import { partRewindOffered, rangeSideTurn, renameLabel, rewindBlocked, toolsText, turnBadges, turnsBetween, withRenames } from '../listing.js';
import { badgeOf, errorState, ignoredGate, kindChip, lineStats, loading, reasonBadge, scanBadge, stateChip, badge } from '../ui.js';
import { routes } from '../routes.js';
import { FileList } from '../filelist.js';
import { addContextButtons, CONTEXT, moreContext, renderDiff, viewQuery } from '../diff.js';
import { subscribe } from '../events.js';
import { addHunkButtons, openRewind } from '../rewind.js';
import { stepsSection } from '../steps.js';
import { markedState, ViewedMarks } from '../viewed.js';

const STYLE_KEY = 'turndiff.diffStyle';
const WHITESPACE_KEY = 'turndiff.hideWhitespace';
const narrow = matchMedia('(max-width: 860px)');

function preferredStyle() {
  return localStorage.getItem(STYLE_KEY) ?? (narrow.matches ? 'unified' : 'side');
}

/** The file shown first: the one the address names, else the first that changed. */
function initialRecord(records, path) {
  return (path && records.find(r => r.path === path)) ?? records.find(r => r.change !== 'unchanged') ?? records[0];
}

/**
 * The shared layout. source: {records, loadDiff(path, view) -> Promise<text> (view: the query of the
 * diff as the reader asked, diff.js viewQuery), imageUrl?(record, side) (a stored state's image), open?,
 * fileActions(record),
 * fileMeta(record), extra(record), viewedScope (whose viewed marks: a turn's or a range's)}.
 */
function reviewLayout(ctx, { head, source, initialPath }) {
  let style = preferredStyle();
  let hideWhitespace = localStorage.getItem(WHITESPACE_KEY) === 'true';
  const contexts = new Map();                 // path -> lines of context the reader asked for
  const revealed = new Set();                 // paths git ignores whose diff the reader asked to see
  const diffs = new Map();                    // path and view -> Promise<string>
  const viewOf = path => viewQuery({ hideWhitespace, context: contexts.get(path) ?? CONTEXT.DEFAULT });
  const first = initialRecord(source.records, initialPath);
  // asked for before the list is drawn: the first screen waits for one round trip, not two
  if (first && !source.open && first.change !== null && !first.ignored) diffOf(first.path);
  let current = null;
  let drawToken = 0;
  const pane = h('section', { class: 'diff-pane', aria: { live: 'polite', busy: 'false' } });
  const layout = h('div', { class: 'review' });
  const marks = new ViewedMarks(localStorage, source.viewedScope);
  const list = new FileList({ onSelect: (record, { user }) => show(record, user), extra: source.extra, viewed: marks });

  const styleButtons = {
    unified: h('button', { type: 'button', class: 'seg', onclick: () => setStyle('unified'), title: 'Unified (u)' }, 'Unified'),
    side: h('button', { type: 'button', class: 'seg', onclick: () => setStyle('side'), title: 'Side by side (s)' }, 'Side by side'),
  };
  function syncStyleButtons() {
    for (const [name, button] of Object.entries(styleButtons)) button.setAttribute('aria-pressed', String(name === style));
  }
  syncStyleButtons();

  const whitespaceBox = h('input', { type: 'checkbox', checked: hideWhitespace, onchange: e => setHideWhitespace(e.target.checked) });

  function diffOf(path) {
    const view = viewOf(path);
    const key = JSON.stringify([path, view.whitespace, view.context]);
    if (!diffs.has(key)) {
      const p = source.loadDiff(path, view);
      p.catch(() => diffs.delete(key));
      diffs.set(key, p);
    }
    return diffs.get(key);
  }

  /** The header's "Viewed" checkbox: a viewed file's diff collapses, and the list ticks it. */
  function viewedToggle(record) {
    const final = markedState(record) !== null;
    return h('label', { class: 'toggle viewed-toggle', title: final ? 'Mark the file viewed: its diff collapses until it changes again (v)' : 'The turn is still open: nothing final to mark' },
      h('input', { type: 'checkbox', checked: marks.has(record), disabled: !final, onchange: e => setViewed(record, e.target.checked) }), 'Viewed');
  }

  function setViewed(record, viewed) {
    marks.set(record, viewed);
    list.viewedChanged();
    if (record === current) {
      pane.classList.toggle('is-viewed', marks.has(record));
      const box = pane.querySelector('.viewed-toggle input');
      if (box) box.checked = marks.has(record);
    }
  }

  async function show(record, user) {
    current = record;
    const token = ++drawToken;
    ctx.replaceQuery({ file: record.path });
    if (user) layout.classList.add('show-diff');
    const c = changeOf(record);
    const header = h('header', { class: 'diff-head' },
      h('button', { type: 'button', class: 'icon-button back-to-files', 'aria-label': 'Back to the files', onclick: () => layout.classList.remove('show-diff') }, icon('back')),
      h('div', { class: 'diff-title' },
        h('h2', { class: 'mono diff-path' }, renameLabel(record, record.path)),
        h('div', { class: 'diff-meta' },
          h('span', { class: `change-label change-${record.change ?? 'open'}` }, capitalised(c.label)),
          record.added || record.removed ? lineStats(record.added, record.removed, { bar: false }) : null,
          source.fileMeta?.(record))),
      h('div', { class: 'diff-tools' },
        h('div', { class: 'segmented', role: 'group', 'aria-label': 'Diff layout' }, styleButtons.unified, styleButtons.side),
        h('label', { class: 'toggle whitespace-toggle', title: 'Hide changes of whitespace alone, as git diff -w (w)' }, whitespaceBox, 'Hide whitespace'),
        viewedToggle(record),
        source.fileActions?.(record)));
    const body = h('div', { class: 'diff-content' }, loading('Loading the diff…'));
    const collapsed = h('div', { class: 'viewed-note muted' }, 'Viewed: the diff is collapsed. ',
      h('button', { type: 'button', class: 'button button-small button-quiet', onclick: () => pane.classList.remove('is-viewed') }, 'Show it'));
    pane.classList.toggle('is-viewed', marks.has(record));
    fill(pane, header, collapsed, body);
    if (user && narrow.matches) pane.scrollIntoView({ block: 'start' });
    if (source.open || record.change === null) {
      renderDiff(body, { record, open: true });
      return;
    }
    // a file git ignores (a .env) may hold secrets: its diff is neither fetched nor drawn until asked for
    if (record.ignored && !revealed.has(record.path)) {
      fill(body, ignoredGate(() => {
        revealed.add(record.path);
        show(record, false);
      }));
      return;
    }
    pane.setAttribute('aria-busy', 'true');
    let diff;
    let error;
    try {
      diff = await diffOf(record.path);
    } catch (e) {
      error = e;
    }
    if (token !== drawToken) return;
    pane.setAttribute('aria-busy', 'false');
    const imageUrl = source.imageUrl && (side => source.imageUrl(record, side));
    renderDiff(body, { record, diff, style: style === 'side' ? 'side' : 'unified', error, hideWhitespace, imageUrl });
    const context = contexts.get(record.path) ?? CONTEXT.DEFAULT;
    addContextButtons(body, context, {
      onMore: () => setContext(record, moreContext(context)),
      onWhole: () => setContext(record, CONTEXT.WHOLE),
    });
    // a hunk's rewind reverses a hunk of the turn's own diff: not one drawn with other context or
    // without whitespace, whose hunks are not the turn's
    if (!hideWhitespace && context === CONTEXT.DEFAULT) source.hunkActions?.(record, body);
    // fetch the next file ahead, so that j shows it at once
    const next = list.shown[list.shown.indexOf(list.selected) + 1];
    if (next !== undefined && list.items[next]?.change !== null && !list.items[next]?.ignored) diffOf(list.items[next].path).catch(() => {});
    if (!document.body.dataset.firstScreen) {
      document.body.dataset.firstScreen = performance.now().toFixed(0);
      performance.mark('turndiff-first-screen');
    }
  }

  function setHideWhitespace(hide) {
    hideWhitespace = hide;
    localStorage.setItem(WHITESPACE_KEY, String(hide));
    whitespaceBox.checked = hide;
    if (current) show(current, false);
  }

  function setContext(record, lines) {
    contexts.set(record.path, lines);
    if (current === record) show(record, false);
  }

  function setStyle(next) {
    if (style === next) return;
    style = next;
    localStorage.setItem(STYLE_KEY, style);
    syncStyleButtons();
    if (current) show(current, false);
  }

  fill(layout, h('aside', { class: 'files-pane', 'aria-label': 'Files' }, list.el), pane);

  function setRecords(records, keepPath) {
    list.setItems(records);
    if (!records.length) {
      fill(pane, h('div', { class: 'state state-empty' }, 'No files recorded yet.'));
      return;
    }
    const want = keepPath ?? current?.path ?? initialPath;
    list.select(Math.max(0, records.indexOf(initialRecord(records, want))));
  }

  return {
    el: h('section', { class: 'page page-review' }, head, layout),
    list,
    setRecords,
    refreshDiffs() {
      diffs.clear();
    },
    onKey(key) {
      if (key === 'j') list.move(1);
      else if (key === 'k') list.move(-1);
      else if (key === 'u') setStyle('unified');
      else if (key === 's') setStyle('side');
      else if (key === '/') list.focusFilter();
      else if (key === 'w') setHideWhitespace(!hideWhitespace);
      else if (key === 'v' && current && markedState(current) !== null) setViewed(current, !marks.has(current));
      else return false;
      return true;
    },
  };
}

// ---- a turn -------------------------------------------------------------------------------------------

export async function turnView(main, ctx, turnId, query) {
  fill(main, loading('Loading the turn…'));
  let turn;
  try {
    turn = await api.turn(turnId);
  } catch (e) {
    fill(main, errorState(e, () => turnView(main, ctx, turnId, query)));
    return null;
  }
  ctx.crumbs([
    { label: 'Workspaces', href: routes.workspaces() },
    { label: turn.workspace, href: routes.workspace(turn.workspace), mono: true },
    { label: turn.session, href: routes.session(turn.session), mono: true },
    { label: `Turn ${turn.seq}` },
  ]);
  const head = h('header', { class: 'review-head' });
  const refresh = async () => {
    try {
      const fresh = await api.turn(turnId);
      const wasOpen = turn.state === 'open';
      turn = fresh;
      drawHead();
      if (wasOpen && turn.state !== 'open') review.refreshDiffs();
      review.setRecords(withRenames(turn.files));
    } catch {
      // the next event or a reload tries again
    }
  };

  const source = {
    get open() {
      return turn.state === 'open';
    },
    get records() {
      return withRenames(turn.files);
    },
    viewedScope: `turn:${turnId}`,
    loadDiff: (path, view) => api.fileDiff(turnId, path, view).then(r => r.diff),
    imageUrl: (record, side) => api.imageUrl(turnId, record.path, side),
    fileMeta: record => [
      record.detected_by === 'scan' ? scanBadge() : null,
      toolsText(record) ? h('span', { class: 'muted small file-tools', title: `The tools that touched this file, in order (calls ${record.tool_calls.join(', ')})` }, toolsText(record)) : null,
      recordReasons(record).map(reasonBadge),
      isNotRestorable(record) ? badge('not restorable', 'warn', 'A rewind cannot put this file back: its before-state was not captured') : null,
    ],
    hunkActions: (record, body) => {
      if (partRewindOffered(turn) && record.change === 'modified' && record.restorable) {
        addHunkButtons(body, hunk => openRewind({ scope: 'hunk', hunk, turn: turn.turn, seq: turn.seq, path: record.path, pathBase64: record.path_base64, onDone: refresh }));
      }
    },
    fileActions: record => [
      h('a', { class: 'button button-small button-quiet', href: routes.history(turn.workspace, record.path), title: 'Every turn that recorded this path' }, icon('history'), 'History'),
      partRewindOffered(turn) ? h('button', { type: 'button', class: 'button button-small', disabled: !record.restorable || record.change === 'unchanged',
        title: record.restorable ? 'Rewind this file of this turn: see the plan first' : 'Not restorable: its before-state was not captured',
        onclick: () => openRewind({ scope: 'file', turn: turn.turn, seq: turn.seq, path: record.path, pathBase64: record.path_base64, onDone: refresh }) }, icon('rewind'), 'Rewind file…') : null,
    ],
  };

  function drawHead() {
    const files = turn.files;
    const added = files.reduce((n, f) => n + f.added, 0);
    const removed = files.reduce((n, f) => n + f.removed, 0);
    const changed = files.filter(f => f.change !== 'unchanged').length;
    const scanned = files.filter(f => f.detected_by === 'scan').length;
    const notRestorable = files.filter(isNotRestorable).length;
    const uncaptured = files.filter(f => recordReasons(f).length).length;
    // a button that would do nothing is disabled, and says why
    const blocked = rewindBlocked(turn, shortId);
    const actions = turn.state === 'open' ? [] : turn.kind === 'rewind'
      ? [h('button', { type: 'button', class: 'button', title: blocked, disabled: !!blocked, onclick: () => openRewind({ scope: 'turn', turn: turn.turn, seq: turn.seq, undo: true, onDone: refresh }) }, icon('undo'), 'Undo this rewind…')]
      : [h('button', { type: 'button', class: 'button', title: blocked, disabled: !!blocked, onclick: () => openRewind({ scope: 'turn', turn: turn.turn, seq: turn.seq, onDone: refresh }) }, icon('rewind'), 'Rewind turn…'),
        h('button', { type: 'button', class: 'button button-quiet', onclick: () => openRewind({ scope: 'to', turn: turn.turn, seq: turn.seq, onDone: refresh }) }, 'Rewind to here…')];
    fill(head,
      h('div', { class: 'review-title' },
        h('h1', null, `Turn ${turn.seq}`), kindChip(turn), stateChip(turn),
        h('span', { class: 'muted mono small', title: 'Turn id' }, turn.turn)),
      h('div', { class: 'review-meta' },
        h('time', { datetime: turn.began_at, title: exact(turn.began_at) }, `${day(turn.began_at)} ${clock(turn.began_at)}`),
        turn.finished_at ? h('span', { class: 'muted' }, `took ${duration(turn.began_at, turn.finished_at)}`) : null,
        h('span', null, turn.state === 'open' ? `${plural(files.length, 'file')} so far` : changed === files.length ? plural(files.length, 'file') : `${plural(changed, 'file')} changed of ${count(files.length)}`),
        turn.state === 'open' ? null : lineStats(added, removed),
        scanned ? scanBadge(scanned) : null,
        uncaptured ? badge(`${count(uncaptured)} not captured`, 'warn', 'Paths recorded with metadata only: see each file for why') : null,
        notRestorable ? badge(`${count(notRestorable)} not restorable`, 'warn', 'A rewind cannot put these back') : null,
        turnBadges({ ...turn, detected_by_scan: 0, not_restorable: 0 }, shortId).map(badgeOf)),
      h('div', { class: 'review-actions' }, actions),
      turn.state !== 'open' && turn.kind === 'agent' ? stepsSection(turn, refresh) : null);
  }

  drawHead();
  const review = reviewLayout(ctx, { head, source, initialPath: query.get('file') });
  fill(main, review.el);
  review.setRecords(withRenames(turn.files));

  subscribe({ session: turn.session }, {
    onEvent: (name, data) => {
      if (name === 'file_snapshotted' && data.turn === turnId && turn.state === 'open') {
        const known = new Set(turn.files.map(f => f.path));
        turn.files = turn.files.concat(data.files.filter(f => !known.has(f.path)))
          .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        drawHead();
        review.setRecords(withRenames(turn.files));
      } else if ((name === 'turn_finished' && data.turn === turnId) || name === 'rewind_done') {
        refresh();
      }
    },
    onResync: refresh,
  });
  return { onKey: key => review.onKey(key) };
}

// ---- a range of turns ---------------------------------------------------------------------------------

export async function rangeView(main, ctx, from, to, query) {
  fill(main, loading('Loading the range…'));
  let range;
  let listing;
  try {
    range = await api.range(from, to);
    listing = await allTurns(range.session);
  } catch (e) {
    fill(main, errorState(e, () => rangeView(main, ctx, from, to, query)));
    return null;
  }
  const seqs = new Map(listing.turns.map(t => [t.turn, t]));
  const label = id => (seqs.has(id) ? `#${seqs.get(id).seq}` : shortId(id));
  const first = seqs.get(range.from);
  const last = seqs.get(range.to);
  const inRange = turnsBetween(listing.turns, range.from, range.to);
  ctx.crumbs([
    { label: 'Workspaces', href: routes.workspaces() },
    listing.workspace ? { label: listing.workspace, href: routes.workspace(listing.workspace), mono: true } : null,
    { label: range.session, href: routes.session(range.session), mono: true },
    { label: `Turns ${label(range.from)} → ${label(range.to)}` },
  ].filter(Boolean));
  const files = range.files;
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const head = h('header', { class: 'review-head' },
    h('div', { class: 'review-title' },
      h('h1', null, `Turns ${label(range.from)} → ${label(range.to)}`),
      h('span', { class: 'muted' }, `${plural(inRange.length, 'turn')}: each file from its first before-state to its last after-state`)),
    h('div', { class: 'review-meta' },
      first ? h('time', { datetime: first.began_at, title: exact(first.began_at) }, `${day(first.began_at)} ${clock(first.began_at)}`) : null,
      last?.finished_at ? h('span', { class: 'muted' }, `to ${clock(last.finished_at)}`) : null,
      h('span', null, plural(files.length, 'file')),
      lineStats(added, removed),
      inRange.map(t => h('a', { class: 'chip chip-link', href: routes.turn(t.turn), title: t.turn }, `#${t.seq}`))));
  const source = {
    records: files,
    viewedScope: `range:${range.from}..${range.to}`,
    loadDiff: (path, view) => api.rangeFile(range.from, range.to, path, view).then(r => r.diff),
    imageUrl: (record, side) => api.imageUrl(rangeSideTurn(record, side), record.path, side),
    extra: record => (record.turns.length > 1 ? h('span', { class: 'flag flag-turns', title: `Changed in turns ${record.turns.map(label).join(', ')}` }, `×${record.turns.length}`) : null),
    fileMeta: record => h('span', { class: 'muted small' }, 'in ', record.turns.map((id, i) => [i ? ', ' : '', h('a', { href: routes.turn(id, record.path) }, label(id))])),
    fileActions: record => [
      listing.workspace ? h('a', { class: 'button button-small button-quiet', href: routes.history(listing.workspace, record.path) }, icon('history'), 'History') : null,
    ],
  };
  const review = reviewLayout(ctx, { head, source, initialPath: query.get('file') });
  fill(main, review.el);
  review.setRecords(files);
  subscribe({ session: range.session }, {});
  return { onKey: key => review.onKey(key) };
}
