import type { Passage } from '../extractive.js';

export interface HistoryTurn { role: 'user' | 'assistant' | 'human_agent'; content: string }

/** Everything a provider may use to answer; each provider builds its own prompt from it. */
export interface AnswerRequest {
  question: string;
  passages: Passage[];
  history: HistoryTurn[];
  systemPrompt: string;
  variables: Record<string, string>;
  language: string;
  maxResponseLength: number;
  model: { provider: ProviderName; name?: string | undefined; temperature?: number | undefined; baseUrl?: string | undefined };
}

export interface AnswerUsage { promptTokens: number; completionTokens: number }

export type AnswerEvent =
  | { type: 'delta'; text: string }
  | { type: 'done'; finishReason: 'stop' | 'length' | 'no_answer'; usage: AnswerUsage | null; usedPassageIds: string[] | null; coverage: number | null };

export type ProviderName = 'extractive' | 'openai' | 'anthropic';

export interface AnswerProvider {
  readonly name: ProviderName;
  answer(request: AnswerRequest, opts: { signal?: AbortSignal | undefined }): AsyncIterable<AnswerEvent>;
}

export type AnswerProviders = Partial<Record<ProviderName, AnswerProvider>>;
