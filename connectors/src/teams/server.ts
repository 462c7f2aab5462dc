import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Response as BotResponse, TurnContext } from 'botbuilder';
import type { TeamsAdapter } from '@microsoft/teams-ai';
import { BodyTooLargeError, readBody } from '../core/http-server.js';
import { describeError, type Logger } from '../core/logger.js';

/**
 * `POST /api/messages` on plain node:http. CloudAdapter.process wants express/restify-like
 * request and response objects (parsed `body`; `status/header/send/end`); these shims are all
 * it needs, which spares the connector a web framework.
 */
export function createMessagesServer(adapter: TeamsAdapter, logic: (context: TurnContext) => Promise<void>, logger: Logger): Server {
  return createServer((req, res) => {
    handle(req, res, adapter, logic).catch((err: unknown) => {
      logger.error('teams endpoint failed', describeError(err));
      if (!res.headersSent) res.writeHead(500).end();
      else res.end();
    });
  });
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  adapter: TeamsAdapter,
  logic: (context: TurnContext) => Promise<void>,
): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  if (path === '/healthz' && req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (path !== '/api/messages') {
    res.writeHead(404).end();
    return;
  }
  let body: unknown;
  try {
    const raw = await readBody(req);
    body = raw.length === 0 ? undefined : (JSON.parse(raw.toString('utf8')) as unknown);
  } catch (err) {
    res.writeHead(err instanceof BodyTooLargeError ? 413 : 400).end();
    return;
  }
  // Authentication (JWT from the Bot Framework, or none with an empty app id) happens inside process().
  await adapter.process(
    { method: req.method ?? 'GET', headers: req.headers, body: body as Record<string, unknown> },
    toBotResponse(res),
    logic,
  );
}

function toBotResponse(res: ServerResponse): BotResponse {
  const shim: BotResponse = {
    socket: res.socket,
    status(code: unknown) {
      res.statusCode = Number(code);
      return shim;
    },
    header(name: unknown, value: unknown) {
      if (!res.headersSent) res.setHeader(String(name), String(value));
      return shim;
    },
    send(body: unknown) {
      if (body === undefined || body === null) return shim;
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        res.write(body);
      } else {
        if (!res.headersSent) res.setHeader('content-type', 'application/json');
        res.write(JSON.stringify(body));
      }
      return shim;
    },
    end() {
      res.end();
      return shim;
    },
  };
  return shim;
}
