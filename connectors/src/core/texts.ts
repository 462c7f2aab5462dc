/**
 * What a connector says on its own (errors, the sources heading, hints), in the assistant's
 * language: the server keeps the translations (server/src/i18n) and serves them at
 * `GET /v1/assistants/:id/texts`, with the owner's widget texts on top. These English ones are
 * used only until that call has answered, or against a server too old to have it.
 */
export interface BotTexts {
  error: string;
  rateLimited: string;
  timeout: string;
  unreachable: string;
  tooLong: string;
  misconfigured: string;
  gone: string;
  sources: string;
  source: string;
  /** `{percent}` is the answer's confidence, 0-100. */
  confidence: string;
  feedbackThanks: string;
  feedbackExpired: string;
  /** `{example}` is a usage example built from `exampleQuestion`. */
  askHint: string;
  exampleQuestion: string;
}

export const ENGLISH_TEXTS: BotTexts = {
  error: 'Sorry, something went wrong while I was answering. Please try again.',
  rateLimited: "I'm busy, try again in a minute.",
  timeout: 'Sorry, that took too long to answer. Please try again in a moment.',
  unreachable: "Sorry, I can't reach my knowledge service right now. Please try again shortly.",
  tooLong: "Sorry, I couldn't process that question. Try a shorter question (at most 4,000 characters).",
  misconfigured: "Sorry, I'm not configured correctly (my access to the assistant was refused). Please tell an administrator.",
  gone: "Sorry, the assistant I'm connected to doesn't exist anymore. Please tell an administrator.",
  sources: 'Sources',
  source: 'Source',
  confidence: 'Confidence {percent}%',
  feedbackThanks: 'Thanks for your feedback!',
  feedbackExpired: 'This feedback button has expired.',
  askHint: 'Ask me something, e.g. {example}',
  exampleQuestion: 'How do I reset my password?',
};

const KEYS = Object.keys(ENGLISH_TEXTS) as (keyof BotTexts)[];

/** The `data` of the texts endpoint, read defensively: a missing or empty text keeps the English one. */
export function parseBotTexts(data: unknown): BotTexts {
  const strings = (data as { strings?: unknown } | null)?.strings;
  const given = typeof strings === 'object' && strings !== null ? (strings as Record<string, unknown>) : {};
  const texts = { ...ENGLISH_TEXTS };
  for (const key of KEYS) {
    const value = given[key];
    if (typeof value === 'string' && value.trim() !== '') texts[key] = value;
  }
  return texts;
}

/** Fills `{name}`-style placeholders. */
export function fillText(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

export const confidenceLine = (texts: BotTexts, confidence: number): string =>
  fillText(texts.confidence, { percent: Math.round(confidence * 100) });

/** "Ask me something, e.g. /ask How do I reset my password?": `usage` turns the example question into a command. */
export const askHint = (texts: BotTexts, usage: (question: string) => string): string =>
  fillText(texts.askHint, { example: usage(texts.exampleQuestion) });
