import pg from 'pg';
import type { ListenHandlers } from '../port.js';

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

/**
 * LISTEN on `channel` on a connection of its own: the pool's settings, outside the pool so it takes
 * no slot of it and does not hold `pool.end()` up, named `<application_name>-listen` in
 * pg_stat_activity. A dropped connection is reconnected with backoff (250 ms doubling to 10 s);
 * `connected` is called after every (re)connect, since notifications sent meanwhile are lost.
 * Returns the stop (PostgresEngine.listen).
 */
export function listenOn(pool: pg.Pool, channel: string, handlers: ListenHandlers): () => void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  let stopped = false;
  let client: pg.Client | null = null;
  let reconnectDelay = RECONNECT_MIN_MS;

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
      const delay = reconnectDelay;
      reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
      setTimeout(connect, delay).unref();
    };
    c.on('error', onLost);
    c.on('end', onLost);
    c.on('notification', () => handlers.notify());
    c.connect()
      .then(() => c.query(`LISTEN ${channel}`))
      .then(() => {
        if (stopped) return void c.end().catch(() => undefined);
        reconnectDelay = RECONNECT_MIN_MS;
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
