import { afterEach, beforeEach } from 'vitest';
import { startServer, type TestServer } from './test-server.js';
import { createFakeClock, type FakeClock } from '../src/lib/clock.js';

export type { FakeClock };

/**
 * The analytics tests' setup: every test of the calling file gets a fresh Parley (the project's
 * database, SQLite or PostgreSQL) on a fake clock that starts at `startIso`, closed after the
 * test. Call it at the top level of a test file; read `server` and `clock` inside tests (they
 * are new for each test).
 */
export function serverPerTest(startIso: string): { readonly server: TestServer; readonly clock: FakeClock } {
  const start = Date.parse(startIso);
  if (Number.isNaN(start)) throw new Error(`serverPerTest: not a date: ${startIso}`);
  let server: TestServer | undefined;
  let clock: FakeClock | undefined;
  beforeEach(async () => {
    clock = createFakeClock(start);
    server = await startServer({ clock });
  });
  afterEach(async () => {
    const s = server;
    server = undefined;
    clock = undefined;
    await s?.close();
  });
  const outside = (what: string): never => {
    throw new Error(`${what} exists only inside a test (serverPerTest)`);
  };
  return {
    get server() {
      return server ?? outside('server');
    },
    get clock() {
      return clock ?? outside('clock');
    },
  };
}
