import type { REST } from '@discordjs/rest';
import { InteractionResponseType, MessageFlags, Routes } from 'discord-api-types/v10';
import { toApiMessage } from './message.js';
import type { InteractionReplier } from './replier.js';

/**
 * HTTP-mode replier: the initial response IS the HTTP response to Discord's POST; later edits
 * and follow-ups go to the interaction webhook with the interaction token (no bot token: the
 * token in the path is the credential, hence `auth: false`).
 */
export function createHttpReplier(input: {
  respond: (body: Record<string, unknown>) => void;
  rest: REST;
  applicationId: string;
  token: string;
}): InteractionReplier & { readonly responded: boolean } {
  // 'deferred' may have been set by the endpoint's safety net before the command got to it.
  let state: 'none' | 'deferred' | 'replied' = 'none';
  const replier: InteractionReplier & { readonly responded: boolean } = {
    get responded() {
      return state !== 'none';
    },
    async reply(message) {
      if (state === 'deferred') return replier.edit(message);
      if (state === 'replied') throw new Error('interaction already answered');
      state = 'replied';
      input.respond({ type: InteractionResponseType.ChannelMessageWithSource, data: toApiMessage(message) });
    },
    async defer({ ephemeral }) {
      if (state === 'deferred') return;
      if (state === 'replied') throw new Error('interaction already answered');
      state = 'deferred';
      input.respond({
        type: InteractionResponseType.DeferredChannelMessageWithSource,
        ...(ephemeral ? { data: { flags: MessageFlags.Ephemeral } } : {}),
      });
    },
    async edit(message) {
      await input.rest.patch(Routes.webhookMessage(input.applicationId, input.token, '@original'), {
        body: toApiMessage(message),
        auth: false,
      });
    },
    async followUp(message) {
      await input.rest.post(Routes.webhook(input.applicationId, input.token), { body: toApiMessage(message), auth: false });
    },
  };
  return replier;
}
