import { createServer, type IncomingHttpHeaders } from 'node:http';
import { closeServer, listen, readBody } from '../core/http-server.js';

/** One request as a fake platform or fake Parley received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** JSON or form body parsed; undefined when empty or unreadable. */
  body: unknown;
}

export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** Resolves with the first recorded request (past or future) that matches; rejects after `timeoutMs`. */
  waitFor(predicate: (req: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  close(): Promise<void>;
}

/**
 * A local HTTP server on 127.0.0.1 that records every request and answers through `handler`.
 * The base of every fake in these tests: Discord's REST API, Slack's Web API and response_url,
 * the Bot Framework service URL, and a scriptable Parley for failure cases.
 */
export async function startRecordingServer(
  handler: (req: RecordedRequest) => FakeResponse | Promise<FakeResponse>,
): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const waiters: { predicate: (req: RecordedRequest) => boolean; resolve: (req: RecordedRequest) => void }[] = [];

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const rawBody = (await readBody(req)).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        // Decoded, as the real services route them (@discordjs/rest sends `@original` as `%40original`).
        path: safeDecode(url.pathname),
        query: url.searchParams,
        headers: req.headers,
        rawBody,
        body: parseBody(rawBody, req.headers['content-type']),
      };
      requests.push(recorded);
      let response: FakeResponse;
      try {
        response = await handler(recorded);
      } catch (err) {
        response = { status: 500, body: { error: String(err) } };
      }
      const status = response.status ?? 200;
      const payload = response.body === undefined ? '' : typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      res.writeHead(status, {
        ...(response.body === undefined || typeof response.body === 'string' ? {} : { 'content-type': 'application/json' }),
        ...response.headers,
      });
      res.end(status === 204 ? undefined : payload);
      // Resolve waiters after answering, so a test that awaits a request sees the client's reaction to it too.
      for (const waiter of [...waiters]) {
        if (waiter.predicate(recorded)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(recorded);
        }
      }
    })();
  });
  const port = await listen(server, 0, '127.0.0.1');

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitFor(predicate, timeoutMs = 5000) {
      const found = requests.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(
            new Error(
              `no matching request within ${timeoutMs} ms; got: ${requests.map((r) => `${r.method} ${r.path}`).join(', ') || 'none'}`,
            ),
          );
        }, timeoutMs);
        const waiter = {
          predicate,
          resolve: (req: RecordedRequest) => {
            clearTimeout(timer);
            resolve(req);
          },
        };
        waiters.push(waiter);
      });
    },
    close: () => closeServer(server),
  };
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (raw === '') return undefined;
  if (contentType?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
