import { Router } from 'express';
import { ANTHROPIC_DEFAULT_BASE_URL } from '../answer/providers/anthropic.js';
import { OPENAI_DEFAULT_BASE_URL } from '../answer/providers/openai.js';
import type { ProviderName } from '../answer/providers/types.js';
import type { AppContext } from '../context.js';
import { requirePermission } from '../auth/middleware.js';
import { sendData } from '../http/pagination.js';

export interface ProviderInfo {
  provider: ProviderName;
  configured: boolean;
  defaultBaseUrl: string | null;
  defaultModel: string | null;
}

const NAMES: readonly ProviderName[] = ['extractive', 'openai', 'anthropic'];

/**
 * `GET /v1/providers`: which answer providers this server can use as configured, so the
 * dashboard can warn "the server has no key for this provider" before an assistant is saved.
 * `configured` asks the provider itself (its `check` of a model with no base URL of its own):
 * true when the server has its key, or it needs none. Never reveals a key.
 */
export function providersRouter(ctx: AppContext): Router {
  const r = Router();
  const defaultBaseUrl: Record<ProviderName, string | null> = {
    extractive: null,
    openai: ctx.config.openaiBaseUrl ?? OPENAI_DEFAULT_BASE_URL,
    anthropic: ctx.config.anthropicBaseUrl ?? ANTHROPIC_DEFAULT_BASE_URL,
  };
  r.get('/providers', requirePermission('assistants:read'), (_req, res) => {
    const list: ProviderInfo[] = NAMES.map((name) => {
      const provider = ctx.providers[name];
      return {
        provider: name,
        configured: provider !== undefined && !provider.check?.({ provider: name }),
        defaultBaseUrl: defaultBaseUrl[name],
        defaultModel: provider?.defaultModel ?? null,
      };
    });
    sendData(res, list);
  });
  return r;
}
