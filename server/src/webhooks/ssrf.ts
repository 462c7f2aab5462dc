import { describeUrlProblem, outboundUrlProblem } from '../net/address-guard.js';

/** What the private-address guard's refusals tell the operator of a webhook (net/address-guard.ts). */
export const WEBHOOK_PRIVATE_HINT = 'set WEBHOOK_ALLOW_PRIVATE=true to allow';

/**
 * Checks a webhook URL when it is saved: http(s), no credentials, and (unless
 * WEBHOOK_ALLOW_PRIVATE=true) no literal private address or localhost name. Names are resolved,
 * and checked again, at every delivery (the guarded client in net/). Returns the problem, or null.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  const problem = outboundUrlProblem(raw, allowPrivate);
  return problem ? describeUrlProblem(problem, WEBHOOK_PRIVATE_HINT) : null;
}
