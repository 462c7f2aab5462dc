import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/** A throwaway Ed25519 key pair standing in for a Discord application's. */
export function createDiscordTestKeys(): { publicKeyHex: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' });
  return { publicKeyHex: Buffer.from(jwk.x ?? '', 'base64url').toString('hex'), privateKey };
}

/** Signs exactly as Discord does: Ed25519 over timestamp + raw body, hex-encoded. */
export function signDiscordRequest(privateKey: KeyObject, body: string, timestamp: number): Record<string, string> {
  const signature = sign(null, Buffer.from(`${timestamp}${body}`, 'utf8'), privateKey).toString('hex');
  return { 'x-signature-ed25519': signature, 'x-signature-timestamp': String(timestamp), 'content-type': 'application/json' };
}

export const IDS = {
  application: '111111111111111111',
  guild: '333333333333333333',
  channel: '222222222222222222',
  user: '444444444444444444',
};

const user = { id: IDS.user, username: 'ada', discriminator: '0', global_name: 'Ada', avatar: null };

/** The fields every guild interaction carries, as Discord sends them. */
function envelope(i: { type: number; id: string; token: string; channelId: string }) {
  return {
    id: i.id,
    application_id: IDS.application,
    type: i.type,
    token: i.token,
    version: 1,
    guild_id: IDS.guild,
    channel_id: i.channelId,
    channel: { id: i.channelId, type: 0, name: 'general', guild_id: IDS.guild },
    member: { user, roles: [], permissions: '0', joined_at: '2024-01-01T00:00:00.000Z', deaf: false, mute: false, flags: 0 },
    app_permissions: '0',
    locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': IDS.guild },
    context: 0,
  };
}

/** A CHAT_INPUT interaction payload as Discord sends it (gateway dispatch `d` or HTTP body). */
export function slashCommandPayload(input: { question: string; command?: string; token?: string; channelId?: string; id?: string }) {
  return {
    ...envelope({
      type: 2,
      id: input.id ?? '555555555555555555',
      token: input.token ?? 'interaction-token-1',
      channelId: input.channelId ?? IDS.channel,
    }),
    guild_locale: 'en-US',
    data: {
      id: '666666666666666666',
      name: input.command ?? 'ask',
      type: 1,
      options: [{ name: 'question', type: 3, value: input.question }],
    },
  };
}

/** A button click (MESSAGE_COMPONENT) on one of our answers. */
export function buttonPayload(input: { customId: string; token?: string; id?: string }) {
  return {
    ...envelope({ type: 3, id: input.id ?? '777777777777777777', token: input.token ?? 'interaction-token-2', channelId: IDS.channel }),
    message: {
      id: '888888888888888888',
      channel_id: IDS.channel,
      type: 20,
      content: '',
      embeds: [],
      components: [],
      attachments: [],
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: false,
      timestamp: '2024-01-01T00:00:00.000Z',
      edited_timestamp: null,
      flags: 0,
      author: { id: IDS.application, username: 'Parley', discriminator: '0000', avatar: null, bot: true },
    },
    data: { custom_id: input.customId, component_type: 2 },
  };
}
