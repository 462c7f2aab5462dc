import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { sendFeedback } from '../../core/ask-parley.js';
import { describeError } from '../../core/logger.js';
import { FEEDBACK_ACTION_UP, readFeedbackValue } from '../blocks.js';
import type { SlackCommandDeps } from './deps.js';

type Args = Pick<SlackActionMiddlewareArgs<BlockAction<ButtonAction>>, 'ack' | 'action' | 'respond'>;

/** 👍/👎 under an answer: ack, record the rating on that answer's message, thank the clicker only. */
export function createFeedbackListener(deps: SlackCommandDeps) {
  return async ({ ack, action, respond }: Args): Promise<void> => {
    try {
      await ack();
      const target = readFeedbackValue(action.value);
      if (!target) return;
      const result = await sendFeedback(
        deps.parley,
        { sessionId: target.s, messageId: target.m, rating: action.action_id === FEEDBACK_ACTION_UP ? 'up' : 'down' },
        deps.logger,
        deps.settings.current().texts,
      );
      // replace_original: false keeps the answer; the thanks is ephemeral, seen by the clicker alone.
      await respond({ response_type: 'ephemeral', replace_original: false, text: result.message });
    } catch (err) {
      deps.logger.error('slack feedback failed', describeError(err));
    }
  };
}
