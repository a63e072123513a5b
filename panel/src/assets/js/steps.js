// A turn's steps: its tool calls in the order the turn recorded them, each with what it changed and a
// "rewind to before this step" (POST /v1/rewind with before_tool_call): that call and every later call of the
// turn are rewound, what the earlier calls did stays. The plan comes first, as for every rewind (rewind.js).
import { h, icon } from './dom.js';
import { plural } from './format.js';
import { turnSteps } from './listing.js';
import { openRewind } from './rewind.js';

/** What a step is called: its tool's name and its command's first line, else its id. */
export function stepName(call) {
  return [call.tool, call.command].filter(Boolean).join(' · ') || `tool call ${call.id}`;
}

function stepRow(turn, step, onDone) {
  const { call, number, files, overlapped, rewindable } = step;
  return h('li', { class: 'step-row', dataset: { call: call.id, step: String(number) } },
    h('span', { class: 'step-number' }, `Step ${number}`),
    h('span', { class: 'step-name mono', title: `tool call ${call.id}` }, stepName(call)),
    h('span', { class: 'step-files muted small', title: files.join('\n') }, files.length ? plural(files.length, 'file') : 'no file recorded'),
    overlapped.length
      ? h('span', { class: 'step-overlap small', dataset: { overlapped: overlapped.join(' ') },
        title: 'Shell calls that ran at the same time: what changed while both were running cannot be told apart, so it goes back with the later one' },
      `ran with ${overlapped.map(n => `step ${n}`).join(' and ')}: rewound together`)
      : null,
    h('button', { type: 'button', class: 'button button-small button-quiet', disabled: !rewindable,
      title: rewindable ? `Put back the files as they were before step ${number}: it and every later step are rewound. See the plan first` : 'Nothing to put back: no step from this one on changed a file',
      onclick: () => openRewind({ scope: 'call', turn: turn.turn, seq: turn.seq, call: call.id, step: number, stepName: stepName(call), onDone }) },
    icon('rewind'), 'Rewind to before this step…'));
}

/** The turn's steps as a collapsible list, or nothing when the turn recorded no tool call. */
export function stepsSection(turn, onDone) {
  const steps = turnSteps(turn);
  if (!steps.length) return null;
  return h('details', { class: 'steps' },
    h('summary', null, h('strong', null, plural(steps.length, 'step')), h('span', { class: 'muted small' }, 'the tool calls of the turn, in order')),
    h('ol', { class: 'step-list', role: 'list' }, steps.map(step => stepRow(turn, step, onDone))));
}
