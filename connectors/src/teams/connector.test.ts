import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../core/logger.js';
import { createParleyClient } from '../core/parley-client.js';
import { SESSION_ID_PATTERN } from '../core/session-id.js';
import { startSettingsWatcher, type SettingsWatcher } from '../core/settings-watcher.js';
import { startFakeBotService, teamsMessageActivity, type FakeBotService } from '../test-support/fake-bot-service.js';
import { startParleyUnderTest, type ParleyUnderTest } from '../test-support/parley-under-test.js';
import { createTeamsConnector, type TeamsConnector } from './connector.js';
import { LOCALES } from '../../../server/src/i18n/locales.js';

/** HS256 token claiming to be for our bot, signed by someone who is not the Bot Framework. */
function selfSignedJwt(): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ iss: 'https://attacker.example', aud: '00000000-0000-0000-0000-000000000001', iat: now, exp: now + 600 })}`;
  return `${unsigned}.${createHmac('sha256', 'attacker-secret').update(unsigned).digest('base64url')}`;
}

type Card = {
  contentType: string;
  content: { body: { text: string }[]; actions?: { type: string; title: string; data: Record<string, string> }[] };
};

/**
 * The real teams-ai Application on a botbuilder CloudAdapter, fed Bot Framework activities over
 * HTTP; replies are captured at a local fake serviceUrl; Parley answers for real.
 */
describe('teams connector', () => {
  let parley: ParleyUnderTest;
  let service: FakeBotService;
  let settings: SettingsWatcher;
  let connector: TeamsConnector;
  let endpoint: string;
  const logger = createMemoryLogger();

  async function startConnector(appId: string) {
    const client = createParleyClient({
      baseUrl: parley.url,
      apiKey: parley.apiKey,
      assistantId: parley.assistantId,
      sleep: async () => {},
    });
    settings = await startSettingsWatcher({ parley: client, intervalMs: 0, logger });
    connector = createTeamsConnector({
      parley: client,
      settings,
      logger,
      appId,
      appPassword: appId ? 'secret' : '',
      tenantId: '',
      port: 0,
      host: '127.0.0.1',
    });
    const { port } = await connector.start();
    endpoint = `http://127.0.0.1:${port}/api/messages`;
  }

  beforeEach(async () => {
    parley = await startParleyUnderTest();
    service = await startFakeBotService();
  });

  afterEach(async () => {
    await connector.stop();
    await service.close();
    await parley.close();
  });

  const send = (activity: Record<string, unknown>, headers: Record<string, string> = {}) =>
    fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(activity) });

  describe('without an app id (emulator mode)', () => {
    beforeEach(() => startConnector(''));

    it('shows typing, then answers a personal message with an Adaptive Card with sources', async () => {
      const activity = teamsMessageActivity({ serviceUrl: service.url, text: 'How do I create an API key?' });
      const res = await send(activity);
      expect(res.status).toBe(200);

      const sent = service.sentActivities();
      expect(sent[0]?.type).toBe('typing');
      const message = sent.find((a) => a.type === 'message');
      const card = (message?.attachments as Card[])[0];
      expect(card?.contentType).toBe('application/vnd.microsoft.card.adaptive');
      const text = card?.content.body.map((b) => b.text).join('\n') ?? '';
      const [exchange] = parley.chatExchanges();
      expect(text).toContain(exchange?.response.response ?? '?');
      expect(text.startsWith('Parley Guide\n')).toBe(true);
      expect(text).toMatch(/\*\*Sources\*\*\n1\. \[[^\]]+\]\(https?:\/\//);
      expect(card?.content.actions?.map((a) => a.title)).toEqual(['👍', '👎']);
      // The reply threads onto the user's activity in the same conversation.
      const replyPath = service.requests.find((r) => (r.body as { type?: string }).type === 'message')?.path;
      expect(replyPath).toBe(`/v3/conversations/a:1personal-chat-id/activities/${activity.id as string}`);

      const chat = exchange!.request;
      expect(chat.sessionId).toBe('teams:a:1personal-chat-id');
      expect(chat.metadata).toMatchObject({ source: 'teams', userId: 'aad-user-1', userName: 'Ada Lovelace', tenantId: 'tenant-1' });
    });

    it('treats "ask <question>" as the ask command and strips the keyword', async () => {
      await send(teamsMessageActivity({ serviceUrl: service.url, text: 'ask how do I install it?' }));
      expect((parley.chatRequests()[0]?.body as { message: string }).message).toBe('how do I install it?');
    });

    it('answers a channel @mention in its thread with a valid, stable session id', async () => {
      const conversationId = '19:general@thread.tacv2;messageid=1700000000000';
      const activity = () =>
        teamsMessageActivity({
          serviceUrl: service.url,
          text: 'where are the docs?',
          mentionBot: true,
          conversationType: 'channel',
          conversationId,
          channelId: '19:general@thread.tacv2',
        });
      await send(activity());
      await send(activity());
      const [first, second] = parley.chatRequests().map((r) => r.body as { message: string; sessionId: string });
      expect(first?.message).toBe('where are the docs?');
      expect(first?.sessionId).toMatch(SESSION_ID_PATTERN);
      expect(first?.sessionId.startsWith('teams:19:general@thread.tacv2_messageid_1700000000000-')).toBe(true);
      expect(second?.sessionId).toBe(first?.sessionId);
    });

    it('stays silent in a channel the settings leave out (applied without restart)', async () => {
      await parley.patchAssistant({ teams: { channels: ['19:other@thread.tacv2'] } });
      await settings.refresh();
      const res = await send(
        teamsMessageActivity({
          serviceUrl: service.url,
          text: 'hello?',
          mentionBot: true,
          conversationType: 'channel',
          conversationId: '19:general@thread.tacv2;messageid=1',
          channelId: '19:general@thread.tacv2',
        }),
      );
      expect(res.status).toBe(200);
      expect(service.sentActivities()).toHaveLength(0);
      expect(parley.chatRequests()).toHaveLength(0);

      await parley.patchAssistant({ teams: { channels: ['19:general@thread.tacv2'] } });
      await settings.refresh();
      await send(
        teamsMessageActivity({
          serviceUrl: service.url,
          text: 'hello?',
          mentionBot: true,
          conversationType: 'channel',
          conversationId: '19:general@thread.tacv2;messageid=1',
          channelId: '19:general@thread.tacv2',
        }),
      );
      expect(parley.chatRequests()).toHaveLength(1);
    });

    it('records feedback from the card buttons', async () => {
      await send(teamsMessageActivity({ serviceUrl: service.url, text: 'Question?' }));
      const card = (service.sentActivities().find((a) => a.type === 'message')?.attachments as Card[])[0];
      const down = card?.content.actions?.[1]?.data;
      await send(teamsMessageActivity({ serviceUrl: service.url, text: '', value: down }));
      const feedback = parley.requests.find((r) => r.path.endsWith('/feedback'));
      expect(feedback?.path).toBe('/v1/conversations/teams:a:1personal-chat-id/feedback');
      expect(feedback?.body).toMatchObject({ rating: 'down', messageId: down?.messageId });
      expect(service.sentActivities().at(-1)).toMatchObject({ type: 'message', text: 'Thanks for your feedback!' });
      // The button's message was not taken for a question.
      expect(parley.chatRequests()).toHaveLength(1);
    });

    it('says "busy" when Parley is rate limited', async () => {
      parley.overrideNextChats(
        ...Array.from({ length: 3 }, () => ({
          status: 429,
          headers: { 'retry-after': '1' },
          body: { error: { code: 'RATE_LIMITED', message: 'slow down' } },
        })),
      );
      await send(teamsMessageActivity({ serviceUrl: service.url, text: 'Hi?' }));
      expect(service.sentActivities().at(-1)).toMatchObject({ type: 'message', text: LOCALES.en!.widget.rateLimited });
    });
  });

  describe('with an app id', () => {
    beforeEach(() => startConnector('00000000-0000-0000-0000-000000000001'));

    it('refuses an unauthenticated request with 401 and does not run the bot', async () => {
      // CloudAdapter console.error()s every refused request; keep the test output readable.
      const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await send(teamsMessageActivity({ serviceUrl: service.url, text: 'let me in' }));
      expect(res.status).toBe(401);
      const garbage = await send(teamsMessageActivity({ serviceUrl: service.url, text: 'let me in' }), {
        authorization: 'Bearer not-a-jwt',
      });
      expect(garbage.status).toBe(401);
      // A well-formed token from an issuer the Bot Framework does not trust (refused before any key lookup, so no network).
      const forged = await send(teamsMessageActivity({ serviceUrl: service.url, text: 'let me in' }), {
        authorization: `Bearer ${selfSignedJwt()}`,
      });
      expect(forged.status).toBe(401);
      expect(parley.chatRequests()).toHaveLength(0);
      expect(service.requests).toHaveLength(0);
      expect(consoleError).toHaveBeenCalled();
      consoleError.mockRestore();
    });
  });
});
