import { describe, expect, it } from 'vitest';
import { parseSse, type SseEvent } from './sse.js';

async function parse(parts: (string | Uint8Array)[]): Promise<SseEvent[]> {
  const enc = new TextEncoder();
  async function* chunks() {
    for (const p of parts) yield typeof p === 'string' ? enc.encode(p) : p;
  }
  const out: SseEvent[] = [];
  for await (const e of parseSse(chunks())) out.push(e);
  return out;
}

describe('SSE parser', () => {
  it('reads events, names, multi-line data, comments, and all three line endings', async () => {
    const events = await parse([
      ': keep-alive\n\nevent: message_start\ndata: {"a":1}\n\n',
      'data: one\r\ndata: two\r\n\r\n',
      'event:x\rdata:  spaced\r\r',
    ]);
    expect(events).toEqual([
      { event: 'message_start', data: '{"a":1}' },
      { event: 'message', data: 'one\ntwo' },
      { event: 'x', data: ' spaced' },
    ]);
  });

  it('copes with lines, CRLF pairs and UTF-8 characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: {"t":"größe ✓"}\r\n\r\ndata: [DONE]\r\n\r\n');
    const parts: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 3) parts.push(bytes.slice(i, i + 3));
    expect(await parse(parts)).toEqual([
      { event: 'message', data: '{"t":"größe ✓"}' },
      { event: 'message', data: '[DONE]' },
    ]);
  });

  it('does not dispatch an event cut off by the end of the stream, nor events without data', async () => {
    expect(await parse(['event: ping\n\n', 'data: whole\n\n', 'data: {"partial":'])).toEqual([{ event: 'message', data: 'whole' }]);
  });
});
