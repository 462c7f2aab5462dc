import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse-parse.js';

// The cases of the three parsers this one replaces (the model providers', the widget's, the
// playground's), on the one parser they now share.

function parseAll(chunks: string[]): Array<[string, string]> {
  const p = createSseParser();
  const events = chunks.flatMap((c) => p.feed(c)).map((e): [string, string] => [e.event, e.data]);
  p.end();
  return events;
}

/** Bytes as a reader gets them: decoded with `stream: true`, as the widget, playground and providers do. */
function parseBytes(parts: Uint8Array[]): SseEvent[] {
  const decoder = new TextDecoder();
  const p = createSseParser();
  const events = parts.flatMap((part) => p.feed(decoder.decode(part, { stream: true })));
  events.push(...p.feed(decoder.decode()));
  p.end();
  return events;
}

describe('createSseParser', () => {
  const stream =
    'event: delta\ndata: {"text":"a"}\n\n: keep-alive comment\n\nevent: delta\ndata: {"text":"b"}\n\nevent: done\ndata: {"ok":true}\n\n';
  const expected: Array<[string, string]> = [
    ['delta', '{"text":"a"}'],
    ['delta', '{"text":"b"}'],
    ['done', '{"ok":true}'],
  ];

  it('parses whole streams', () => {
    expect(parseAll([stream])).toEqual(expected);
  });

  it('gives the same events wherever a chunk boundary splits a line', () => {
    for (let i = 0; i <= stream.length; i++) {
      expect(parseAll([stream.slice(0, i), stream.slice(i)]), `split at ${i}`).toEqual(expected);
    }
  });

  it('handles one character per chunk, and empty chunks', () => {
    expect(parseAll([...stream])).toEqual(expected);
    expect(parseAll([...stream].flatMap((c) => [c, '']))).toEqual(expected);
  });

  it('accepts CRLF and CR line endings, including CRLF split between chunks', () => {
    const crlf = stream.replace(/\n/g, '\r\n');
    for (let i = 0; i <= crlf.length; i++) {
      expect(parseAll([crlf.slice(0, i), crlf.slice(i)]), `split at ${i}`).toEqual(expected);
    }
    expect(parseAll([...crlf])).toEqual(expected);
    expect(parseAll([stream.replace(/\n/g, '\r')])).toEqual(expected);
  });

  it('reads a CR then a LF in the next chunk as one line end, but CR LF LF as two', () => {
    expect(parseAll(['data: a\r', '\n', '\n'])).toEqual([['message', 'a']]);
    expect(parseAll(['data: a\r', '\n\n'])).toEqual([['message', 'a']]);
    expect(parseAll(['data: a\r', '\ndata: b\n\n'])).toEqual([['message', 'a\nb']]);
  });

  it('reads events, names, multi-line data, comments, and all three line endings', () => {
    expect(
      parseAll([': keep-alive\n\nevent: message_start\ndata: {"a":1}\n\n', 'data: one\r\ndata: two\r\n\r\n', 'event:x\rdata:  spaced\r\r']),
    ).toEqual([
      ['message_start', '{"a":1}'],
      ['message', 'one\ntwo'],
      ['x', ' spaced'],
    ]);
  });

  it('joins multiple data lines, strips one leading space, defaults the event name', () => {
    expect(parseAll(['data:  two spaces\ndata:x\n\n'])).toEqual([['message', ' two spaces\nx']]);
  });

  it('takes a field without a colon as that field with an empty value, and skips unknown fields', () => {
    expect(parseAll(['data\nid: 7\nretry: 10\n\n'])).toEqual([['message', '']]);
  });

  it('does not dispatch an event cut off by the end of the stream, nor events without data', () => {
    // The widget's own parser used to dispatch the unfinished last event at its end(); the
    // standard drops it (a stream cut mid-event must not pass for a whole answer).
    expect(parseAll(['event: done\ndata: {}'])).toEqual([]);
    expect(parseAll(['event: done\ndata: {}\n'])).toEqual([]);
    expect(parseAll(['event: ping\n\n', 'data: whole\n\n', 'data: {"partial":'])).toEqual([['message', 'whole']]);
  });

  it('starts afresh after end(): nothing of an unfinished event leaks into the next stream', () => {
    const p = createSseParser();
    expect(p.feed('event: a\ndata: cut')).toEqual([]);
    p.end();
    expect(p.feed('data: next\n\n')).toEqual([{ event: 'message', data: 'next' }]);
  });

  it('reassembles lines, CRLF pairs and UTF-8 characters split across byte chunks', () => {
    const bytes = new TextEncoder().encode('data: {"t":"größe ✓"}\r\n\r\nevent: done\r\ndata: [DONE]\r\n\r\n');
    for (const size of [1, 2, 3, 5]) {
      const parts: Uint8Array[] = [];
      for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
      expect(parseBytes(parts), `chunks of ${size}`).toEqual([
        { event: 'message', data: '{"t":"größe ✓"}' },
        { event: 'done', data: '[DONE]' },
      ]);
    }
  });
});
