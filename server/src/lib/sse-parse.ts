/**
 * Server-Sent Events, parsed (WHATWG HTML §9.2.6 "Parsing an event stream"): lines end in CRLF,
 * LF or CR; `data:` lines of one event join with "\n"; one space after the colon is dropped;
 * lines starting with ":" are comments; a blank line dispatches (an event without data is not
 * one); an event cut off by the end of the stream is dropped. `id` and `retry` matter to a
 * reconnecting EventSource, not to one request, and are skipped.
 *
 * The one parser of the server (model providers' streams), the widget (a chat answer) and the
 * dashboard playground. Text in, so the caller decodes bytes (TextDecoder with `stream: true`
 * keeps a character split across chunks whole, and drops a leading BOM). Pure and small: the
 * widget bundles it within its 15 KB budget.
 */
export interface SseEvent {
  /** The `event:` field, "message" when absent. */
  event: string;
  data: string;
}

export interface SseParser {
  /** Takes the next piece of the stream, cut anywhere (mid-line, between CR and LF); returns the events it completed. */
  feed(text: string): SseEvent[];
  /** The stream ended: an event still waiting for its blank line is dropped. */
  end(): void;
}

export function createSseParser(): SseParser {
  let rest = ''; // the line not ended yet
  let event = '';
  let data: string[] = [];
  let afterCr = false; // the last piece ended in CR: a LF opening the next one ends no further line

  return {
    feed(text) {
      const out: SseEvent[] = [];
      const skipLf = afterCr && text[0] === '\n';
      if (text) afterCr = text[text.length - 1] === '\r';
      const lines = (rest + (skipLf ? text.slice(1) : text)).split(/\r\n?|\n/);
      rest = lines.pop() as string;
      for (const line of lines) {
        if (!line) {
          if (data.length) out.push({ event: event || 'message', data: data.join('\n') });
          event = '';
          data = [];
        } else {
          // field, then after the colon (none: an empty value) one space dropped; a comment's field is ''.
          const [, field, value = ''] = /^([^:]*)(?:: ?([^]*))?$/.exec(line) as RegExpExecArray;
          if (field === 'data') data.push(value);
          else if (field === 'event') event = value;
        }
      }
      return out;
    },
    end() {
      rest = event = '';
      data = [];
      afterCr = false;
    },
  };
}
