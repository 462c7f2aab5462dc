/** Wire shapes of the Parley endpoints the connectors use (docs/api-spec.md §6, §7). */

export type ConnectorSource = 'discord' | 'slack' | 'teams';

export interface ChatSource {
  title: string;
  url: string;
}

/** 200 body of `POST /v1/integrations/:id/chat` (bare, no envelope). */
export interface ChatAnswer {
  response: string;
  sessionId: string;
  confidence: number;
  sources: ChatSource[];
  /** Needed for feedback buttons; a server that omits it simply gets no buttons. */
  messageId?: string;
}

/** `metadata` of a chat request: who asked and from where, for analytics filters (§8). */
export interface ChatMetadata {
  source: ConnectorSource;
  userId: string;
  [key: string]: string | undefined;
}

export interface ChatRequest {
  message: string;
  sessionId: string;
  metadata: ChatMetadata;
}

export type FeedbackRating = 'up' | 'down';

export interface FeedbackRequest {
  messageId: string;
  rating: FeedbackRating;
}
