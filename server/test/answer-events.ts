import type { AnswerEvent } from '../src/answer/providers/types.js';

/** Drains a provider's answer stream into an array, for assertions on the whole sequence. */
export async function collectEvents(stream: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const out: AnswerEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

/** The text the deltas of a stream add up to. */
export const textOf = (events: AnswerEvent[]): string => events.flatMap((e) => (e.type === 'delta' ? [e.text] : [])).join('');
