// The assistant record as the API returns it (docs/api-spec.md §6) and the lists the assistant pages read.

export const ASSISTANT_TYPES = ['web', 'api', 'discord', 'slack', 'teams'] as const;
export type AssistantType = (typeof ASSISTANT_TYPES)[number];
export const TYPE_LABELS: Record<AssistantType, string> = {
  web: 'Website widget',
  api: 'API',
  discord: 'Discord bot',
  slack: 'Slack app',
  teams: 'Microsoft Teams bot',
};

export type Provider = 'extractive' | 'openai' | 'anthropic';
export type MatchKind = 'exact' | 'contains' | 'regex';

export interface Template {
  id?: string;
  trigger: string;
  match: MatchKind;
  response: string;
}

export interface WidgetSettings {
  theme: 'light' | 'dark' | 'custom';
  colors: { primary: string; background: string; text: string } | null;
  position: 'bottom-right' | 'bottom-left' | 'top-right' | 'top-left';
  initialState: 'collapsed' | 'expanded';
  welcomeMessage: string;
  iconUrl: string | null;
  allowedOrigins: string[];
  /** The owner's own widget texts by key (docs/api-spec.md §12); absent keys use the language's. */
  strings?: Record<string, string>;
}

export interface Assistant {
  id: string;
  organizationId: string;
  type: AssistantType;
  name: string;
  description: string | null;
  avatarUrl: string | null;
  model: { provider: Provider; name?: string; temperature?: number; baseUrl?: string };
  language: string;
  historyLimit: number;
  maxResponseLength: number;
  systemPrompt: string;
  variables: Record<string, string>;
  knowledgeBases: Array<{ id: string; priority: number }>;
  templates: Template[];
  fallback: {
    message: string;
    handoff: { enabled: boolean; message: string; url?: string | null; email?: string | null };
    suggestions: boolean;
    collectFeedback: boolean;
  };
  confidenceThreshold: number;
  widget: WidgetSettings;
  discord: { botName: string | null; description: string; avatarUrl: string | null; command: string; channels: string[] };
  slack: { botName: string | null; command: string; channels: string[] };
  teams: { botName: string | null; channels: string[] };
  createdAt: string;
  updatedAt: string;
  /** Added to list items by the dashboard contract (conversations in the last 7 days). */
  stats?: { conversations7d: number };
  /** Returned by POST and PATCH: what the server thinks the owner should know. */
  warnings?: string[];
}

export interface KnowledgeBaseSummary {
  id: string;
  name: string;
  description: string | null;
  documentCount: number;
  chunkCount: number;
}

export interface ProviderInfo {
  provider: Provider;
  configured: boolean;
  defaultBaseUrl: string | null;
  defaultModel: string | null;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  last4: string;
  permissions: string[];
  assistantId: string | null;
  allowedIps: string[];
  rateLimit: { perMinute?: number; perDay?: number } | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  key?: string;
}
