import type { TurnContext } from 'botbuilder';
import { sendFeedback } from '../../core/ask-parley.js';
import { describeError } from '../../core/logger.js';
import { readFeedbackData } from '../card.js';
import type { TeamsCommandDeps } from './deps.js';

/** 👍/👎 (Action.Submit on an answer card, routed by teams-ai's `verb` filter): record it, say thanks. */
export function createFeedbackHandler(deps: TeamsCommandDeps) {
  return async (context: TurnContext, _state: unknown, data: unknown): Promise<void> => {
    try {
      const feedback = readFeedbackData(data);
      if (!feedback) return;
      const result = await sendFeedback(deps.parley, feedback, deps.logger, deps.settings.current().texts);
      await context.sendActivity(result.message);
    } catch (err) {
      deps.logger.error('teams feedback failed', describeError(err));
    }
  };
}
