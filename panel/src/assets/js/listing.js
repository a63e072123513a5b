// What the listings say, as data: the badges of a turn in the timeline, the flags of a file in a turn's
// list, the order of workspaces and sessions, the turns of a range. No DOM here, so node --test checks it;
// the views turn each item into an element (ui.js: badgeOf, flagOf) and keep its `kind` in data-badge.
import { count, isNotRestorable, plural, reasonOf, recordReasons } from './format.js';

export const SCAN_TITLE = 'Changed by a shell command: no tool announced it; the finish scan of the tracked workspace found it';

/** "3 files", "2 files changed of 5", or "4 files so far" while the turn is open. */
export function fileCountText(turn) {
  if (turn.state === 'open') return `${plural(turn.files, 'file')} so far`;
  return turn.files === turn.changed ? plural(turn.files, 'file') : `${plural(turn.changed, 'file')} changed of ${count(turn.files)}`;
}

/** What happened to the runtime of a turn the service finished, by its reason (model TurnEnding). */
const GONE_RUNTIME = {
  'runtime gone': 'the runtime exited without its Stop hook',
  'session ended': "the session ended before the turn's Stop hook",
};

/**
 * The badges of a turn, in the order the timeline shows them: finished by turndiff (its runtime was gone),
 * found by the shell scan, not restorable,
 * what a rewind turn rewound, the other sessions that were working at the same time ("while session B
 * was working"), and each finished rewind that rewound this turn (or some of its files).
 * label(turnId) names another turn ('#4' when its number is known). Each: {kind, text, title, turn?}.
 */
export function turnBadges(turn, label) {
  const badges = [];
  // a turn the service finished because its runtime was gone (GET …/turns: finished_by, reason): what the runtime did
  // after its last hook call was taken from the workspace, not announced
  if (turn.finished_by === 'service') {
    badges.push({ kind: 'finished-by-service', text: `finished by turndiff: ${turn.reason}`,
      title: `Finished by turndiff: ${GONE_RUNTIME[turn.reason] ?? turn.reason}` });
  }
  if (turn.detected_by_scan) badges.push({ kind: 'scan', text: `${count(turn.detected_by_scan)} by shell`, title: SCAN_TITLE });
  if (turn.not_restorable) {
    badges.push({ kind: 'not-restorable', text: `${count(turn.not_restorable)} not restorable`,
      title: 'Files whose before-state was not captured: a rewind cannot put them back' });
  }
  if (turn.rewinds) {
    const files = turn.rewinds.paths ? ` (${plural(turn.rewinds.paths.length, 'file')})` : '';
    badges.push({ kind: 'rewinds', text: `rewind of ${turn.rewinds.turns.map(label).join(', ')}${files}`,
      title: `Operation ${turn.rewinds.operation}` });
  }
  const others = sessionsOf(turn.overlapping);
  if (others.length) {
    badges.push({ kind: 'overlap', text: `while ${others.map(s => `session ${s}`).join(', ')} ${others.length > 1 ? 'were' : 'was'} working`,
      title: `Turns of other sessions open in this workspace at the same time: ${turn.overlapping.map(o => `${o.turn} (${o.session})`).join(', ')}. A change the shell made then is recorded in each turn that could have made it` });
  }
  for (const by of turn.rewound_by ?? []) {
    if (!by.rewind_turn) continue;
    const what = turn.kind === 'rewind' ? 'undone' : by.paths ? `${plural(by.paths.length, 'file')} rewound` : 'rewound';
    // an undone rewind stays in the history, naming its undo: the turn's changes are back
    const undone = by.undone_by ? `, undone by ${label(by.undone_by)}` : '';
    badges.push({ kind: 'rewound', turn: by.rewind_turn,
      text: `${what} by ${label(by.rewind_turn)}${by.complete ? '' : ' (partly)'}${undone}`,
      title: `Operation ${by.operation}${by.paths ? `: ${by.paths.join(', ')}` : ''}${by.complete ? '' : ' — some paths were skipped'}${by.undone_by ? ' — since undone: its changes are back' : ''}` });
  }
  return badges;
}

/**
 * Why rewinding the turn (or, for a rewind turn, undoing it) would do nothing, or null when it would
 * do something: a turn rewound completely, by a rewind that still stands, was put back already — its
 * changes come back by undoing that rewind; a rewind that skipped something may be run again (forced).
 */
export function rewindBlocked(turn, label) {
  if (turn.state !== 'rewound') return null;
  const standing = (turn.rewound_by ?? []).filter(by => !by.paths && !by.undone_by).at(-1);
  if (!standing || !standing.complete) return null;
  return turn.kind === 'rewind'
    ? `Already undone by ${label(standing.rewind_turn)}: undo that to redo this rewind`
    : `Already rewound by ${label(standing.rewind_turn)}: its changes are not in the files; undo that rewind to bring them back`;
}

/**
 * Whether a turn offers a rewind of one file or one hunk: a finished turn an agent made, and an outside turn
 * too (the user's own edits between turns, recorded when the next turn began), whose files the server
 * rewinds one at a time exactly as an agent turn's. Not an open turn (its files are still changing), nor a
 * rewind turn (it is undone as a whole).
 */
export function partRewindOffered(turn) {
  return turn.state !== 'open' && (turn.kind === 'agent' || turn.kind === 'outside');
}

/** The sessions of a list of {turn, session}, each once, in order. */
function sessionsOf(turns) {
  return [...new Set((turns ?? []).map(t => t.session))];
}

/**
 * The flags of a file in a turn's (or a range's) list: found by the shell scan, ignored by git, shared with the turns of
 * other sessions that could also have made it, the shell calls it was made during (or outside any call), then one per reason a
 * state was not captured, else "not restorable" when it cannot be put back. Each: {kind, code?, text, title}.
 */
export function fileFlags(record) {
  const flags = [];
  if (record.detected_by === 'scan') flags.push({ kind: 'scan', text: 'shell', title: 'Found by the shell scan: no tool announced it' });
  if (record.ignored) {
    flags.push({ kind: 'ignored', text: 'ignored by git',
      title: 'Git ignores this file: it may hold secrets (a .env does), so its diff is shown only when you ask' });
  }
  const also = record.also_possible ?? [];
  if (also.length) {
    flags.push({ kind: 'shared', text: `shared with ${sessionsOf(also).map(s => `session ${s}`).join(', ')}`,
      title: `Also possible: ${also.map(o => `turn ${o.turn} of session ${o.session}`).join(', ')} — the shell changed it while they were open too; a rewind leaves it unless forced` });
  }
  const calls = record.calls ?? [];
  if (record.made_during === 'calls' && calls.length) {
    const callText = c => `${c.tool ?? 'tool'} call ${c.id}${c.command ? `: ${c.command}` : ''}`;
    flags.push({ kind: 'call', text: `during ${calls.map(c => c.tool ?? 'tool').join(' and ')}`,
      title: `Made while ${calls.length > 1 ? 'these calls were' : 'this call was'} running: ${calls.map(callText).join('; ')}` });
  } else if (record.made_during === 'outside') {
    flags.push({ kind: 'outside', text: 'outside any call',
      title: 'Changed while no tool call of any open turn was running (the user\'s, e.g. an editor\'s save): a rewind of this turn leaves it unless forced' });
  }
  const reasons = recordReasons(record);
  for (const code of reasons) flags.push({ kind: 'reason', code, text: reasonOf(code).badge, title: reasonOf(code).text });
  if (!reasons.length && isNotRestorable(record)) flags.push({ kind: 'not-restorable', text: 'not restorable', title: 'cannot be put back' });
  return flags;
}

/** Newest first by `last_turn_at` (else `created_at`); a list without any keeps its order. */
export function newestFirst(items) {
  const key = item => item.last_turn_at ?? item.created_at ?? '';
  return items.slice().sort((a, b) => key(b).localeCompare(key(a)));
}

/** The turns of a listing from `from` to `to` (by their numbers, both included); none if either is unknown. */
export function turnsBetween(turns, from, to) {
  const first = turns.find(t => t.turn === from);
  const last = turns.find(t => t.turn === to);
  if (!first || !last) return [];
  return turns.filter(t => t.seq >= first.seq && t.seq <= last.seq);
}

/**
 * The steps of a turn, for "rewind to before this step" (docs/review-panel.md, section 7): its tool calls in
 * the order the turn recorded them (`calls` of GET /v1/turns/{t}), each {call, number, files, overlapped,
 * rewindable}. `files`: the paths attributed to the call. `overlapped`: the calls a change was made during
 * together with this one (shell calls in flight at once): their part of such a change goes back with the
 * later of them. `rewindable`: a rewind to before it puts something back, as the service selects (a change
 * made during a call of the turn goes back when one of its calls is this one or a later one); a change made
 * outside any call, or while no watcher told the calls apart, is never a step's: the plan names it, left.
 */
export function turnSteps(turn) {
  const calls = turn.calls ?? [];
  const order = new Map(calls.map((call, index) => [call.id, index]));
  const steps = calls.map((call, index) => ({ call, number: index + 1, files: [], overlapped: [], rewindable: false }));
  for (const file of turn.files ?? []) {
    if (file.made_during !== 'named' && file.made_during !== 'calls') continue;
    const mine = (file.tool_calls ?? []).filter(id => order.has(id)).map(id => order.get(id));
    for (const index of mine) steps[index].files.push(file.path);
    if (file.made_during === 'calls') {
      for (const index of mine) {
        for (const other of mine) {
          if (other !== index && !steps[index].overlapped.includes(other + 1)) steps[index].overlapped.push(other + 1);
        }
      }
    }
    // a path the turn left as it found it has nothing to put back
    const last = file.change === 'unchanged' ? -1 : Math.max(-1, ...mine);
    for (let index = 0; index <= last; index++) steps[index].rewindable = true;
  }
  for (const step of steps) step.overlapped.sort((a, b) => a - b);
  return steps;
}

/**
 * A turn's records with each rename as one entry (docs/review-panel.md): the old path's record (`renamed_to`)
 * is left out, the new path's (`renamed_from`) stays, labelled `old → new (N%)`; every other record as it is.
 */
export function withRenames(records) {
  return records.filter(r => !r.renamed_to);
}

/** How a file is named in the list and the tree: `name`, or for a rename `old → name (N%)`. */
export function renameLabel(record, name) {
  return record.renamed_from ? `${record.renamed_from} → ${name} (${record.similarity}%)` : name;
}

/**
 * The tools that touched a file, in the order the turn recorded them (`Write, Bash: sed -i …`); '' when no
 * tool call is known for it.
 */
export function toolsText(record) {
  return (record.tools ?? []).join(', ');
}

/**
 * The folder tree of a file list (docs/review-panel.md, section 9): the records `indices` name, as rows of a
 * tree, folders first and then files, each level by name; a folder with one folder in it and no file is one
 * row (`src/main/java`, as GitHub draws it). Returns {rows, files}: rows are {kind: 'dir', path, name, depth,
 * files, collapsed} or {kind: 'file', index, name, depth}; a folder in `collapsed` (by path) keeps its row and
 * hides what is under it; `files` are the indices of the file rows shown, in their order (what j and k walk).
 */
export function fileTree(records, indices, collapsed = new Set()) {
  const root = { dirs: new Map(), files: [], count: 0 };
  for (const index of indices) {
    const parts = records[index].path.split('/');
    let node = root;
    node.count++;
    for (const part of parts.slice(0, -1)) {
      if (!node.dirs.has(part)) node.dirs.set(part, { dirs: new Map(), files: [], count: 0 });
      node = node.dirs.get(part);
      node.count++;
    }
    node.files.push({ index, name: parts[parts.length - 1] });
  }
  const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const rows = [];
  const files = [];
  const walk = (node, prefix, depth) => {
    for (const name of [...node.dirs.keys()].sort(byName)) {
      let dir = node.dirs.get(name);
      let label = name;
      while (dir.files.length === 0 && dir.dirs.size === 1) {
        const [only, inner] = [...dir.dirs][0];
        label = `${label}/${only}`;
        dir = inner;
      }
      const path = prefix + label;
      const shut = collapsed.has(path);
      rows.push({ kind: 'dir', path, name: label, depth, files: dir.count, collapsed: shut });
      if (!shut) walk(dir, `${path}/`, depth + 1);
    }
    for (const file of node.files.slice().sort((a, b) => byName(a.name, b.name))) {
      rows.push({ kind: 'file', index: file.index, name: renameLabel(records[file.index], file.name), depth });
      files.push(file.index);
    }
  };
  walk(root, '', 0);
  return { rows, files };
}

/**
 * The turn whose stored state is a range record's side: a range shows each file from its first
 * before-state to its last after-state, and its record lists the turns that recorded the file, oldest
 * first, so the before-state is the first turn's and the after-state the last one's. The turn's own raw
 * route serves it (one route for every view that shows an image: docs/review-panel.md).
 */
export function rangeSideTurn(record, side) {
  return side === 'before' ? record.turns[0] : record.turns.at(-1);
}
