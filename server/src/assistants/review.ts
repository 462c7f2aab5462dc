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
  const problem = provider ? (provider.check?.(config.model) ?? null) : `The model provider "${config.model.provider}" is not configured on this server.`;
  if (problem && opts.modelChanged) throw new AppError('validation_error', problem);
  if (problem) warnings.push(`${problem} Chat requests to this assistant fail until then.`);
  warnings.push(...(provider?.warnings?.(config.model) ?? []), ...promptWarnings(config));
  return warnings;
}
