import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';

/** The Redis the tests use: REDIS_TEST_URL, else the loopback default that CI starts. */
export const REDIS_TEST_URL = process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379';

/**
 * An admin connection to the test Redis, and a key prefix of this test file's own. Throws (the
 * file fails, loudly) when Redis does not answer: these tests never skip themselves.
 */
export async function connectTestRedis(): Promise<{ admin: Redis; prefix: string; cleanup(): Promise<void> }> {
  const admin = new Redis(REDIS_TEST_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  admin.on('error', () => {
    /* reported by connect() below */
  });
  try {
    await admin.connect();
    await admin.ping();
  } catch (err) {
    admin.disconnect();
    throw new Error(
      `These tests need a real Redis at ${REDIS_TEST_URL} (set REDIS_TEST_URL, or start redis-server on loopback; CI's .ci/run starts it): ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const prefix = `parley-test:${randomBytes(6).toString('hex')}:`;
  return {
    admin,
    prefix,
    async cleanup() {
      const keys = await admin.keys(`${prefix}*`);
      if (keys.length) await admin.del(...keys);
      admin.disconnect();
    },
  };
}

/** Redis's clock, in ms: the one the limit script reads. */
export async function redisNowMs(redis: Redis): Promise<number> {
  const [s, us] = await redis.time();
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}

/** A port nothing listens on (for "Redis is down"). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A TCP relay to the real Redis on a fixed port that a test can take down and bring back:
 * an outage (connections cut, port refused) and a recovery, without stopping the shared Redis.
 */
export function redisRelay(port: number, target = new URL(REDIS_TEST_URL)) {
  let server: net.Server | null = null;
  const sockets = new Set<net.Socket>();
  return {
    url: `redis://127.0.0.1:${port}`,
    async up(): Promise<void> {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream);
        upstream.pipe(client);
      });
      const s = server;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, '127.0.0.1', () => resolve());
      });
    },
    /** Redis stops answering but the connections stay open (a hung server, a partition without reset). */
    stall(): void {
      for (const socket of sockets) socket.pause();
    },
    resume(): void {
      for (const socket of sockets) socket.resume();
    },
    async down(): Promise<void> {
      const s = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
