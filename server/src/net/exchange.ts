import { NetError, netError, type TimeoutPhase } from './errors.js';

/** One request's shared state across its hops: the combined abort signal and its deadlines. */
export interface Exchange {
  signal: AbortSignal;
  /** Aborts the exchange as a `phase` timeout after `ms`; clear the returned timer to call it off. */
  deadline(phase: TimeoutPhase, ms: number): NodeJS.Timeout;
  /** An error of this exchange as a NetError (a timeout when a deadline passed, aborted when the caller left). */
  failure(err: unknown, url: string): NetError;
  /** Clears the total timer and the listener on the caller's signal. */
  end(): void;
}

/** The abort reason of a deadline the client set (not the caller's). */
class Deadline {
  constructor(
    readonly phase: TimeoutPhase,
    readonly ms: number,
  ) {}
}

export function startExchange(req: { signal?: AbortSignal | undefined; totalTimeoutMs?: number | undefined }): Exchange {
  const controller = new AbortController();
  const onAbort = () => controller.abort(req.signal?.reason);
  if (req.signal?.aborted) controller.abort(req.signal.reason);
  else req.signal?.addEventListener('abort', onAbort, { once: true });
  const deadline = (phase: TimeoutPhase, ms: number): NodeJS.Timeout => {
    const timer = setTimeout(() => controller.abort(new Deadline(phase, ms)), ms);
    timer.unref();
    return timer;
  };
  const total = req.totalTimeoutMs === undefined ? undefined : deadline('total', req.totalTimeoutMs);
  return {
    signal: controller.signal,
    deadline,
    failure(err, url) {
      if (err instanceof NetError) return err;
      if (controller.signal.aborted) {
        const reason: unknown = controller.signal.reason;
        if (reason instanceof Deadline)
          return new NetError('timeout', `${url} did not answer within ${reason.ms} ms`, url, { phase: reason.phase, cause: err });
        return new NetError('aborted', 'the request was cancelled', url, { cause: err });
      }
      return netError(err, url);
    },
    end() {
      clearTimeout(total);
      req.signal?.removeEventListener('abort', onAbort);
    },
  };
}
