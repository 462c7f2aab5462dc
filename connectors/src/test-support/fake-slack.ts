import { createHmac } from 'node:crypto';
import { startRecordingServer, type RecordedRequest, type RecordingServer } from './recording-server.js';

/**
 * Slack's side, locally: the Web API methods the connector calls (under `/api/`, so
 * SLACK_API_URL is `<url>/api/` like the real `https://slack.com/api/`) and the response_url
 * endpoints slash commands and block actions reply to (under `/response/`).
 */
export interface FakeSlack extends RecordingServer {
  apiUrl: string;
  responseUrl(id: string): string;
  /** Web API calls by method name, with their form/JSON arguments parsed. */
  apiCalls(method: string): RecordedRequest[];
}

export const SLACK_IDS = { team: 'T0001', channel: 'C0001', user: 'U0001', botUser: 'UBOT01', botId: 'BBOT01' };

export async function startFakeSlack(): Promise<FakeSlack> {
  let ts = 1_700_000_000;
  const server = await startRecordingServer((req) => {
    if (req.path.startsWith('/response/')) return { body: { ok: true } };
    const method = req.path.replace(/^\/api\//, '');
    switch (method) {
      case 'auth.test':
        return {
          body: {
            ok: true,
            url: 'https://acme.slack.com/',
            team: 'Acme',
            user: 'parley',
            team_id: SLACK_IDS.team,
            user_id: SLACK_IDS.botUser,
            bot_id: SLACK_IDS.botId,
          },
        };
      case 'chat.postMessage':
      case 'chat.postEphemeral': {
        ts += 1;
        const args = (req.body ?? {}) as Record<string, unknown>;
        return { body: { ok: true, channel: args.channel, ts: `${ts}.000100`, message: { text: args.text } } };
      }
      default:
        return { body: { ok: false, error: 'unknown_method' } };
    }
  });
  return {
    ...server,
    apiUrl: `${server.url}/api/`,
    responseUrl: (id) => `${server.url}/response/${id}`,
    apiCalls: (method) => server.requests.filter((r) => r.path === `/api/${method}`),
  };
}

/** Slack's request signature: `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{raw body}` with the signing secret. */
export function signSlackRequest(signingSecret: string, body: string, timestamp: number): Record<string, string> {
  const signature = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex');
  return { 'x-slack-signature': `v0=${signature}`, 'x-slack-request-timestamp': String(timestamp) };
}

/** The urlencoded body Slack posts for a slash command. */
export function slashCommandBody(input: {
  text: string;
  command?: string;
  responseUrl: string;
  channelId?: string;
  channelName?: string;
}): string {
  return new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: SLACK_IDS.team,
    team_domain: 'acme',
    channel_id: input.channelId ?? SLACK_IDS.channel,
    channel_name: input.channelName ?? 'general',
    user_id: SLACK_IDS.user,
    user_name: 'ada',
    command: input.command ?? '/parley',
    text: input.text,
    api_app_id: 'A0001',
    is_enterprise_install: 'false',
    response_url: input.responseUrl,
    trigger_id: '123.456.abc',
  }).toString();
}

/** The JSON body of an Events API `app_mention` delivery. */
export function appMentionBody(input: { text: string; ts: string; threadTs?: string; channelId?: string; user?: string }): string {
  return JSON.stringify({
    token: 'legacy-verification-token',
    team_id: SLACK_IDS.team,
    api_app_id: 'A0001',
    type: 'event_callback',
    event_id: `Ev${input.ts.replace('.', '')}`,
    event_time: 1_700_000_000,
    authorizations: [{ team_id: SLACK_IDS.team, user_id: SLACK_IDS.botUser, is_bot: true, is_enterprise_install: false }],
    event: {
      type: 'app_mention',
      user: input.user ?? SLACK_IDS.user,
      text: input.text,
      ts: input.ts,
      ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
      channel: input.channelId ?? SLACK_IDS.channel,
      event_ts: input.ts,
      team: SLACK_IDS.team,
    },
  });
}

/** The urlencoded `payload=` body of a button click (block_actions). */
export function blockActionBody(input: { actionId: string; value: string; responseUrl: string }): string {
  const payload = {
    type: 'block_actions',
    team: { id: SLACK_IDS.team, domain: 'acme' },
    user: { id: SLACK_IDS.user, username: 'ada', team_id: SLACK_IDS.team },
    api_app_id: 'A0001',
    token: 'legacy-verification-token',
    container: { type: 'message', message_ts: '1700000001.000100', channel_id: SLACK_IDS.channel, is_ephemeral: false },
    trigger_id: '123.456.def',
    channel: { id: SLACK_IDS.channel, name: 'general' },
    message: { type: 'message', ts: '1700000001.000100', text: 'answer' },
    response_url: input.responseUrl,
    actions: [
      {
        action_id: input.actionId,
        block_id: 'parley_feedback',
        text: { type: 'plain_text', text: '👍', emoji: true },
        value: input.value,
        type: 'button',
        action_ts: '1700000002.000200',
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
