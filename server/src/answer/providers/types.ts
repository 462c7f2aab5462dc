import type { Passage } from '../extractive.js';

export interface HistoryTurn {
  role: 'user' | 'assistant' | 'human_agent';
  content: string;
}

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

export interface AnswerUsage {
  promptTokens: number;
  completionTokens: number;
}

export type AnswerEvent =
  | { type: 'delta'; text: string }
  | {
      type: 'done';
      finishReason: 'stop' | 'length' | 'no_answer';
      usage: AnswerUsage | null;
      usedPassageIds: string[] | null;
      coverage: number | null;
    };

export type ProviderName = 'extractive' | 'openai' | 'anthropic';

export interface AnswerOptions {
  signal?: AbortSignal | undefined;
  /** Ask the provider to stream (SSE) rather than answer in one JSON body; deltas come either way. */
  stream?: boolean | undefined;
}

export interface AnswerProvider {
  readonly name: ProviderName;
  answer(request: AnswerRequest, opts: AnswerOptions): AsyncIterable<AnswerEvent>;
  /** Why this model configuration cannot work on this server (a missing API key), or null. */
  check?(model: AnswerRequest['model']): string | null;
  /**
   * Why `model.baseUrl` may not be used (a private address: model-url-guard.ts), checked when an
   * assistant is saved; the connection is guarded again when it is made.
   */
  baseUrlProblem?(baseUrl: string): Promise<string | null>;
  /** Advice about a model configuration that works but may surprise (defaults, clamped values). */
  warnings?(model: AnswerRequest['model']): string[];
  /** The model name used when `model.name` is absent. */
  readonly defaultModel?: string;
}

export type AnswerProviders = Partial<Record<ProviderName, AnswerProvider>>;
