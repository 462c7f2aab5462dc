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
  /** Slack's line above an answer to a slash command: `{user}` is the asker's mention, `{question}` the question. */
  askedBy: string;
  /** `{name}` is the bot's name. */
  notActive: string;
  /** `{name}` is the bot's name, `{command}` the configured command. */
  wrongCommand: string;
  commandGone: string;
  notHandled: string;
  /** Stands in for an empty answer. */
  noAnswer: string;
  /** Discord's command description when the owner wrote none: `{name}` is the assistant's name. */
  askCommand: string;
  /** Discord's description of the command's question option. */
  askOption: string;
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
  askedBy: '{user} asked: {question}',
  notActive: '{name} is not active in this channel.',
  wrongCommand: 'This command is not configured for {name}. Use {command} instead.',
  commandGone: 'That command is no longer available. Please use the current one.',
  notHandled: 'Sorry, I could not handle that.',
  noAnswer: 'no answer',
  askCommand: 'Ask {name} a question',
  askOption: 'What do you want to know?',
};

/** The texts a platform shows each reader in the reader's own language (Discord's command descriptions). */
export const LOCALIZED_KEYS = ['askCommand', 'askOption'] as const;
/** Per key, the text in each language Parley has (`{ askOption: { de: 'Was möchten Sie wissen?', … } }`). */
export type TextLocalizations = Record<(typeof LOCALIZED_KEYS)[number], Readonly<Record<string, string>>>;
export const NO_LOCALIZATIONS: TextLocalizations = { askCommand: {}, askOption: {} };

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

/** The `localizations` of the texts endpoint, read defensively: only non-empty strings under a language code. */
export function parseTextLocalizations(data: unknown): TextLocalizations {
  const given = (data as { localizations?: unknown } | null)?.localizations;
  const all = typeof given === 'object' && given !== null ? (given as Record<string, unknown>) : {};
  const parsed = { ...NO_LOCALIZATIONS };
  for (const key of LOCALIZED_KEYS) {
    const byLanguage = all[key];
    if (typeof byLanguage !== 'object' || byLanguage === null) continue;
    parsed[key] = Object.fromEntries(
      Object.entries(byLanguage).filter(
        ([language, text]) => /^[a-z]{2,3}$/.test(language) && typeof text === 'string' && text.trim() !== '',
      ),
    );
  }
  return parsed;
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
