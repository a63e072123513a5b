// A session's turns as a timeline, newest first: time, files, lines, what the shell changed, what cannot
// be put back, and which rewind put a turn back. Live: new turns appear and open ones finish in place.
import { allTurns } from '../api.js';
import { h, fill, icon } from '../dom.js';
import { clock, day, duration, exact, plural, shortId } from '../format.js';
import { fileCountText, rewindBlocked, turnBadges } from '../listing.js';
import { badgeOf, empty, errorState, kindChip, lineStats, loading, stateChip } from '../ui.js';
import { routes } from '../routes.js';
import { subscribe } from '../events.js';
import { openRewind } from '../rewind.js';

export async function timelineView(main, ctx, session) {
  fill(main, loading('Loading turns…'));
  let page;
  let selected = 0;
  const fetchPage = async () => {
    try {
      return await allTurns(session);
    } catch (e) {
      fill(main, errorState(e, () => timelineView(main, ctx, session)));
      return null;
    }
  };
  page = await fetchPage();
  if (!page) return null;

  const list = h('ol', { class: 'timeline', role: 'list' });
  const rangeForm = h('form', { class: 'range-form', onsubmit: e => {
    e.preventDefault();
    const from = rangeForm.elements.from.value;
    const to = rangeForm.elements.to.value;
    if (from && to) location.hash = routes.range(from, to);
  } });
  const head = h('header', { class: 'page-head' });

  const bySeq = () => new Map(page.turns.map(t => [t.turn, t.seq]));
  const seqLabel = (seqs, id) => (seqs.has(id) ? `#${seqs.get(id)}` : shortId(id));

  function drawHead() {
    const turns = page.turns;
    const added = turns.reduce((n, t) => n + t.lines_added, 0);
    const removed = turns.reduce((n, t) => n + t.lines_removed, 0);
    ctx.crumbs([
      { label: 'Workspaces', href: routes.workspaces() },
      page.workspace ? { label: page.workspace, href: routes.workspace(page.workspace), mono: true } : null,
      { label: session, mono: true },
    ].filter(Boolean));
    const options = selectedSeq => turns.map(t => h('option', { value: t.turn, selected: t.seq === selectedSeq }, `#${t.seq} · ${clock(t.began_at)}${t.kind === 'rewind' ? ' · rewind' : t.kind === 'outside' ? ' · outside any turn' : ''}`));
    fill(rangeForm,
      h('span', { class: 'range-label' }, icon('range'), 'Compare'),
      h('label', null, h('span', { class: 'visually-hidden' }, 'From turn'), h('select', { name: 'from' }, options(turns[0]?.seq))),
      h('span', { class: 'muted', aria: { hidden: 'true' } }, '→'),
      h('label', null, h('span', { class: 'visually-hidden' }, 'To turn'), h('select', { name: 'to' }, options(turns.at(-1)?.seq))),
      h('button', { type: 'submit', class: 'button' }, 'Show range'));
    fill(head,
      h('div', { class: 'page-head-row' },
        h('div', null,
          h('h1', { class: 'mono' }, session),
          h('p', { class: 'muted' }, plural(turns.length, 'turn'), ' · ', lineStats(added, removed, { bar: false }),
            turns[0] ? [' · began ', h('time', { datetime: turns[0].began_at, title: exact(turns[0].began_at) }, `${day(turns[0].began_at)} ${clock(turns[0].began_at)}`)] : null)),
        turns.length > 1 ? rangeForm : null));
  }

  function turnRow(t, seqs, index) {
    const actions = [];
    // a button that would do nothing is disabled, and says why
    const blocked = rewindBlocked(t, id => seqLabel(seqs, id));
    if (t.state !== 'open') {
      if (t.kind === 'rewind') {
        actions.push(h('button', { type: 'button', class: 'button button-small', title: blocked ?? 'Put back what this rewind changed', disabled: !!blocked,
          onclick: () => openRewind({ scope: 'turn', turn: t.turn, seq: t.seq, undo: true, onDone: refresh }) }, icon('undo'), 'Undo…'));
      } else {
        actions.push(h('button', { type: 'button', class: 'button button-small', title: blocked ?? 'Rewind this turn: see the plan first', disabled: !!blocked,
          onclick: () => openRewind({ scope: 'turn', turn: t.turn, seq: t.seq, onDone: refresh }) }, icon('rewind'), 'Rewind…'));
        if (index > 0) {
          actions.push(h('button', { type: 'button', class: 'button button-small button-quiet', title: 'Rewind this turn and every later one: see the plan first',
            onclick: () => openRewind({ scope: 'to', turn: t.turn, seq: t.seq, onDone: refresh }) }, 'to here…'));
        }
      }
    }
    return h('li', { class: ['turn-row', `turn-${t.state}`, t.kind === 'rewind' && 'turn-kind-rewind', t.kind === 'outside' && 'turn-kind-outside', index === selected && 'selected'],
      dataset: { turn: t.turn, seq: t.seq, state: t.state, kind: t.kind } },
      h('div', { class: 'turn-time' },
        h('time', { datetime: t.began_at, title: exact(t.began_at) }, clock(t.began_at)),
        h('span', { class: 'muted small' }, day(t.began_at))),
      h('div', { class: 'turn-rail', aria: { hidden: 'true' } }, h('span', { class: 'dot' })),
      h('div', { class: 'turn-body' },
        h('div', { class: 'turn-title' },
          h('a', { href: routes.turn(t.turn), class: 'turn-link' }, `Turn ${t.seq}`),
          kindChip(t), stateChip(t),
          h('span', { class: 'muted mono small', title: t.turn }, t.turn)),
        // the first line of the prompt that made the turn, when the store kept it: text, never markup
        t.title ? h('div', { class: 'turn-prompt', title: t.title }, t.title) : null,
        h('div', { class: 'turn-stats' },
          h('span', { class: 'turn-files' }, fileCountText(t)),
          t.state === 'open' ? null : lineStats(t.lines_added, t.lines_removed),
          t.state !== 'open' && t.finished_at ? h('span', { class: 'muted small' }, `took ${duration(t.began_at, t.finished_at)}`) : null,
          turnBadges(t, id => seqLabel(seqs, id)).map(badgeOf)),
      ),
      h('div', { class: 'turn-actions' }, actions));
  }

  function drawRows() {
    const seqs = bySeq();
    const newestFirst = page.turns.slice().reverse();
    selected = Math.min(selected, Math.max(0, newestFirst.length - 1));
    fill(list, newestFirst.length ? newestFirst.map((t, i) => turnRow(t, seqs, i)) : empty('No turns in this session yet.'));
  }

  async function refresh() {
    const fresh = await fetchPage();
    if (!fresh) return;
    page = fresh;
    drawHead();
    drawRows();
  }

  drawHead();
  drawRows();
  fill(main, h('section', { class: 'page page-timeline' }, head, list));

  subscribe({ session }, {
    onEvent: (name, data) => {
      if (name === 'turn_begun' && data.session === session) {
        page.turns.push({ ...data, files: 0, changed: 0, lines_added: 0, lines_removed: 0, not_restorable: 0, detected_by_scan: 0, rewound_by: [], rewinds: null });
        drawHead();
        drawRows();
        list.firstElementChild?.classList.add('arrived');
      } else if (name === 'file_snapshotted') {
        const t = page.turns.find(x => x.turn === data.turn);
        if (!t) return;
        t.files += data.files.length;
        t.changed += data.files.length;
        drawRows();
      } else if (name === 'turn_finished' || name === 'rewind_done') {
        refresh();
      }
    },
    onResync: refresh,
  });

  function select(i) {
    const rows = list.querySelectorAll('.turn-row');
    if (!rows.length) return;
    selected = Math.max(0, Math.min(rows.length - 1, i));
    rows.forEach((r, n) => r.classList.toggle('selected', n === selected));
    rows[selected].scrollIntoView({ block: 'nearest' });
  }
  return {
    onKey(key) {
      if (key === 'j') select(selected + 1);
      else if (key === 'k') select(selected - 1);
      else if (key === 'Enter') list.querySelectorAll('.turn-row')[selected]?.querySelector('.turn-link')?.click();
      else return false;
      return true;
    },
  };
}
