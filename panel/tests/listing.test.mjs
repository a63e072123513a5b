import assert from 'node:assert/strict';
import { test } from 'node:test';
import { built } from './built.mjs';

const { fileCountText, fileFlags, fileTree, newestFirst, partRewindOffered, rangeSideTurn, renameLabel, rewindBlocked, toolsText, turnBadges, turnSteps, turnsBetween, withRenames } = await built('assets/js/listing.js');

// a turn as GET /v1/sessions/{s}/turns lists it (docs/review-panel.md, section 5)
const turn = extra => ({
  turn: 'turn-2', session: 's1', seq: 2, kind: 'agent', state: 'finished', began_at: '2026-11-30T13:13:48.112Z',
  finished_at: '2026-11-30T13:13:50.000Z', files: 3, changed: 3, lines_added: 4, lines_removed: 1,
  not_restorable: 0, detected_by_scan: 0, rewound_by: [], rewinds: null, ...extra,
});
const seq = { 'turn-1': 1, 'turn-2': 2, 'turn-5': 5, 'turn-6': 6 };
const label = id => (id in seq ? `#${seq[id]}` : id);

test('a turn no rewind touched, with nothing found by the shell and everything restorable, has no badge', () => {
  assert.deepEqual(turnBadges(turn(), label), []);
});

test('the shell scan and the files that cannot be put back each get a badge with their count', () => {
  const badges = turnBadges(turn({ detected_by_scan: 2, not_restorable: 1234 }), label);
  assert.deepEqual(badges.map(b => b.kind), ['scan', 'not-restorable']);
  assert.equal(badges[0].text, '2 by shell');
  assert.match(badges[0].title, /shell command/);
  assert.equal(badges[1].text, `${(1234).toLocaleString()} not restorable`);
});

test('a turn the service finished because its runtime was gone says so, with what happened to the runtime', () => {
  const gone = turnBadges(turn({ finished_by: 'service', reason: 'runtime gone' }), label);
  assert.deepEqual(gone.map(b => [b.kind, b.text]), [['finished-by-service', 'finished by turndiff: runtime gone']]);
  assert.equal(gone[0].title, 'Finished by turndiff: the runtime exited without its Stop hook');
  const ended = turnBadges(turn({ finished_by: 'service', reason: 'session ended' }), label);
  assert.match(ended[0].title, /session ended before the turn's Stop hook/);
});

test('each finished rewind of the turn is a link to its rewind turn, named by its number, oldest first', () => {
  const badges = turnBadges(turn({
    state: 'rewound',
    rewound_by: [
      { operation: 'op-one', rewind_turn: 'turn-5', paths: ['a.txt'], complete: true },
      { operation: 'op-whole', rewind_turn: 'turn-6', paths: null, complete: false },
      { operation: 'op-gone', rewind_turn: null, paths: null, complete: true },
    ],
  }), label);
  assert.deepEqual(badges.map(b => [b.kind, b.turn, b.text]), [
    ['rewound', 'turn-5', '1 file rewound by #5'],
    ['rewound', 'turn-6', 'rewound by #6 (partly)'],
  ]);
  assert.match(badges[0].title, /op-one: a\.txt/);
  assert.match(badges[1].title, /some paths were skipped/);
});

test('a rewind that was undone stays in the turn\'s history, naming its undo', () => {
  const badges = turnBadges(turn({
    state: 'finished',
    rewound_by: [{ operation: 'op-whole', rewind_turn: 'turn-5', paths: null, complete: true, undone_by: 'turn-6' }],
  }), label);
  assert.deepEqual(badges.map(b => [b.kind, b.turn, b.text]), [['rewound', 'turn-5', 'rewound by #5, undone by #6']]);
  assert.match(badges[0].title, /since undone/);
});

test('rewinding a turn a standing rewind put back completely would do nothing: the button says why', () => {
  const whole = { operation: 'op-whole', rewind_turn: 'turn-5', paths: null, complete: true };
  assert.match(rewindBlocked(turn({ state: 'rewound', rewound_by: [whole] }), label), /^Already rewound by #5/);
  assert.match(rewindBlocked(turn({ kind: 'rewind', state: 'rewound', rewound_by: [whole] }), label), /^Already undone by #5/);
  // partly rewound (run it again, forced), undone (its changes are back), or never rewound: it would do something
  assert.equal(rewindBlocked(turn({ state: 'rewound', rewound_by: [{ ...whole, complete: false }] }), label), null);
  assert.equal(rewindBlocked(turn({ state: 'finished', rewound_by: [{ ...whole, undone_by: 'turn-6' }] }), label), null);
  assert.equal(rewindBlocked(turn(), label), null);
});

test('a rewind turn says what it rewound, and reads as undone when it was rewound itself', () => {
  const rewind = turn({
    turn: 'turn-5', seq: 5, kind: 'rewind',
    rewinds: { operation: 'op-one', turns: ['turn-2', 'turn-1'], paths: ['a.txt', 'b.txt'] },
    rewound_by: [{ operation: 'op-undo', rewind_turn: 'turn-6', paths: null, complete: true }],
  });
  assert.deepEqual(turnBadges(rewind, label).map(b => b.text), ['rewind of #2, #1 (2 files)', 'undone by #6']);
  // a turn the listing does not number is named by its id
  assert.equal(turnBadges(turn({ rewinds: { operation: 'o', turns: ['turn-elsewhere'], paths: null } }), label)[0].text,
    'rewind of turn-elsewhere');
});

test('a turn other sessions worked beside says so, naming each session once', () => {
  const badges = turnBadges(turn({ overlapping: [{ turn: 'b-1', session: 'B' }, { turn: 'b-2', session: 'B' }] }), label);
  assert.deepEqual(badges.map(b => [b.kind, b.text]), [['overlap', 'while session B was working']]);
  assert.match(badges[0].title, /b-1 \(B\), b-2 \(B\)/);
  const two = turnBadges(turn({ overlapping: [{ turn: 'b-1', session: 'B' }, { turn: 'c-1', session: 'C' }] }), label);
  assert.equal(two[0].text, 'while session B, session C were working');
  assert.deepEqual(turnBadges(turn({ overlapping: [] }), label), []);
});

test('the file count: all changed, some unchanged, or so far while the turn is open', () => {
  assert.equal(fileCountText(turn()), '3 files');
  assert.equal(fileCountText(turn({ files: 5, changed: 2 })), '2 files changed of 5');
  assert.equal(fileCountText(turn({ state: 'open', files: 1, changed: 0 })), '1 file so far');
});

const captured = { exists: true, type: 'regular', captured: true, reason: null };
const side = reason => ({ exists: true, type: 'regular', captured: false, reason });

test('a file gets one flag per reason a state was not captured, in words, besides the shell flag', () => {
  const flags = fileFlags({ change: 'unknown', restorable: false, detected_by: 'scan', before: side('hardlinked'), after: side('too_large') });
  assert.deepEqual(flags.map(f => [f.kind, f.code]), [['scan', undefined], ['reason', 'hardlinked'], ['reason', 'too_large']]);
  assert.equal(flags[1].text, 'hardlinked');
  assert.equal(flags[2].text, 'too large');
  const outside = fileFlags({ change: 'unknown', restorable: false, detected_by: 'snapshot', before: side('outside_workspace'), after: side('outside_workspace') });
  assert.deepEqual(outside.map(f => f.code), ['outside_workspace'], 'the same reason on both sides is one flag');
  assert.equal(outside[0].title, 'outside the workspace — content never read');
  assert.deepEqual(fileFlags({ change: 'unknown', restorable: false, detected_by: 'snapshot', before: side('special_file'), after: null })
    .map(f => f.text), ['special file'], 'an open turn has no after-state yet');
});

test('a change another session could also have made is flagged as shared, naming the turns', () => {
  const flags = fileFlags({ change: 'modified', restorable: true, detected_by: 'scan', before: captured, after: captured,
    also_possible: [{ turn: 'b-1', session: 'B' }] });
  assert.deepEqual(flags.map(f => [f.kind, f.text]), [['scan', 'shell'], ['shared', 'shared with session B']]);
  assert.match(flags[1].title, /turn b-1 of session B/);
});

test('a change the shell made is flagged with the calls it was made during, or as made outside any call', () => {
  const during = fileFlags({ change: 'modified', restorable: true, detected_by: 'scan', before: captured, after: captured,
    made_during: 'calls', calls: [{ id: 'toolu_1', tool: 'Bash', command: 'sed -i s/a/b/ a.txt' }, { id: 'c2', tool: 'run_shell_command', command: null }] });
  assert.deepEqual(during.map(f => [f.kind, f.text]), [['scan', 'shell'], ['call', 'during Bash and run_shell_command']]);
  assert.match(during[1].title, /Bash call toolu_1: sed -i s\/a\/b\/ a\.txt; run_shell_command call c2$/);
  const outside = fileFlags({ change: 'modified', restorable: true, detected_by: 'scan', before: captured, after: captured,
    made_during: 'outside', calls: [] });
  assert.deepEqual(outside.map(f => [f.kind, f.text]), [['scan', 'shell'], ['outside', 'outside any call']]);
  assert.match(outside[1].title, /leaves it unless forced/);
  assert.deepEqual(fileFlags({ change: 'modified', restorable: true, detected_by: 'scan', before: captured, after: captured,
    made_during: 'unknown', calls: [] }).map(f => f.kind), ['scan'], 'calls not known: no flag, no guess');
});

test('a file that cannot be put back for another reason says so; a restorable one has no flag', () => {
  assert.deepEqual(fileFlags({ change: 'unknown', restorable: false, detected_by: 'snapshot', before: captured, after: captured }).map(f => f.kind),
    ['not-restorable']);
  assert.deepEqual(fileFlags({ change: 'modified', restorable: true, detected_by: 'snapshot', before: captured, after: captured }), []);
});

test('workspaces and sessions: the newest last turn first, a session with no turn by when it began', () => {
  const listed = newestFirst([
    { workspace: '/a', last_turn_at: '2026-11-30T10:00:00.000Z' },
    { workspace: '/b', last_turn_at: '2026-11-30T12:00:00.000Z' },
    { workspace: '/c', last_turn_at: null, created_at: '2026-11-30T11:00:00.000Z' },
  ]);
  assert.deepEqual(listed.map(w => w.workspace), ['/b', '/c', '/a']);
});

test('the turns of a range are those numbered from its first to its last, both included', () => {
  const turns = [1, 2, 3, 4].map(n => ({ turn: `t${n}`, seq: n }));
  assert.deepEqual(turnsBetween(turns, 't2', 't3').map(t => t.seq), [2, 3]);
  assert.deepEqual(turnsBetween(turns, 't4', 't4').map(t => t.seq), [4]);
  assert.deepEqual(turnsBetween(turns, 't2', 'gone'), []);
});

// a turn as GET /v1/turns/{t} answers it: its calls in order, each file with the calls it is attributed to
const stepped = {
  calls: [{ id: 'c1', tool: 'Edit', command: null }, { id: 'c2', tool: 'Bash', command: 'make' }, { id: 'c3', tool: 'Bash', command: 'npm test' },
    { id: 'c4', tool: 'Read', command: null }],
  files: [
    { path: 'a.py', change: 'modified', made_during: 'named', tool_calls: ['c1'] },
    { path: 'b.py', change: 'modified', made_during: 'named', tool_calls: ['c1', 'c2'] },
    { path: 'out.o', change: 'added', made_during: 'calls', tool_calls: ['c2', 'c3'] },
    { path: 'notes.md', change: 'modified', made_during: 'outside', tool_calls: [] },
    { path: 'seen.py', change: 'unchanged', made_during: 'named', tool_calls: ['c4'] },
  ],
};

test('a turn\'s steps are its calls in order, each with its files and the calls it ran together with', () => {
  const steps = turnSteps(stepped);
  assert.deepEqual(steps.map(s => [s.number, s.call.id]), [[1, 'c1'], [2, 'c2'], [3, 'c3'], [4, 'c4']]);
  assert.deepEqual(steps.map(s => s.files), [['a.py', 'b.py'], ['b.py', 'out.o'], ['out.o'], ['seen.py']]);
  // the change found while c2 and c3 were both running is theirs together; b.py's second call is not an overlap
  assert.deepEqual(steps.map(s => s.overlapped), [[], [3], [2], []]);
});

test('a step is rewindable while a change of the turn has a call at it or after it; a change outside any call is no step\'s', () => {
  assert.deepEqual(turnSteps(stepped).map(s => s.rewindable), [true, true, true, false]);
  assert.deepEqual(turnSteps({ files: [] }), [], 'a turn with no calls (or a response before calls were listed) has no steps');
});

const tree = ['README.md', 'src/main/java/App.java', 'src/main/java/Util.java', 'src/test/AppTest.java', 'docs/a.md', 'a.txt']
  .map(path => ({ path }));
const all = tree.map((_, i) => i);
const drawn = rows => rows.map(r => `${'  '.repeat(r.depth)}${r.kind === 'dir' ? `${r.name}/ (${r.files})` : r.name}`);

test('the folder tree: folders first, then files, by name; a folder holding one folder and no file is one row', () => {
  const { rows, files } = fileTree(tree, all);
  assert.deepEqual(drawn(rows), [
    'docs/ (1)', '  a.md',
    'src/ (3)', '  main/java/ (2)', '    App.java', '    Util.java', '  test/ (1)', '    AppTest.java',
    'README.md', 'a.txt',
  ]);
  assert.deepEqual(files.map(i => tree[i].path), ['docs/a.md', 'src/main/java/App.java', 'src/main/java/Util.java', 'src/test/AppTest.java', 'README.md', 'a.txt']);
  assert.equal(rows.find(r => r.name === 'main/java').path, 'src/main/java');
});

test('a closed folder keeps its row and hides its files from the rows and from j and k; the filter\'s indices alone are drawn', () => {
  const { rows, files } = fileTree(tree, all, new Set(['src']));
  assert.deepEqual(drawn(rows), ['docs/ (1)', '  a.md', 'src/ (3)', 'README.md', 'a.txt']);
  assert.equal(rows.find(r => r.path === 'src').collapsed, true);
  assert.deepEqual(files.map(i => tree[i].path), ['docs/a.md', 'README.md', 'a.txt']);
  assert.deepEqual(drawn(fileTree(tree, [3, 5]).rows), ['src/test/ (1)', '  AppTest.java', 'a.txt']);
});

// a turn's records as GET /v1/turns/{t} gives them when the turn moved src/app.py to lib/app.py (git diff -M)
const moved = [
  { path: 'lib/app.py', change: 'added', renamed_from: 'src/app.py', renamed_to: null, similarity: 96, tools: ['Bash: git mv src/app.py lib', 'Edit'] },
  { path: 'notes.md', change: 'modified', renamed_from: null, renamed_to: null, similarity: null, tools: ['Write'] },
  { path: 'src/app.py', change: 'deleted', renamed_from: null, renamed_to: 'lib/app.py', similarity: 96, tools: [] },
];

test('a rename is one entry, old → new, in the list and in the tree; the old path has no entry of its own', () => {
  const records = withRenames(moved);
  assert.deepEqual(records.map(r => r.path), ['lib/app.py', 'notes.md']);
  assert.equal(renameLabel(records[0], records[0].path), 'src/app.py → lib/app.py (96%)');
  assert.equal(renameLabel(records[1], 'notes.md'), 'notes.md', 'any other file is its name');
  assert.deepEqual(drawn(fileTree(records, [0, 1]).rows), ['lib/ (1)', '  src/app.py → app.py (96%)', 'notes.md']);
  assert.deepEqual(withRenames(moved.slice(1, 2)), moved.slice(1, 2), 'a turn without renames is as it was');
});

test('the tools that touched a file read in the order the turn recorded them', () => {
  assert.equal(toolsText(moved[0]), 'Bash: git mv src/app.py lib, Edit');
  assert.equal(toolsText(moved[2]), '');
  assert.equal(toolsText({ path: 'x' }), '', 'a record from before tools were listed');
});

test('an outside turn offers a rewind of one file or hunk as an agent turn does; an open or a rewind turn does not', () => {
  assert.equal(partRewindOffered(turn()), true);
  assert.equal(partRewindOffered(turn({ kind: 'outside' })), true);
  assert.equal(partRewindOffered(turn({ kind: 'outside', state: 'rewound' })), true);
  assert.equal(partRewindOffered(turn({ state: 'open' })), false);
  assert.equal(partRewindOffered(turn({ kind: 'rewind' })), false);
});

test("a range record's before-state is its first turn's, its after-state its last turn's (the images the range shows)", () => {
  const record = { path: 'logo.png', turns: ['t-first', 't-middle', 't-last'] };
  assert.equal(rangeSideTurn(record, 'before'), 't-first');
  assert.equal(rangeSideTurn(record, 'after'), 't-last');
  assert.equal(rangeSideTurn({ path: 'a.png', turns: ['t-only'] }, 'after'), 't-only');
});

test('a file git ignores is flagged so, beside the shell flag; no other file is', () => {
  const flags = fileFlags({ path: '.env', change: 'modified', restorable: true, detected_by: 'scan', ignored: true, before: captured, after: captured });
  assert.deepEqual(flags.map(f => [f.kind, f.text]), [['scan', 'shell'], ['ignored', 'ignored by git']]);
  assert.match(flags[1].title, /secrets/);
  assert.deepEqual(fileFlags({ path: 'a.txt', change: 'modified', restorable: true, detected_by: 'scan', before: captured, after: captured }).map(f => f.kind), ['scan']);
});
