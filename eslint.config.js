// Type-aware lint as a safety net for promises, not a style pass: a forgotten `await` is the
// likeliest bug once the storage layer becomes async (issue 15), and only rules that need the
// type checker can see one. Run with `npm run lint`; CI runs it after the typecheck.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Build output and installed packages; nothing in the tree is generated TypeScript.
    ignores: ['**/dist/**', '**/node_modules/**', 'bench/results/**', 'bench/scratch/**', 'data/**', 'test-results/**'],
  },
  {
    // eslint-disable comments for rules outside this small set (no-control-regex, ...) are kept
    // for a wider lint; they are not "unused".
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // Each file is checked against the nearest tsconfig.json, as the typecheck does: the root
        // one (server, connectors, bench, widget/src, server/test through its imports),
        // widget/tsconfig.json and dashboard/tsconfig.json (their e2e tests and build config).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        {
          // Express needs no exemption: @types/express 5 types a handler as returning `unknown`,
          // and Express 5 passes a returned promise's rejection to next(err), so
          // `app.get(path, async (req, res) => ...)` is not reported and the `arguments` check
          // stays on (it catches `setTimeout(async ...)`, `server.on('request', async ...)`).
          // JSX attributes are exempt: the dashboard's handlers (onSubmit, onRetry, onConfirm)
          // call model actions built on loadable()/submission(), which never reject; a failure
          // lands in an error signal the page shows (dashboard/src/lib/model.ts).
          checksVoidReturn: { attributes: false },
        },
      ],
      // An async function without `await` is harmless (it still returns a promise).
      '@typescript-eslint/require-await': 'off',
    },
  },
);
