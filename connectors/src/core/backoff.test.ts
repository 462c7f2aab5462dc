import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

describe("the connectors' backoff", () => {
  it("is the server's (server/src/net/backoff.ts) byte for byte: one backoff for Parley", () => {
    // The connectors' build (rootDir src, dist/<platform>/main.js) cannot import server/src, so
    // the module is copied; this test keeps the copy from drifting. Its behaviour is tested there.
    const server = fs.readFileSync(new URL('../../../server/src/net/backoff.ts', import.meta.url), 'utf8');
    const here = fs.readFileSync(new URL('./backoff.ts', import.meta.url), 'utf8');
    expect(here).toBe(server);
  });
});
