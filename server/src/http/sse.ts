import type { Response } from 'express';

/** A Server-Sent Events stream on an Express response. */
export interface SseStream {
  send(event: string, data: unknown): void;
  end(): void;
  readonly closed: boolean;
}

export function openSse(res: Response): SseStream {
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no'); // proxies (nginx) must not buffer the stream
  res.flushHeaders();
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  return {
    send(event, data) {
      if (closed) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (closed) return;
      closed = true;
      res.end();
    },
    get closed() {
      return closed;
    },
  };
}

export function wantsStream(body: unknown, accept: string | undefined): boolean {
  const flag = (body as { stream?: unknown } | undefined)?.stream;
  return flag === true || (accept ?? '').includes('text/event-stream');
}
