import { defineConfig } from 'vitest/config';

const include = [
  'server/**/*.test.ts',
  'connectors/**/*.test.ts',
  'widget/**/*.test.{ts,tsx}',
  'bench/**/*.test.ts',
  'dashboard/**/*.test.{ts,tsx}',
];

/**
 * The suite runs twice over the same files (issue 15): on SQLite, the embedded default, and on
 * PostgreSQL, where every test server gets a fresh migrated database of its own
 * (server/test/postgres.ts) through the one switch PARLEY_TEST_DATABASE. `npm test` runs both;
 * `npx vitest run --project sqlite` one.
 */
export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: argon2, SQLite, PostgreSQL and Chromium all want CPU, so files run two at a time.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'sqlite', include, env: { PARLEY_TEST_DATABASE: 'sqlite' } } },
      // A test that takes a fresh database may wait on CREATE DATABASE (a checkpoint), which on a
      // loaded machine took most of the 30 s: the PostgreSQL run allows 60 s a test.
      { extends: true, test: { name: 'postgres', include, testTimeout: 60_000, env: { PARLEY_TEST_DATABASE: 'postgres' } } },
    ],
  },
});
