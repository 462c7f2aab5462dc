import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got, as it arrived. */
export interface Received {
  webhookId: string;
  timestamp: string;
  signature: string;
  headers: http.IncomingHttpHeaders;
  /** The raw body: what signatures are computed over. */
  body: string;
  json: { event: string; timestamp: string; data: any };
  path: string;
}

export type Reply = number | { status: number; headers?: Record<string, string>; body?: string } | 'hang';

/**
 * A webhook receiver on 127.0.0.1 that records every request and answers what `respond` says
 * (200 by default; `'hang'` never answers). For tests and the benchmark.
 */
export async function startReceiver(respond: (r: Received, index: number) => Reply = () => 200) {
  const received: Received[] = [];
  const waiters = new Set<() => void>();
  let reply = respond;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      const r: Received = {
        webhookId: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        headers: req.headers,
        body,
        json: safeJson(body),
        path: req.url ?? '/',
      };
      received.push(r);
      for (const w of waiters) w();
      const answer = reply(r, received.length - 1);
      if (answer === 'hang') return;
      const a = typeof answer === 'number' ? { status: answer } : answer;
      res.writeHead(a.status, a.headers).end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    respondWith(fn: typeof respond): void {
      reply = fn;
    },
    /** Resolves once `predicate` holds over what was received; fails after `timeoutMs`. */
    async waitFor(predicate: (all: Received[]) => boolean, timeoutMs = 10_000): Promise<Received[]> {
      if (predicate(received)) return received;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: condition not met within ${timeoutMs} ms (${received.length} received)`));
        }, timeoutMs);
        const check = () => {
          if (predicate(received)) {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          }
        };
        waiters.add(check);
      });
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

function safeJson(text: string): Received['json'] {
  try {
    return JSON.parse(text) as Received['json'];
  } catch {
    return { event: '', timestamp: '', data: null };
  }
}
