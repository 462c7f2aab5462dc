import { promptWarnings } from '../answer/prompt.js';
import type { AnswerProviders } from '../answer/providers/types.js';
import { AppError } from '../http/errors.js';
import type { AssistantConfig } from './schemas.js';

/**
 * Checks an assistant configuration being saved. A model that cannot work on this server (an
 * unconfigured provider, a missing API key) is refused when the model is being set; saved
 * earlier and broken since (the key was removed), it only warns, so unrelated edits still go
 * through. Everything else worth knowing comes back as warnings (`data.warnings`).
 */
export function reviewAssistantConfig(providers: AnswerProviders, config: AssistantConfig, opts: { modelChanged: boolean }): string[] {
  const warnings: string[] = [];
  const provider = providers[config.model.provider];
  const problem = provider
    ? (provider.check?.(config.model) ?? null)
    : `The model provider "${config.model.provider}" is not configured on this server.`;
  if (problem && opts.modelChanged) throw new AppError('validation_error', problem);
  if (problem) warnings.push(`${problem} Chat requests to this assistant fail until then.`);
  warnings.push(...(provider?.warnings?.(config.model) ?? []), ...promptWarnings(config));
  return warnings;
}

/**
 * Where `model.baseUrl` points: refused when the model is being set and the provider's guard
 * refuses the address (loopback, private, link-local/metadata, or a name resolving to one);
 * saved earlier, it only warns (the connection is refused at chat time all the same).
 */
export async function reviewModelBaseUrl(
  providers: AnswerProviders,
  config: AssistantConfig,
  opts: { modelChanged: boolean },
): Promise<string[]> {
  const baseUrl = config.model.baseUrl;
  const provider = providers[config.model.provider];
  if (!baseUrl || !provider?.baseUrlProblem) return [];
  const problem = await provider.baseUrlProblem(baseUrl);
  if (!problem) return [];
  if (opts.modelChanged) throw new AppError('validation_error', `model.baseUrl: ${problem}`);
  return [`model.baseUrl ${problem}. Chat requests to this assistant fail until then.`];
}
