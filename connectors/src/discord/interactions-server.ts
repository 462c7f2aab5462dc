import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { KeyObject } from 'node:crypto';
import type { REST } from '@discordjs/rest';
import { InteractionResponseType, InteractionType, MessageFlags } from 'discord-api-types/v10';
import { BodyTooLargeError, readBody } from '../core/http-server.js';
import { describeError, type Logger } from '../core/logger.js';
import { ENGLISH_TEXTS } from '../core/texts.js';
import { createHttpReplier } from './http-replier.js';
import { readRawInteraction, type DiscordInteractionInput } from './interaction.js';
import type { InteractionReplier } from './replier.js';
import { checkDiscordSignature } from './verify-signature.js';

export interface InteractionsServerOptions {
  publicKey: KeyObject;
  rest: REST;
  /** The application id; used when a payload lacks `application_id` (it never should). */
  applicationId: string;
  dispatch: (input: DiscordInteractionInput, replier: InteractionReplier) => Promise<void>;
  logger: Logger;
  nowSeconds?: () => number;
  /**
   * Safety net under Discord's 3-second limit: if a command has neither replied nor deferred by
   * then (it always should at once), we defer for it so the user does not see a failure.
   */
  ackDeadlineMs?: number;
  /** What the user sees when no command answered (in the assistant's language, read when needed). */
  unhandledText?: () => string;
}

/** `POST /interactions`: Discord's outgoing-webhook delivery of interactions (DISCORD_MODE=http). */
export function createInteractionsServer(options: InteractionsServerOptions): Server {
  return createServer((req, res) => {
    handle(req, res, options).catch((err: unknown) => {
      options.logger.error('discord interactions endpoint failed', describeError(err));
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, options: InteractionsServerOptions): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  if (path === '/healthz' && req.method === 'GET') return sendJson(res, 200, { status: 'ok' });
  if (path !== '/interactions') return sendJson(res, 404, { error: 'not found' });
  if (req.method !== 'POST') return sendJson(res, 405, { error: 'method not allowed' });

  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return sendJson(res, 413, { error: 'payload too large' });
    throw err;
  }

  const check = checkDiscordSignature({
    publicKey: options.publicKey,
    signature: header(req, 'x-signature-ed25519'),
    timestamp: header(req, 'x-signature-timestamp'),
    body,
    nowSeconds: options.nowSeconds ? options.nowSeconds() : Math.floor(Date.now() / 1000),
  });
  // Discord probes the endpoint with bad signatures when it is saved and expects 401 for them.
  if (check !== 'valid') return sendJson(res, 401, { error: 'invalid request signature' });

  let payload: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    payload = parsed as Record<string, unknown>;
  } catch {
    return sendJson(res, 400, { error: 'invalid JSON' });
  }

  if (payload.type === InteractionType.Ping) return sendJson(res, 200, { type: InteractionResponseType.Pong });

  const input = readRawInteraction(payload);
  if (input.kind === 'unsupported') return sendJson(res, 400, { error: 'unsupported interaction type' });

  const token = typeof payload.token === 'string' ? payload.token : '';
  const applicationId = typeof payload.application_id === 'string' ? payload.application_id : options.applicationId;
  const replier = createHttpReplier({ respond: (data) => sendJson(res, 200, data), rest: options.rest, applicationId, token });

  const safety = setTimeout(() => {
    if (!replier.responded) void replier.defer({ ephemeral: false });
  }, options.ackDeadlineMs ?? 2500);
  try {
    // Runs to completion (answer PATCHed) long after the HTTP response went out with the defer.
    await options.dispatch(input, replier);
  } finally {
    clearTimeout(safety);
    if (!replier.responded) {
      sendJson(res, 200, {
        type: InteractionResponseType.ChannelMessageWithSource,
        data: { content: options.unhandledText?.() ?? ENGLISH_TEXTS.notHandled, flags: MessageFlags.Ephemeral },
      });
    }
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
