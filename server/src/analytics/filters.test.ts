import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('analytics date filters are real calendar dates', () => {
  it('refuses impossible dates and times with a 400 naming the parameter (2024-02-30 was a 200)', async () => {
    const { api } = await registerAccount(server.url);
    for (const [param, value] of [
      ['from', '2024-02-30'],
      ['to', '2023-02-29'],
      ['from', '2024-04-31T10:00:00Z'],
      ['to', '2024-01-01T24:00:00Z'],
      ['from', '2024-13-01'],
    ] as const) {
      const res = await api.get(`/v1/analytics/metrics?${param}=${encodeURIComponent(value)}`);
      expect(res.status, value).toBe(400);
      expect(res.body.error, value).toEqual({
        code: 'validation_error',
        message: `${param}: must be a real ISO 8601 date (2026-01-31) or date-time (2026-01-31T09:30:00Z)`,
      });
    }
  });

  it('still takes real dates: a leap day, date-times with Z, an offset or none', async () => {
    const { api } = await registerAccount(server.url);
    for (const q of [
      'from=2024-02-29&to=2024-03-01',
      'from=2026-01-31T09:30:00Z',
      'from=2026-01-31T09:30:00%2B02:00',
      'to=2026-01-31T09:30:00.250',
    ]) {
      expect((await api.get(`/v1/analytics/metrics?${q}`)).status, q).toBe(200);
    }
  });
});

describe('other date parameters', () => {
  it('an API key expiresAt on an impossible date is refused', async () => {
    const { api } = await registerAccount(server.url);
    const res = await api.post('/v1/api-keys', { name: 'k', permissions: ['chat'], expiresAt: '2099-02-30T00:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^expiresAt: /);
  });
});
