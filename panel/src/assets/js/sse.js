// Reading a text/event-stream body (GET /v1/events) into named events with JSON data. The format itself
// (fields, comments, line ends split across chunks, `retry:`) is eventsource-parser's; what is ours is the
// panel's rule that every event carries one JSON value: an event whose data is not JSON is dropped, never
// handed to a view half-read.
import { createParser } from '../../vendor/eventsource-parser/index.js';

/**
 * Reads `body` (a ReadableStream of bytes) to its end, calling dispatch(name, data) for each event
 * (`message` when it has no `event:` field) and onRetry(ms) for each `retry:` field.
 */
export async function readEvents(body, dispatch, { onRetry } = {}) {
  const parser = createParser({
    onEvent: ({ event, data }) => {
      let parsed;
      try {
        parsed = JSON.parse(data);
      } catch {
        return;
      }
      dispatch(event ?? 'message', parsed);
    },
    onRetry: ms => onRetry?.(ms),
  });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}
