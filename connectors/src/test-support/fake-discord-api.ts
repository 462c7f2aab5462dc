import { Locale } from 'discord-api-types/v10';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from './recording-server.js';

/**
 * Discord's REST API as far as the connector uses it (under `/api/v10`, so DISCORD_API_URL is
 * `<url>/api` exactly like the real `https://discord.com/api`): command registration, the
 * interaction callback (gateway mode's deferReply) and the interaction webhook (edit / follow-up).
 */
export interface FakeDiscordApi extends RecordingServer {
  /** What to pass as DISCORD_API_URL / REST `api`. */
  apiUrl: string;
  /** Requests under /api/v10, with the prefix stripped from `path` for readable assertions. */
  calls(): RecordedRequest[];
}

const PREFIX = '/api/v10';

export async function startFakeDiscordApi(): Promise<FakeDiscordApi> {
  let messageCounter = 0;
  const server = await startRecordingServer((req) => {
    const path = req.path.startsWith(PREFIX) ? req.path.slice(PREFIX.length) : req.path;
    if (req.method === 'PUT' && /^\/applications\/[^/]+(\/guilds\/[^/]+)?\/commands$/.test(path)) {
      const commands = Array.isArray(req.body) ? (req.body as Record<string, unknown>[]) : [];
      const problem = commands.map(commandProblem).find((p) => p !== undefined);
      // Discord's own answer to a registration it refuses (an unknown locale, a description too long).
      if (problem)
        return {
          status: 400,
          body: { code: 50035, message: 'Invalid Form Body', errors: { _errors: [{ code: 'INVALID', message: problem }] } },
        };
      return { body: commands.map((c, i) => ({ id: String(1000 + i), application_id: '1', version: '1', ...c })) };
    }
    if (req.method === 'POST' && /^\/interactions\/[^/]+\/[^/]+\/callback$/.test(path)) {
      return { status: 204 };
    }
    const webhook = /^\/webhooks\/([^/]+)\/([^/]+)(\/messages\/(.+))?$/.exec(path);
    if (webhook && (req.method === 'PATCH' || req.method === 'POST')) {
      messageCounter += 1;
      const body = (req.body ?? {}) as Record<string, unknown>;
      // Enough of a message object for discord.js to build a Message from it.
      return {
        body: {
          id: String(900000000000000000n + BigInt(messageCounter)),
          channel_id: '222222222222222222',
          type: 0,
          content: body.content ?? '',
          embeds: body.embeds ?? [],
          components: body.components ?? [],
          attachments: [],
          mentions: [],
          mention_roles: [],
          mention_everyone: false,
          pinned: false,
          tts: false,
          timestamp: new Date().toISOString(),
          edited_timestamp: null,
          flags: body.flags ?? 0,
          author: { id: webhook[1], username: 'Parley', discriminator: '0000', avatar: null, global_name: null, bot: true },
          webhook_id: webhook[1],
        },
      };
    }
    return { status: 404, body: { message: 'Unknown route', code: 0 } };
  });
  return {
    ...server,
    apiUrl: `${server.url}/api`,
    calls: () => server.requests.map((r) => ({ ...r, path: r.path.startsWith(PREFIX) ? r.path.slice(PREFIX.length) : r.path })),
  };
}

const LOCALES = new Set<string>(Object.values(Locale));

/** What Discord checks of a command's and its options' descriptions: 1-100 characters, in each of its locales. */
function commandProblem(command: Record<string, unknown>): string | undefined {
  const options = Array.isArray(command.options) ? (command.options as Record<string, unknown>[]) : [];
  for (const part of [command, ...options]) {
    const texts: [string, unknown][] = [['description', part.description]];
    const localized = part.description_localizations;
    if (localized !== undefined && localized !== null) {
      if (typeof localized !== 'object') return 'description_localizations: not an object';
      for (const [locale, text] of Object.entries(localized)) {
        if (!LOCALES.has(locale)) return `description_localizations: ${locale} is not a valid locale`;
        texts.push([`description_localizations.${locale}`, text]);
      }
    }
    for (const [field, text] of texts) {
      if (typeof text !== 'string' || text.length < 1 || text.length > 100) return `${field}: must be 1-100 characters`;
    }
  }
  return undefined;
}
