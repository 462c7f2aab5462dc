import { describe, expect, it } from 'vitest';
import type { Passage } from './extractive.js';
import { answerWithModel, looksLikeDecline, markerState } from './model-answer.js';
import { ProviderError } from '../net/provider-http.js';
import type { AnswerEvent, AnswerProvider, AnswerRequest } from './providers/types.js';

const shipping: Passage = {
  id: 's',
  title: 'Shipping',
  url: 'https://x.test/shipping',
  headingPath: [],
  score: 1,
  text: 'International delivery takes 7 to 14 business days.',
};
const returns: Passage = {
  id: 'r',
  title: 'Returns',
  url: 'https://x.test/returns',
  headingPath: [],
  score: 0.6,
  text: 'You can return unused items within 30 days.',
};
const off: Passage = { id: 'o', title: 'Gift cards', url: null, headingPath: [], score: 1, text: 'Gift cards never expire.' };

function request(question: string, passages: Passage[], maxResponseLength = 2000): AnswerRequest {
  return {
    question,
    passages,
    history: [],
    systemPrompt: '{{knowledge}}',
    variables: {},
    language: 'en',
    maxResponseLength,
    model: { provider: 'openai' },
  };
}

/** A provider that yields scripted deltas; `gate` lets a test look between them. */
function scripted(deltas: string[], opts: { gate?: (i: number) => Promise<void>; finish?: 'stop' | 'length'; fail?: ProviderError } = {}) {
  const state = { calls: 0, stoppedEarly: false, yielded: 0 };
  const provider: AnswerProvider = {
    name: 'openai',
    async *answer(): AsyncIterable<AnswerEvent> {
      state.calls++;
      let finished = false;
      try {
        for (let i = 0; i < deltas.length; i++) {
          await opts.gate?.(i);
          state.yielded++;
          yield { type: 'delta', text: deltas[i] as string };
        }
        if (opts.fail) throw opts.fail;
        finished = true;
        yield {
          type: 'done',
          finishReason: opts.finish ?? 'stop',
          usage: { promptTokens: 50, completionTokens: deltas.length },
          usedPassageIds: null,
          coverage: null,
        };
      } finally {
        if (!finished) state.stoppedEarly = true;
      }
    },
  };
  return { provider, state };
}

describe('answering with a model', () => {
  it('streams live from the first token when the evidence is strong, and maps citations to sources', async () => {
    const live: string[] = [];
    let seenBeforeSecond: string[] = [];
    const { provider } = scripted(['Delivery ', 'takes 7 to 14 business days [2]', '. Returns: 30 days [1].'], {
      gate: async (i) => {
        if (i === 1) seenBeforeSecond = [...live];
      },
    });
    const m = await answerWithModel({
      provider,
      request: request('How long does international delivery take?', [returns, shipping]),
      threshold: 0.35,
      stream: true,
      onLive: (t) => live.push(t),
    });
    expect(seenBeforeSecond).toEqual(['Delivery']); // out before the provider sent more
    expect(m.outcome).toBe('cited');
    expect(m.text).toBe('Delivery takes 7 to 14 business days [1]. Returns: 30 days [2].');
    expect(m.used.map((p) => p.id)).toEqual(['s', 'r']);
    expect(m.text.startsWith(m.live)).toBe(true);
    expect(m.confidence).toBeGreaterThanOrEqual(0.6);
    expect(m.usage).toEqual({ promptTokens: 50, completionTokens: 3 });
    expect(m.firstTokenMs).not.toBeNull();
  });

  it('holds back text that could be the decline marker; a decline stops the provider and shows nothing', async () => {
    expect(markerState('NO_')).toBe('undecided');
    expect(markerState('**NO_ANSWER**')).toBe('declined');
    expect(markerState('No, we do not')).toBe('answer');
    const live: string[] = [];
    const { provider, state } = scripted(['NO', '_ANS', 'WER', ' (the passages do not say)']);
    const m = await answerWithModel({
      provider,
      request: request('How long does international delivery take?', [shipping]),
      threshold: 0.35,
      stream: true,
      onLive: (t) => live.push(t),
    });
    expect(live).toEqual([]);
    expect(m.outcome).toBe('declined');
    expect(m.text).toBe('');
    expect(m.used).toEqual([]);
    expect(m.confidence).toBeLessThan(0.35);
    expect(state.stoppedEarly).toBe(true);
  });

  it('treats a prose refusal without citations as a decline', async () => {
    expect(looksLikeDecline("I'm sorry, but the passages do not mention that.")).toBe(true);
    expect(looksLikeDecline('The provided knowledge does not cover delivery to Mars.')).toBe(true);
    expect(looksLikeDecline('Delivery takes 7 days.')).toBe(false);
    const { provider } = scripted(["I'm sorry, I couldn't find that in the knowledge base."]);
    const m = await answerWithModel({
      provider,
      request: request('How long does international delivery take?', [shipping]),
      threshold: 0.35,
      stream: false,
    });
    expect(m.outcome).toBe('declined');
  });

  it('on weak evidence, shows nothing until the first citation settles the answer above the threshold', async () => {
    // "delivery" and "take" match; "long", "rocket" and "Mars" do not: with a 0.5 threshold an
    // uncited answer would fall short (0.3 + 0.4 × 0.3), a cited one would not (0.6 + …).
    const question = 'How long does rocket delivery to Mars take?';
    const threshold = 0.5;
    const live: string[] = [];
    let beforeCitation: string[] = ['unset'];
    const { provider } = scripted(['Delivery takes ', '7 to 14 business days', ' [1]', ' in general.'], {
      gate: async (i) => {
        if (i === 2) beforeCitation = [...live];
      },
    });
    const m = await answerWithModel({
      provider,
      request: request(question, [shipping]),
      threshold,
      stream: true,
      onLive: (t) => live.push(t),
    });
    expect(beforeCitation).toEqual([]);
    expect(m.outcome).toBe('cited');
    expect(live.join('')).toBe('Delivery takes 7 to 14 business days [1] in general.');
    expect(m.text).toBe(live.join(''));

    const uncited = scripted(['Rockets are fast.']);
    const u = await answerWithModel({
      provider: uncited.provider,
      request: request(question, [shipping]),
      threshold,
      stream: true,
      onLive: (t) => live.push(t),
    });
    expect(u.outcome).toBe('uncited');
    expect(u.live).toBe('');
    expect(u.confidence).toBeLessThan(threshold);
    expect(u.confidence).toBeGreaterThan(0.3);
  });

  it('does not call the model with no passages, or when even a cited answer would stay below the threshold', async () => {
    const { provider, state } = scripted(['anything']);
    expect((await answerWithModel({ provider, request: request('Anything?', []), threshold: 0.35, stream: false })).outcome).toBe(
      'skipped',
    );
    const strict = await answerWithModel({
      provider,
      request: request('How long does rocket delivery to Mars take?', [off]),
      threshold: 0.9,
      stream: false,
    });
    expect(strict.outcome).toBe('skipped');
    expect(state.calls).toBe(0);
  });

  it('caps the answer at a word and stops the provider once the cut is settled', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i} `);
    const live: string[] = [];
    const { provider, state } = scripted(words);
    const m = await answerWithModel({
      provider,
      request: request('How long does international delivery take?', [shipping], 150),
      threshold: 0.35,
      stream: true,
      onLive: (t) => live.push(t),
    });
    expect(m.text.length).toBeLessThanOrEqual(150);
    expect(m.text).toMatch(/word\d+…$/);
    expect(m.text.startsWith(live.join(''))).toBe(true);
    expect(state.stoppedEarly).toBe(true);
    expect(state.yielded).toBeLessThan(100);
    expect(m.finishReason).toBe('length');
  });

  it('reports a provider failure, keeping what went live', async () => {
    const { provider } = scripted(['Delivery takes '], { fail: new ProviderError('network', 'reset', { retryable: true }) });
    const live: string[] = [];
    const m = await answerWithModel({
      provider,
      request: request('How long does international delivery take?', [shipping]),
      threshold: 0.35,
      stream: true,
      onLive: (t) => live.push(t),
    });
    expect(m.outcome).toBe('failed');
    expect(m.error?.code).toBe('network');
    expect(m.live).toBe('Delivery takes');
  });

  it('rethrows a cancellation', async () => {
    const abort = new AbortController();
    const { provider } = scripted(['a'], { fail: new ProviderError('aborted', 'gone') });
    abort.abort();
    await expect(
      answerWithModel({
        provider,
        request: request('How long does international delivery take?', [shipping]),
        threshold: 0.35,
        stream: true,
        signal: abort.signal,
      }),
    ).rejects.toMatchObject({ code: 'aborted' });
  });
});
