/**
 * A Server-Sent Events reader (WHATWG HTML §9.2.6 "Parsing an event stream"): lines end in
 * CRLF, LF or CR; `data:` lines of one event join with "\n"; one space after the colon is
 * dropped; lines starting with ":" are comments; a blank line dispatches; an event cut off
 * by the end of the stream is not dispatched. Byte chunks may split lines and characters
 * anywhere.
 */
export interface SseEvent {
  /** The `event:` field, "message" when absent. */
  event: string;
  data: string;
}

export async function* parseSse(chunks: AsyncIterable<Uint8Array>): AsyncIterable<SseEvent> {
  const decoder = new TextDecoder('utf-8'); // drops a leading BOM, as the spec asks
  let buffer = '';
  let data: string[] = [];
  let event = '';

  function* lines(final: boolean): Generator<string> {
    let start = 0;
    for (;;) {
      let i = start;
      while (i < buffer.length && buffer[i] !== '\n' && buffer[i] !== '\r') i++;
      if (i >= buffer.length) break;
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (buffer[i] === '\r' && i === buffer.length - 1 && !final) break;
      yield buffer.slice(start, i);
      start = buffer[i] === '\r' && buffer[i + 1] === '\n' ? i + 2 : i + 1;
    }
    buffer = buffer.slice(start);
  }

  function* handle(line: string): Generator<SseEvent> {
    if (line === '') {
      if (data.length) yield { event: event || 'message', data: data.join('\n') };
      data = [];
      event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    // `id` and `retry` matter to reconnecting browsers, not to one request.
  }

  for await (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    for (const line of lines(false)) yield* handle(line);
  }
  buffer += decoder.decode();
  for (const line of lines(true)) yield* handle(line);
}
