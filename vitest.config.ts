import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'connectors/**/*.test.ts', 'widget/**/*.test.{ts,tsx}', 'bench/**/*.test.ts', 'dashboard/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: argon2, SQLite and Chromium all want CPU, so files run two at a time.
    maxWorkers: 2,
  },
});
