import assert from 'node:assert/strict';
import { test } from 'node:test';
import { built } from './built.mjs';

const { readEvents } = await built('assets/js/sse.js');

/** A byte stream that delivers `text` cut at the given offsets (in bytes), as a network would. */
function stream(text, cuts = []) {
  const bytes = new TextEncoder().encode(text);
  const bounds = [0, ...cuts, bytes.length];
  return new ReadableStream({
    start(controller) {
      for (let i = 0; i + 1 < bounds.length; i++) controller.enqueue(bytes.slice(bounds[i], bounds[i + 1]));
      controller.close();
    },
  });
}

async function collect(text, cuts) {
  const events = [];
  const retries = [];
  await readEvents(stream(text, cuts), (name, data) => events.push([name, data]), { onRetry: ms => retries.push(ms) });
  return { events, retries };
}

// what GET /v1/events sends (docs/review-panel.md, section 6)
const HOSTILE = '<img src=x onerror=alert(1)>.txt';
const WIRE = 'retry: 3000\n\n'
  + 'event: hello\ndata: {"session":"conv-1","server_time":"2026-11-30T13:00:00Z"}\n\n'
  + ': keep-alive\n\n'
  + `id: 7\nevent: file_snapshotted\ndata: ${JSON.stringify({ turn: 't-1', session: 'conv-1', files: [{ path: HOSTILE, change: null }] })}\n\n`
  + 'id: 8\nevent: turn_finished\ndata: {"turn":"t-1","state":"finished","files":1}\n\n';
const EXPECTED = [
  ['hello', { session: 'conv-1', server_time: '2026-11-30T13:00:00Z' }],
  ['file_snapshotted', { turn: 't-1', session: 'conv-1', files: [{ path: HOSTILE, change: null }] }],
  ['turn_finished', { turn: 't-1', state: 'finished', files: 1 }],
];

test('the events of the stream, in order, with their JSON data; comments and retry are no events', async () => {
  const { events, retries } = await collect(WIRE);
  assert.deepEqual(events, EXPECTED);
  assert.deepEqual(retries, [3000]);
});

test('the same events whatever chunks the bytes arrive in, a UTF-8 character split included', async () => {
  const text = WIRE.replace('conv-1', 'conv-ü日');
  const expected = structuredClone(EXPECTED);
  expected[0][1].session = 'conv-ü日';
  const length = new TextEncoder().encode(text).length;
  for (let step = 1; step <= 17; step += 4) {
    const cuts = [];
    for (let at = step; at < length; at += step) cuts.push(at);
    assert.deepEqual((await collect(text, cuts)).events, expected, `cut every ${step} bytes`);
  }
});

test('CRLF and CR line ends, as the format allows', async () => {
  assert.deepEqual((await collect(WIRE.replaceAll('\n', '\r\n'))).events, EXPECTED);
  // a CR last in what has arrived may be half of a CRLF: the event it ends is dispatched with the next
  // bytes (the service's keep-alive comment at the latest)
  assert.deepEqual((await collect(`${WIRE}: keep-alive\n`.replaceAll('\n', '\r'))).events, EXPECTED);
});

test('data over several lines is joined with newlines; an event without a name is a message', async () => {
  const { events } = await collect('data: {"a":\ndata: [1,\ndata: 2]}\n\n');
  assert.deepEqual(events, [['message', { a: [1, 2] }]]);
});

test('an event whose data is not JSON is dropped, and the next one still arrives', async () => {
  const { events } = await collect('event: turn_begun\ndata: </script><script>alert(1)</script>\n\nevent: turn_begun\ndata: {"turn":"t-2"}\n\n');
  assert.deepEqual(events, [['turn_begun', { turn: 't-2' }]]);
});

test('an event cut off by the end of the stream is not dispatched', async () => {
  const { events } = await collect('event: hello\ndata: {"session":"s"}\n\nevent: turn_begun\ndata: {"turn":"t-3"}\n');
  assert.deepEqual(events, [['hello', { session: 's' }]]);
});
