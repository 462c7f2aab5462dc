import { ActivityTypes, type TurnContext } from 'botbuilder';

/**
 * Shows "typing…" until stopped. Teams clears the indicator after a few seconds, so it is
 * re-sent every `intervalMs`. We keep our own timer per turn instead of teams-ai's
 * startTypingTimer because that one lives on the Application: two users asking at once would
 * share (and stop) one timer.
 */
export function keepTyping(context: TurnContext, intervalMs = 3000): { stop(): Promise<void> } {
  let last: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const send = () => {
    last = context.sendActivity({ type: ActivityTypes.Typing }).catch(() => undefined);
  };
  send();
  const timer = setInterval(() => {
    if (!stopped) send();
  }, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      // Let the last typing activity land first, or it could arrive after the answer and linger.
      await last;
    },
  };
}
