import { createSseParser, type SseEvent } from '../../lib/sse-parse.js';

export type { SseEvent };

/** A provider's streamed response body as Server-Sent Events (lib/sse-parse.ts has the rules). */
export async function* parseSse(chunks: AsyncIterable<Uint8Array>): AsyncIterable<SseEvent> {
  const decoder = new TextDecoder('utf-8'); // drops a leading BOM, as the standard asks
  const parser = createSseParser();
  for await (const chunk of chunks) yield* parser.feed(decoder.decode(chunk, { stream: true }));
  yield* parser.feed(decoder.decode());
  parser.end();
}
