import { startRecordingServer, type RecordedRequest, type RecordingServer } from './recording-server.js';

/**
 * The Bot Framework channel's side for Teams: the `serviceUrl` a bot replies to. Replies arrive
 * as `POST /v3/conversations/:conversationId/activities/:replyToId` (or without the id).
 */
export interface FakeBotService extends RecordingServer {
  /** Activities the bot sent, in order, with `type`, `text`, `attachments`. */
  sentActivities(): Record<string, unknown>[];
}

export async function startFakeBotService(): Promise<FakeBotService> {
  let counter = 0;
  const server = await startRecordingServer((req) => {
    if (req.method === 'POST' && /^\/v3\/conversations\/[^/]+\/activities(\/[^/]+)?$/.test(req.path)) {
      counter += 1;
      return { body: { id: `reply-${counter}` } };
    }
    return { status: 404, body: { error: { code: 'NotFound', message: req.path } } };
  });
  return {
    ...server,
    sentActivities: () => server.requests.filter(isActivityPost).map((r) => r.body as Record<string, unknown>),
  };
}

function isActivityPost(req: RecordedRequest): boolean {
  return req.method === 'POST' && req.path.startsWith('/v3/conversations/');
}

let activityCounter = 0;

/** A message activity as Teams delivers it, replying to `serviceUrl`. */
export function teamsMessageActivity(input: {
  serviceUrl: string;
  text: string;
  conversationId?: string;
  conversationType?: 'personal' | 'channel' | 'groupChat';
  channelId?: string;
  value?: unknown;
  mentionBot?: boolean;
}): Record<string, unknown> {
  activityCounter += 1;
  const bot = { id: '28:bot-id', name: 'Parley' };
  const text = input.mentionBot ? `<at>Parley</at> ${input.text}` : input.text;
  return {
    type: 'message',
    id: `activity-${activityCounter}`,
    timestamp: new Date().toISOString(),
    serviceUrl: input.serviceUrl,
    channelId: 'msteams',
    from: { id: '29:user-id', name: 'Ada Lovelace', aadObjectId: 'aad-user-1' },
    conversation: {
      id: input.conversationId ?? 'a:1personal-chat-id',
      conversationType: input.conversationType ?? 'personal',
      tenantId: 'tenant-1',
    },
    recipient: bot,
    text,
    textFormat: 'plain',
    locale: 'en-US',
    ...(input.value === undefined ? {} : { value: input.value }),
    ...(input.mentionBot ? { entities: [{ type: 'mention', text: '<at>Parley</at>', mentioned: bot }] } : {}),
    channelData: {
      tenant: { id: 'tenant-1' },
      ...(input.channelId ? { channel: { id: input.channelId }, team: { id: '19:team-id@thread.tacv2' } } : {}),
    },
  };
}
