// A file's history: every turn that recorded the path, newest first, each diff opened on demand.
import { api } from '../api.js';
import { h, fill, icon } from '../dom.js';
import { capitalised, changeOf, clock, day, exact, recordReasons, reasonOf, shortId } from '../format.js';
import { turnBadges } from '../listing.js';
import { badgeOf, changeMark, empty, errorState, ignoredGate, kindChip, lineStats, loading, scanBadge, stateChip } from '../ui.js';
import { routes } from '../routes.js';
import { renderDiff } from '../diff.js';
import { subscribe } from '../events.js';
import { newestWins } from '../reload.js';
import { openRewind } from '../rewind.js';

export async function historyView(main, ctx, workspace, path) {
  ctx.crumbs([
    { label: 'Workspaces', href: routes.workspaces() },
    { label: workspace, href: routes.workspace(workspace), mono: true },
    { label: `History of ${path}`, mono: true },
  ]);
  fill(main, loading('Loading the history…'));
  const load = async () => {
    try {
      return await api.history(workspace, path);
    } catch (e) {
      fill(main, errorState(e, () => historyView(main, ctx, workspace, path)));
      return null;
    }
  };
  const entries = await load();
  if (!entries) return null;
  // a finished turn or rewind may have recorded this path: draw the history again (unless the page moved on);
  // so does another process's commit (store_changed: a CLI turn, another service) and a reconnect, after
  // which what was missed is not replayed. The entries the reader opened stay open.
  let shown = true;
  let open = new Set();
  const draw = fresh => {
    if (shown) open = drawHistory(main, workspace, path, fresh, open, reload);
  };
  const reload = newestWins(load, draw);
  draw(entries);
  subscribe({ workspace }, {
    onEvent: name => {
      if (name === 'turn_finished' || name === 'rewind_done') reload();
    },
    onResync: reload,
  });
  return { destroy: () => { shown = false; } };
}

/**
 * Draws the entries, newest first, in place of what the page shows. The newest entry is open when it is new to
 * the page (so on the first draw), and every entry the reader had open (`wasOpen`) stays open. Returns the set of
 * the turns open now, which follows the reader's clicks until the next draw.
 */
function drawHistory(main, workspace, path, entries, wasOpen, reload) {
  const shownBefore = new Set([...main.querySelectorAll('.history-entry')].map(d => d.dataset.turn));
  const opened = new Set();
  const style = () => (localStorage.getItem('turndiff.diffStyle') === 'side' && !matchMedia('(max-width: 860px)').matches ? 'side' : 'unified');
  const items = entries.slice().reverse().map((entry, i) => {
    const record = entry.file;
    const body = h('div', { class: 'history-diff' });
    let loaded = false;
    const openNow = wasOpen.has(entry.turn) || (i === 0 && !shownBefore.has(entry.turn));
    const details = h('details', { class: 'history-entry', open: openNow, dataset: { turn: entry.turn }, ontoggle: () => {
      if (details.open) opened.add(entry.turn);
      else opened.delete(entry.turn);
      if (!details.open || loaded) return;
      loaded = true;
      if (entry.state === 'open') {
        renderDiff(body, { record, open: true });
        return;
      }
      const load = () => {
        fill(body, loading('Loading the diff…'));
        api.fileDiff(entry.turn, record.path)
          .then(r => renderDiff(body, { record, diff: r.diff, style: style() }))
          .catch(e => renderDiff(body, { record, error: e }));
      };
      // a file git ignores (a .env) may hold secrets: its diff waits for the reader's click
      if (record.ignored) fill(body, ignoredGate(load));
      else load();
    } },
    h('summary', null,
      changeMark(record),
      h('span', { class: 'history-turn' }, `Turn ${entry.seq}`),
      kindChip(entry), stateChip(entry),
      h('span', { class: 'muted mono small' }, entry.session),
      h('time', { datetime: entry.began_at, title: exact(entry.began_at), class: 'muted' }, `${day(entry.began_at)} ${clock(entry.began_at)}`),
      h('span', { class: `change-label change-${record.change ?? 'open'}` }, capitalised(changeOf(record).label)),
      record.added || record.removed ? lineStats(record.added, record.removed, { bar: false }) : null,
      record.detected_by === 'scan' ? scanBadge() : null,
      recordReasons(record).map(code => h('span', { class: 'badge badge-warn', title: reasonOf(code).text, dataset: { badge: 'reason', reason: code } }, icon('warn'), reasonOf(code).badge)),
      turnBadges({ ...entry, detected_by_scan: 0, not_restorable: 0 }, shortId).map(badgeOf),
      h('span', { class: 'history-actions' },
        h('a', { class: 'button button-small button-quiet', href: routes.turn(entry.turn, record.path) }, 'Open turn'),
        entry.state !== 'open' && entry.kind === 'agent' && record.restorable && record.change !== 'unchanged'
          ? h('button', { type: 'button', class: 'button button-small', onclick: e => {
            e.preventDefault();
            openRewind({ scope: 'file', turn: entry.turn, seq: entry.seq, path: record.path, pathBase64: record.path_base64, onDone: reload });
          } }, icon('rewind'), 'Rewind file…') : null)),
    body);
    return details;
  });
  fill(main, h('section', { class: 'page page-history' },
    h('header', { class: 'page-head' },
      h('h1', { class: 'mono path-title' }, path),
      h('p', { class: 'muted' }, `Every turn that recorded this path in `, h('code', { class: 'mono' }, workspace), ', newest first.')),
    items.length ? h('div', { class: 'history' }, items) : empty('No turn recorded this path.')));
  // the open entries load their diffs
  items.filter(details => details.open).forEach(details => details.dispatchEvent(new Event('toggle')));
  return opened;
}
