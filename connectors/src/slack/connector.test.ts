import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../core/logger.js';
import { createParleyClient } from '../core/parley-client.js';
import { startSettingsWatcher, type SettingsWatcher } from '../core/settings-watcher.js';
import {
  appMentionBody,
  blockActionBody,
  signSlackRequest,
  slashCommandBody,
  SLACK_IDS,
  startFakeSlack,
  type FakeSlack,
} from '../test-support/fake-slack.js';
import { startParleyUnderTest, type ParleyUnderTest } from '../test-support/parley-under-test.js';
import { createSlackConnector, type SlackConnector } from './connector.js';
import { markdownToMrkdwn } from './mrkdwn.js';
import { LOCALES } from '../../../server/src/i18n/locales.js';

const SIGNING_SECRET = 'test-signing-secret';

type Block = { type: string; text?: { text: string }; elements?: { action_id?: string; value?: string; text?: string }[] };

/**
 * The real Bolt App and HTTPReceiver, fed signed requests exactly as Slack sends them, talking
 * to a local fake Web API and response_url, with Parley answering for real.
 */
describe('slack connector (HTTP receiver)', () => {
  let parley: ParleyUnderTest;
  let slack: FakeSlack;
  let settings: SettingsWatcher;
  let connector: SlackConnector;
  let endpoint: string;
  const logger = createMemoryLogger();

  beforeEach(async () => {
    parley = await startParleyUnderTest();
    slack = await startFakeSlack();
    const client = createParleyClient({
      baseUrl: parley.url,
      apiKey: parley.apiKey,
      assistantId: parley.assistantId,
      sleep: async () => {},
    });
    settings = await startSettingsWatcher({ parley: client, intervalMs: 0, logger });
    connector = createSlackConnector({
      parley: client,
      settings,
      logger,
      botToken: 'xoxb-test',
      signingSecret: SIGNING_SECRET,
      slackApiUrl: slack.apiUrl,
      port: 0,
      host: '127.0.0.1',
    });
    const { port } = await connector.start();
    endpoint = `http://127.0.0.1:${port}/slack/events`;
  });

  afterEach(async () => {
    await connector.stop();
    await slack.close();
    await parley.close();
  });

  async function send(body: string, contentType: string, opts: { timestamp?: number; secret?: string } = {}) {
    const headers = {
      'content-type': contentType,
      ...signSlackRequest(opts.secret ?? SIGNING_SECRET, body, opts.timestamp ?? Math.floor(Date.now() / 1000)),
    };
    const res = await fetch(endpoint, { method: 'POST', headers, body });
    return { status: res.status, text: await res.text() };
  }
  const form = 'application/x-www-form-urlencoded';
  const json = 'application/json';

  it('acks a slash command at once, then answers in the channel through response_url in Block Kit', async () => {
    const res = await send(slashCommandBody({ text: 'How do I create an API key?', responseUrl: slack.responseUrl('cmd1') }), form);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');

    const reply = await slack.waitFor((r) => r.path === '/response/cmd1');
    const body = reply.body as { response_type: string; text: string; blocks: Block[] };
    expect(body.response_type).toBe('in_channel');
    expect(body.blocks[0]).toMatchObject({ type: 'context' });
    expect(body.blocks[0]?.elements?.[0]?.text).toBe(`<@${SLACK_IDS.user}> asked: How do I create an API key?`);
    const section = body.blocks.find((b) => b.type === 'section');
    const [exchange] = parley.chatExchanges();
    expect(section?.text?.text.startsWith(markdownToMrkdwn(exchange?.response.response ?? '?'))).toBe(true);
    expect(section?.text?.text).toContain(`1. <${exchange?.response.sources[0]?.url}|${exchange?.response.sources[0]?.title}>`);
    expect(section?.text?.text).toMatch(/\*Sources\*\n1\. <https?:\/\/[^|>]+\|[^>]+>/);
    const actions = body.blocks.find((b) => b.type === 'actions');
    expect(actions?.elements?.map((e) => e.action_id)).toEqual(['parley_feedback_up', 'parley_feedback_down']);

    const chat = parley.chatRequests()[0]?.body as { sessionId: string; metadata: Record<string, string> };
    expect(chat.sessionId).toBe(`slack:${SLACK_IDS.team}:${SLACK_IDS.channel}:${SLACK_IDS.user}`);
    expect(chat.metadata).toMatchObject({ source: 'slack', userId: SLACK_IDS.user, teamId: SLACK_IDS.team, channelId: SLACK_IDS.channel });
  });

  it('rejects a bad signature and a stale timestamp before anything runs', async () => {
    const body = slashCommandBody({ text: 'Hi', responseUrl: slack.responseUrl('bad') });
    expect((await send(body, form, { secret: 'not-the-secret' })).status).toBe(401);
    expect((await send(body, form, { timestamp: Math.floor(Date.now() / 1000) - 10 * 60 })).status).toBe(401);
    expect((await fetch(endpoint, { method: 'POST', headers: { 'content-type': form }, body })).status).toBe(401);
    expect(parley.chatRequests()).toHaveLength(0);
    expect(slack.requests.filter((r) => r.path.startsWith('/response/'))).toHaveLength(0);
  });

  it('answers an @mention in its thread, and keeps one session per thread', async () => {
    const first = await send(appMentionBody({ text: `<@${SLACK_IDS.botUser}> how do I install it?`, ts: '1700000100.000001' }), json);
    expect(first.status).toBe(200);
    const post = await slack.waitFor((r) => r.path === '/api/chat.postMessage');
    const args = post.body as { channel: string; thread_ts: string; blocks: string; text: string };
    expect(args.channel).toBe(SLACK_IDS.channel);
    expect(args.thread_ts).toBe('1700000100.000001');
    expect(post.headers.authorization).toBe('Bearer xoxb-test');
    const blocks = JSON.parse(args.blocks) as Block[];
    const [exchange] = parley.chatExchanges();
    expect(exchange?.request.message).toBe('how do I install it?');
    expect(blocks.find((b) => b.type === 'section')?.text?.text.startsWith(markdownToMrkdwn(exchange?.response.response ?? '?'))).toBe(
      true,
    );

    await send(appMentionBody({ text: `<@${SLACK_IDS.botUser}> and then?`, ts: '1700000200.000001', threadTs: '1700000100.000001' }), json);
    await slack.waitFor(
      (r) =>
        r.path === '/api/chat.postMessage' &&
        (r.body as { thread_ts: string }).thread_ts === '1700000100.000001' &&
        slack.apiCalls('chat.postMessage').length === 2,
    );
    const sessions = parley.chatRequests().map((r) => r.body as { sessionId: string; message: string });
    expect(sessions.map((s) => s.message)).toEqual(['how do I install it?', 'and then?']);
    expect(new Set(sessions.map((s) => s.sessionId))).toEqual(new Set([`slack:${SLACK_IDS.team}:${SLACK_IDS.channel}:1700000100.000001`]));
  });

  it('records feedback from a 👍 click and thanks the clicker ephemerally', async () => {
    await send(slashCommandBody({ text: 'Question?', responseUrl: slack.responseUrl('cmd2') }), form);
    const reply = await slack.waitFor((r) => r.path === '/response/cmd2');
    const button = (reply.body as { blocks: Block[] }).blocks.find((b) => b.type === 'actions')?.elements?.[0];

    const res = await send(
      blockActionBody({ actionId: button?.action_id ?? '', value: button?.value ?? '', responseUrl: slack.responseUrl('act1') }),
      form,
    );
    expect(res.status).toBe(200);
    const thanks = await slack.waitFor((r) => r.path === '/response/act1');
    expect(thanks.body).toMatchObject({ response_type: 'ephemeral', replace_original: false, text: 'Thanks for your feedback!' });
    const feedback = parley.requests.find((r) => r.path.endsWith('/feedback'));
    expect(feedback?.path).toBe(`/v1/conversations/slack:${SLACK_IDS.team}:${SLACK_IDS.channel}:${SLACK_IDS.user}/feedback`);
    expect(feedback?.body).toMatchObject({ rating: 'up' });
  });

  it('stays silent in a channel the settings leave out, and picks up the change without restart', async () => {
    await parley.patchAssistant({ slack: { channels: ['C9999'] } });
    await settings.refresh();
    const res = await send(slashCommandBody({ text: 'Hello?', responseUrl: slack.responseUrl('inactive') }), form);
    expect(JSON.parse(res.text)).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('not active in this channel') });
    await send(appMentionBody({ text: `<@${SLACK_IDS.botUser}> hello?`, ts: '1700000300.000001' }), json);
    // Give Bolt time to (not) answer before asserting silence.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(slack.apiCalls('chat.postMessage')).toHaveLength(0);
    expect(parley.chatRequests()).toHaveLength(0);
  });

  it('replies with a friendly, private message when Parley fails', async () => {
    parley.overrideNextChats(
      ...Array.from({ length: 3 }, () => ({ status: 503, body: { error: { code: 'INTERNAL_ERROR', message: 'down' } } })),
    );
    await send(slashCommandBody({ text: 'Are you up?', responseUrl: slack.responseUrl('down') }), form);
    const reply = await slack.waitFor((r) => r.path === '/response/down');
    expect(reply.body).toMatchObject({ response_type: 'ephemeral', text: LOCALES.en!.widget.error });
    expect(parley.chatRequests()).toHaveLength(3);
  });

  it("speaks the assistant's language: sources heading, confidence, hints, thanks and failures (issue 25)", async () => {
    await parley.patchAssistant({ language: 'de-AT' });
    await settings.refresh();
    const de = LOCALES.de!;
    await send(slashCommandBody({ text: 'How do I create an API key?', responseUrl: slack.responseUrl('de1') }), form);
    const reply = await slack.waitFor((r) => r.path === '/response/de1');
    const blocks = (reply.body as { blocks: Block[] }).blocks;
    expect(blocks.find((b) => b.type === 'section')?.text?.text).toMatch(/\*Quellen\*\n1\. </);
    expect(blocks.at(-2)?.elements?.[0]?.text).toMatch(/ · Konfidenz \d+ %$/);
    const button = blocks.find((b) => b.type === 'actions')?.elements?.[0];
    await send(
      blockActionBody({ actionId: button?.action_id ?? '', value: button?.value ?? '', responseUrl: slack.responseUrl('de2') }),
      form,
    );
    expect((await slack.waitFor((r) => r.path === '/response/de2')).body).toMatchObject({ text: de.connector.feedbackThanks });
    const hint = await send(slashCommandBody({ text: ' ', responseUrl: slack.responseUrl('de3') }), form);
    expect(JSON.parse(hint.text).text).toBe(`Fragen Sie mich etwas, z. B. \`/parley ${de.connector.exampleQuestion}\``);
    parley.overrideNextChats({ status: 400, body: { error: { code: 'validation_error', message: 'message: too long' } } });
    await send(slashCommandBody({ text: 'x', responseUrl: slack.responseUrl('de4') }), form);
    expect((await slack.waitFor((r) => r.path === '/response/de4')).body).toMatchObject({ text: de.connector.tooLong });
    // The owner's own widget text for "Sources" is the bots' too.
    await parley.patchAssistant({ widget: { strings: { sources: 'Mehr dazu' } } });
    await settings.refresh();
    await send(slashCommandBody({ text: 'How do I create an API key?', responseUrl: slack.responseUrl('de5') }), form);
    const renamed = (await slack.waitFor((r) => r.path === '/response/de5')).body as { blocks: Block[] };
    expect(renamed.blocks.find((b) => b.type === 'section')?.text?.text).toContain('*Mehr dazu*');
  });

  it("says who asked, a wrong command, an inactive channel and an empty answer in the assistant's language (issue 25)", async () => {
    await parley.patchAssistant({ language: 'tr' });
    await settings.refresh();
    const tr = LOCALES.tr!.connector;
    const botName = settings.current().slack.botName;
    await send(slashCommandBody({ text: 'API anahtarı <nasıl> oluşturulur?', responseUrl: slack.responseUrl('tr1') }), form);
    const reply = await slack.waitFor((r) => r.path === '/response/tr1');
    // The mention stays a live mention; the question is escaped like any text.
    expect((reply.body as { blocks: Block[] }).blocks[0]?.elements?.[0]?.text).toBe(
      `<@${SLACK_IDS.user}> sordu: API anahtarı &lt;nasıl&gt; oluşturulur?`,
    );

    const wrong = await send(slashCommandBody({ text: 'Merhaba', command: '/other', responseUrl: slack.responseUrl('tr2') }), form);
    expect(JSON.parse(wrong.text)).toMatchObject({
      response_type: 'ephemeral',
      text: `Bu komut ${botName} için yapılandırılmamış. Bunun yerine /parley komutunu kullanın.`,
    });

    parley.overrideNextChats({ body: { response: '', sessionId: 's', confidence: 0, sources: [], messageId: 'm1' } });
    await send(slashCommandBody({ text: 'Merhaba', responseUrl: slack.responseUrl('tr3') }), form);
    const empty = (await slack.waitFor((r) => r.path === '/response/tr3')).body as { blocks: Block[] };
    expect(empty.blocks.find((b) => b.type === 'section')?.text?.text).toBe(`_(${tr.noAnswer})_`);

    await parley.patchAssistant({ slack: { channels: ['C9999'] } });
    await settings.refresh();
    const inactive = await send(slashCommandBody({ text: 'Merhaba', responseUrl: slack.responseUrl('tr4') }), form);
    expect(JSON.parse(inactive.text)).toMatchObject({ response_type: 'ephemeral', text: tr.notActive.replace('{name}', botName) });
    expect(parley.chatRequests()).toHaveLength(2);
  });

  it('answers the Events API URL verification handshake', async () => {
    const res = await send(JSON.stringify({ token: 't', challenge: 'abc123', type: 'url_verification' }), json);
    expect(res.status).toBe(200);
    expect(res.text).toContain('abc123');
  });

  it('hints at usage for an empty slash command without calling Parley', async () => {
    const res = await send(slashCommandBody({ text: '   ', responseUrl: slack.responseUrl('empty') }), form);
    expect(JSON.parse(res.text)).toMatchObject({ response_type: 'ephemeral', text: expect.stringContaining('/parley') });
    expect(parley.chatRequests()).toHaveLength(0);
  });
});
