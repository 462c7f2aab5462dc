import pg from 'pg';
import { backoffDelay, type Backoff } from '../../net/backoff.js';
import type { ListenHandlers } from '../port.js';

/** Reconnect waits: full jitter under 250 ms doubling to 10 s (net/backoff.ts), so instances that lost one server together do not return together. */
const RECONNECT: Backoff = { baseMs: 250, maxMs: 10_000 };

/**
 * LISTEN on `channel` on a connection of its own: the pool's settings, outside the pool so it takes
 * no slot of it and does not hold `pool.end()` up, named `<application_name>-listen` in
 * pg_stat_activity. A dropped connection is reconnected with backoff (RECONNECT);
 * `connected` is called after every (re)connect, since notifications sent meanwhile are lost.
 * Returns the stop (PostgresEngine.listen).
 */
export function listenOn(pool: pg.Pool, channel: string, handlers: ListenHandlers): () => void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | null = null;
  /** Reconnects since the last successful LISTEN. */
  let reconnects = 0;

  function connect(): void {
    if (stopped) return;
    const c = new pg.Client({
      ...pool.options,
      application_name: `${pool.options.application_name ?? 'parley'}-listen`,
    } as pg.ClientConfig);
    client = c;
    let lost = false;
    const onLost = (): void => {
      if (lost) return;
      lost = true;
      if (client === c) client = null;
      c.end().catch(() => undefined);
      if (stopped) return;
      setTimeout(connect, backoffDelay(reconnects++, RECONNECT)).unref();
    };
    c.on('error', onLost);
    c.on('end', onLost);
    c.on('notification', () => handlers.notify());
    c.connect()
      .then(() => c.query(`LISTEN ${channel}`))
      .then(() => {
        if (stopped) return void c.end().catch(() => undefined);
        reconnects = 0;
        handlers.connected();
      })
      .catch(onLost);
  }

  connect();
  return () => {
    stopped = true;
    client?.end().catch(() => undefined);
    client = null;
  };
}
