/**
 * The shared core of the local model-provider fakes (fake-openai.ts, fake-anthropic.ts): a
 * node:http server on 127.0.0.1 that records every request and answers each with the next
 * scripted reply. The protocol files decide how a reply looks on the wire.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: any;
  /** performance.now() when the request body was complete. */
  receivedAt: number;
  /** performance.now() when the first answer text was written, if it was. */
  firstTextAt: number | null;
  /** True when the client went away before the reply was finished. */
  clientAborted: boolean;
  /** The client's port: one per TCP connection, so reuse (keep-alive) shows. */
  remotePort: number | undefined;
  /** Resolves when the exchange is over (finished, or the client hung up). */
  done: Promise<void>;
}

/** One scripted reply. `chunks` are answer text pieces, sent as separate stream events. */
export type Reply =
  | {
      kind?: 'text';
      chunks: string[];
      delayMs?: number;
      firstDelayMs?: number;
      finish?: string;
      usage?: { prompt: number; completion: number };
      thinking?: string;
      headers?: Record<string, string>;
    }
  | { kind: 'error'; status: number; type?: string; message?: string; headers?: Record<string, string> }
  /** 200, some text, then an error inside the stream. */
  | { kind: 'stream-error'; chunks: string[]; type?: string; message?: string }
  /** 200, some text, then the connection is destroyed. */
  | { kind: 'drop'; chunks: string[] }
  /** Some text (maybe none), then silence until the client gives up. */
  | { kind: 'hang'; chunks?: string[] };

export type TextReply = Extract<Reply, { kind?: 'text' }>;
export const isText = (r: Reply): r is TextReply => r.kind === undefined || r.kind === 'text';

export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  record: RecordedRequest;
  /** Waits, unless the client has gone. Resolves false when it has. */
  wait(ms: number): Promise<boolean>;
  /** Writes answer bytes and notes the first text's time. */
  writeText(data: string): void;
}

export interface Protocol {
  /** An error response when the request breaks the protocol, else null. */
  validate(req: RecordedRequest): { status: number; body: unknown } | null;
  /** Writes `reply` in the protocol's JSON or SSE form. */
  respond(ex: Exchange, reply: Reply): Promise<void>;
}

export interface FakeProvider {
  url: string;
  requests: RecordedRequest[];
  /** Replies for the next requests, in order; after them, `fallback`. */
  enqueue(...replies: Reply[]): void;
  fallback: Reply | ((req: RecordedRequest) => Reply);
  close(): Promise<void>;
}

/** A deterministic stand-in for a tokenizer: whitespace-separated words. */
export const countTokens = (text: string): number => text.split(/\s+/).filter(Boolean).length;

export async function startFake(protocol: Protocol, defaultReply: Reply): Promise<FakeProvider> {
  const queue: Reply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const fake: FakeProvider = {
    url: '',
    requests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    fallback: defaultReply,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    let finish!: () => void;
    const record: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      receivedAt: performance.now(),
      firstTextAt: null,
      clientAborted: false,
      remotePort: req.socket.remotePort,
      done: new Promise<void>((resolve) => {
        finish = resolve;
      }),
    };
    requests.push(record);
    let gone = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        gone = true;
        record.clientAborted = true;
      }
      finish();
    });
    const ex: Exchange = {
      req,
      res,
      record,
      wait: (ms) =>
        new Promise<boolean>((resolve) => {
          if (gone) return resolve(false);
          const t = setTimeout(() => resolve(!gone), ms);
          res.once('close', () => {
            clearTimeout(t);
            resolve(false);
          });
        }),
      writeText(data) {
        if (gone) return;
        res.write(data);
        record.firstTextAt ??= performance.now();
      },
    };
    const invalid = protocol.validate(record);
    if (invalid) {
      res.writeHead(invalid.status, { 'content-type': 'application/json' }).end(JSON.stringify(invalid.body));
      return;
    }
    let next: Reply;
    try {
      next = queue.shift() ?? (typeof fake.fallback === 'function' ? fake.fallback(record) : fake.fallback);
    } catch (err) {
      // A test's reply script failed: answer 500 rather than crash the test run.
      next = { kind: 'error', status: 500, message: `fake reply script failed: ${String(err)}` };
    }
    await protocol.respond(ex, next);
  };
  // node:http ignores a listener's promise: a failure (a socket broken mid-body) is logged and the
  // connection cut, so the client under test sees a transport error, not an unhandled rejection.
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      console.error('fake provider:', err);
      res.destroy();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  fake.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return fake;
}

/** Sends scripted text pieces with the reply's delays; false when the client left. */
export async function paced(
  ex: Exchange,
  reply: { chunks: string[]; delayMs?: number; firstDelayMs?: number },
  write: (text: string, i: number) => void,
): Promise<boolean> {
  for (let i = 0; i < reply.chunks.length; i++) {
    const ms = i === 0 ? (reply.firstDelayMs ?? 0) : (reply.delayMs ?? 0);
    if (ms > 0 && !(await ex.wait(ms))) return false;
    if (ex.record.clientAborted) return false;
    write(reply.chunks[i] as string, i);
  }
  return !ex.record.clientAborted;
}
