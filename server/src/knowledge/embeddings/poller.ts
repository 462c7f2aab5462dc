/**
 * The read loop of a poller (replica.ts, pgvector.ts): a read every `pollMs` while started, one
 * read at a time, and a wake-up during a read runs one more after it (so what it was woken for is
 * seen). A failure is reported once per outage (`first`), and the recovery once after it.
 */
export function createPoller(opts: {
  pollMs: number;
  readOnce: () => Promise<void>;
  onFailure: (err: unknown, first: boolean, stopped: boolean) => void;
  onRecovery: () => void;
}) {
  let reading: Promise<void> | null = null;
  let again = false;
  let failing = false;
  /** Reads (a wake-up, `settled`) work before `start` too; only `stop` ends them. */
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  function read(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (reading) {
      again = true;
      return reading;
    }
    again = false;
    reading = opts
      .readOnce()
      .then(() => {
        if (failing) opts.onRecovery();
        failing = false;
      })
      .catch((err: unknown) => {
        opts.onFailure(err, !failing, stopped);
        failing = true;
      })
      .finally(() => {
        reading = null;
        if (again) void read();
      });
    return reading;
  }

  return {
    /** Reads now (unless stopped). */
    read,
    /** Starts the polls; `first` runs before the first read, unless it was already started. */
    start(first?: () => void): void {
      stopped = false;
      if (timer) return;
      first?.();
      timer = setInterval(() => void read(), opts.pollMs);
      timer.unref();
      void read();
    },
    stop(): void {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
    },
    /** Resolves after a full read from now. */
    async settled(): Promise<void> {
      await read();
      if (again || reading) await read();
    },
  };
}
