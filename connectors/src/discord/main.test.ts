import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordTestKeys, IDS, signDiscordRequest } from '../test-support/discord-interactions.js';
import { startFakeDiscordApi } from '../test-support/fake-discord-api.js';
import { startParleyUnderTest } from '../test-support/parley-under-test.js';
import { portFromLog, spawnConnector, type SpawnedConnector } from '../test-support/spawn-connector.js';

/** `npm run connector:discord` in http mode as a process, configured only through its documented env. */
describe('discord main.ts', () => {
  let proc: SpawnedConnector | undefined;
  afterEach(async () => {
    await proc?.stop();
  });

  it('registers the command at DISCORD_API_URL and answers a signed PING', async () => {
    const parley = await startParleyUnderTest();
    const discord = await startFakeDiscordApi();
    const keys = createDiscordTestKeys();
    try {
      proc = spawnConnector('discord', {
        PARLEY_URL: parley.url,
        PARLEY_API_KEY: parley.apiKey,
        PARLEY_ASSISTANT_ID: parley.assistantId,
        PORT: '0',
        DISCORD_MODE: 'http',
        DISCORD_TOKEN: 'bot-token',
        DISCORD_APPLICATION_ID: IDS.application,
        DISCORD_PUBLIC_KEY: keys.publicKeyHex,
        DISCORD_GUILD_ID: IDS.guild,
        DISCORD_API_URL: discord.apiUrl,
      });
      const port = portFromLog(await proc.waitForLog((e) => e.msg === 'discord interactions endpoint listening'));
      expect(discord.calls().find((c) => c.method === 'PUT')?.path).toBe(`/applications/${IDS.application}/guilds/${IDS.guild}/commands`);
      const body = JSON.stringify({ type: 1, id: '1', application_id: IDS.application, token: 't', version: 1 });
      const res = await fetch(`http://127.0.0.1:${port}/interactions`, {
        method: 'POST',
        headers: signDiscordRequest(keys.privateKey, body, Math.floor(Date.now() / 1000)),
        body,
      });
      expect(await res.json()).toEqual({ type: 1 });
    } finally {
      await proc?.stop();
      await discord.close();
      await parley.close();
    }
  }, 30_000);

  it('refuses an unknown DISCORD_MODE', async () => {
    proc = spawnConnector('discord', {
      PARLEY_URL: 'http://127.0.0.1:9',
      PARLEY_API_KEY: 'k',
      PARLEY_ASSISTANT_ID: 'a',
      DISCORD_TOKEN: 't',
      DISCORD_APPLICATION_ID: '1',
      DISCORD_MODE: 'webhook',
    });
    expect(await proc.exited).toBe(1);
    expect(proc.stderr()).toContain('DISCORD_MODE must be');
  }, 30_000);

  it('names every missing variable at once, the public key HTTP mode needs among them', async () => {
    proc = spawnConnector('discord', {
      PARLEY_URL: 'http://127.0.0.1:9',
      PARLEY_API_KEY: ' ',
      PARLEY_ASSISTANT_ID: 'a',
      DISCORD_APPLICATION_ID: '1',
      DISCORD_MODE: 'http',
    });
    expect(await proc.exited).toBe(1);
    const required = (name: string) => `${name} is required (see the .env.example next to this connector)`;
    expect(proc.stderr()).toContain(
      `discord connector failed to start: ${[required('PARLEY_API_KEY'), required('DISCORD_TOKEN'), required('DISCORD_PUBLIC_KEY')].join('; ')}\n`,
    );
  }, 30_000);
});
