// Small pieces every view uses: badges, stats, loading and error states, cards.
import { h, icon } from './dom.js';
import { count, reasonOf, changeOf } from './format.js';
import { SCAN_TITLE } from './listing.js';
import { routes } from './routes.js';

export function badge(text, kind, title) {
  return h('span', { class: ['badge', kind && `badge-${kind}`], title }, text);
}

export function reasonBadge(code) {
  const reason = reasonOf(code);
  return h('span', { class: 'badge badge-warn', title: reason.text, dataset: { badge: 'reason', reason: code } }, icon('warn'), reason.badge);
}

export function scanBadge(n) {
  return h('span', { class: 'badge badge-scan', title: SCAN_TITLE, dataset: { badge: 'scan' } },
    icon('shell'), n === undefined ? 'shell' : `${count(n)} by shell`);
}

/** A turn's badge (listing.js turnBadges) as an element; data-badge holds its kind. */
export function badgeOf(item) {
  const dataset = { badge: item.kind };
  if (item.kind === 'rewound') {
    return h('a', { class: 'badge badge-rewound', href: routes.turn(item.turn), title: item.title, dataset }, icon('rewind'), item.text);
  }
  const look = { scan: ['badge-scan', 'shell'], 'not-restorable': ['badge-warn', 'warn'], rewinds: ['badge-rewind', 'undo'], overlap: ['badge-warn', 'warn'], 'finished-by-service': ['badge-warn', 'warn'] }[item.kind];
  return h('span', { class: ['badge', look[0]], title: item.title, dataset }, icon(look[1]), item.text);
}

/** A file's flag (listing.js fileFlags) in a file list row; data-flag holds its kind, data-reason its reason. */
export function flagOf(item) {
  if (item.kind === 'scan') return h('span', { class: 'flag flag-scan', title: item.title, dataset: { flag: 'scan' } }, icon('shell', 'found by the shell scan'));
  if (item.kind === 'reason') {
    return h('span', { class: 'flag flag-warn', title: item.title, dataset: { flag: 'reason', reason: item.code } }, icon('warn', 'not captured'), item.text);
  }
  if (item.kind === 'shared') {
    return h('span', { class: 'flag flag-warn', title: item.title, dataset: { flag: 'shared' } }, icon('warn', 'shared'), item.text);
  }
  // the shell calls a change was made during: their commands (the agent's text) only as text nodes
  if (item.kind === 'call') return h('span', { class: 'flag', title: item.title, dataset: { flag: 'call' } }, item.text);
  if (item.kind === 'ignored') return h('span', { class: 'flag flag-ignored', title: item.title, dataset: { flag: 'ignored' } }, icon('lock', 'ignored by git'), item.text);
  if (item.kind === 'outside') {
    return h('span', { class: 'flag flag-warn', title: item.title, dataset: { flag: 'outside' } }, icon('warn', 'outside any call'), item.text);
  }
  return h('span', { class: 'flag flag-warn', title: item.title, dataset: { flag: item.kind } }, icon('warn', item.text));
}

export function changeMark(record) {
  const c = changeOf(record);
  return h('span', { class: `change change-${record.change ?? 'open'}`, title: c.label, aria: { label: c.label } }, c.letter);
}

export function stateChip(turn) {
  if (turn.state === 'open') return h('span', { class: 'chip chip-open', title: 'The turn is still open: files appear as they are snapshotted' }, h('span', { class: 'pulse' }), 'recording');
  if (turn.state === 'rewound') return h('span', { class: 'chip chip-rewound' }, icon('rewind'), 'rewound');
  return null;
}

export function kindChip(turn) {
  if (turn.kind === 'rewind') return h('span', { class: 'chip chip-kind-rewind' }, icon('undo'), 'rewind');
  // the user's own edits between turns, found at the next turn's begin in a tracked workspace
  if (turn.kind === 'outside') {
    return h('span', { class: 'chip chip-kind-outside', title: OUTSIDE_TITLE }, 'outside any turn');
  }
  return null;
}

const OUTSIDE_TITLE = 'Changes no turn made (your own edits between turns, or a tool with no hooks), found when the next turn began';

/** +12 −3 with a five-block bar, as in a review tool. */
export function lineStats(added, removed, { bar = true } = {}) {
  const total = added + removed;
  const blocks = [];
  if (bar) {
    const green = total ? Math.round((added / total) * 5) : 0;
    const red = total ? Math.min(5 - green, Math.max(removed ? 1 : 0, Math.round((removed / total) * 5))) : 0;
    for (let i = 0; i < 5; i++) blocks.push(h('i', { class: i < green ? 'add' : i < green + red ? 'del' : '' }));
  }
  return h('span', { class: 'lines', title: `${count(added)} lines added, ${count(removed)} removed` },
    h('span', { class: 'added' }, `+${count(added)}`), h('span', { class: 'removed' }, `−${count(removed)}`),
    bar ? h('span', { class: 'bar', aria: { hidden: 'true' } }, blocks) : null);
}

export function loading(text = 'Loading…') {
  return h('div', { class: 'state state-loading', role: 'status' }, h('span', { class: 'spinner' }), text);
}

export function errorState(error, retry) {
  return h('div', { class: 'state state-error', role: 'alert' },
    h('strong', null, error.code ? `${error.code}` : 'Error'),
    h('p', null, error.message ?? String(error)),
    retry ? h('button', { type: 'button', class: 'button', onclick: retry }, 'Try again') : null);
}

export function empty(text) {
  return h('div', { class: 'state state-empty' }, text);
}

/** A list of link cards (workspaces, sessions). */
export function cards(items, card) {
  return h('ul', { class: 'cards', role: 'list' }, items.map(item => {
    const { href, iconName, title, meta, end, dataset } = card(item);
    return h('li', null, h('a', { class: 'card', href, dataset },
      h('span', { class: 'card-icon' }, icon(iconName)),
      h('span', { class: 'card-main' }, h('span', { class: 'card-title mono' }, title), h('span', { class: 'card-meta' }, meta)),
      h('span', { class: 'card-end' }, end)));
  }));
}

export function mono(text, cls) {
  return h('code', { class: ['mono', cls] }, text);
}

/**
 * In place of the diff of a file git ignores (the record's `ignored`): why it is hidden, and the button
 * that shows it. Such a file (a .env) may hold secrets, so its diff is fetched only on the click.
 */
export function ignoredGate(onShow) {
  return h('div', { class: 'diff-card ignored-gate' }, icon('lock'),
    h('div', null,
      h('strong', null, 'Ignored by git: the diff is hidden'),
      h('p', null, 'Git ignores this file, and such files often hold secrets (a .env does). Its diff is loaded only when you ask.'),
      h('p', null, h('button', { type: 'button', class: 'button show-ignored-diff', onclick: onShow }, 'Show diff'))));
}
