/**
 * Imports run one way: down (issue 27). `npm run lint:deps` checks it; `npm run lint` runs that,
 * so CI does. A module is a folder or top-level file of server/src, or one of the workspaces
 * widget, dashboard, connectors and bench. The layers, bottom first (docs/architecture.md, "Layers"):
 *
 *   1 ground     lib/ text/ net/                 pure helpers, text analysis, the outbound HTTP client
 *   2 config     config.ts paths.ts              the environment, typed; where files live
 *   3 storage    db/ storage/                    the storage port, its SQLite and PostgreSQL adapters
 *   4 platform   limits/ metrics/ http/          rate limits, instruments, HTTP plumbing
 *   5 engines    answer/                         answering: extractive, templates, prompts, model providers
 *   6 domain     context.ts auth/ organizations/ api-keys/ audit/ assets/ webhooks/
 *                knowledge/ assistants/ i18n/ conversations/
 *                                                the stores and their routes; context.ts, what they are
 *                                                handed; i18n/, the texts an assistant shows in its language
 *   7 services   chat/ analytics/ widget-api/    what spans several stores (a chat turn, the rollups)
 *   8 entry      openapi/ dashboard/ app.ts server.ts main.ts ops/ demo/ cluster/
 *   9 clients    widget/ connectors/ (the dashboard app above the widget, bench above all)
 *
 * A module may import its own layer and the layers below, never a layer above (the few
 * exceptions are listed in EXCEPTIONS, each with its reason), and no import cycle may form.
 * Checked: what the production build ships. Tests, their harnesses and the one-off measurement
 * scripts (server/tsconfig.build.json's excludes, server/test, e2e) sit above everything and
 * are not cruised, which also keeps the check fast.
 */

/** A path regex for server/src modules: a folder or a top-level file (`config` → config.ts). */
const server = (...names) => `^server/src/(${names.join('|')})(/|\\.tsx?$)`;

const LAYERS = [
  { name: 'ground', path: server('lib', 'text', 'net') },
  { name: 'config', path: server('config', 'paths') },
  { name: 'storage', path: server('db', 'storage') },
  { name: 'platform', path: server('limits', 'metrics', 'http') },
  { name: 'engines', path: server('answer') },
  {
    name: 'domain',
    path: server(
      'context',
      'auth',
      'organizations',
      'api-keys',
      'audit',
      'assets',
      'webhooks',
      'knowledge',
      'assistants',
      'i18n',
      'conversations',
    ),
  },
  { name: 'services', path: server('chat', 'analytics', 'widget-api') },
  { name: 'entry', path: server('openapi', 'dashboard', 'app', 'server', 'main', 'ops', 'demo', 'cluster') },
  { name: 'clients', path: '^(widget|connectors)/' },
  { name: 'dashboard-app', path: '^dashboard/' },
  { name: 'bench', path: '^bench/' },
];

/**
 * Upward imports allowed, each for its files only (`from`, in `layer`) and only to the targets
 * named (issue 27: at most eight). Say why; remove the entry when the import goes.
 */
const EXCEPTIONS = [
  // None today. Shape: { layer: 'platform', from: '^server/src/http/x[.]ts$', to: '^server/src/auth/y[.]ts$', why: '…' }
];

const all = (list) => list.join('|');

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: modules that need each other are one module, or one of them holds code that belongs lower.',
      from: {},
      to: { circular: true },
    },
    ...LAYERS.slice(0, -1).map((layer, i) => ({
      name: `layer-${layer.name}`,
      severity: 'error',
      comment: `The ${layer.name} layer imports only itself and the layers below (.dependency-cruiser.cjs).`,
      from: { path: layer.path, pathNot: all(EXCEPTIONS.map((e) => e.from)) || undefined },
      to: { path: all(LAYERS.slice(i + 1).map((l) => l.path)) },
    })),
    {
      name: 'widget-browser-only',
      severity: 'error',
      comment: 'The widget is one small browser script: of the server it bundles only the shared SSE parser.',
      from: { path: '^widget/src/' },
      to: { path: '^server/', pathNot: '^server/src/lib/sse-parse[.]ts$' },
    },
    ...EXCEPTIONS.map((e, i) => ({
      name: `layer-exception-${i + 1}`,
      severity: 'error',
      comment: `Allowed upward only to ${e.to}: ${e.why}`,
      from: { path: e.from },
      to: { path: all(LAYERS.slice(LAYERS.findIndex((l) => l.name === e.layer) + 1).map((l) => l.path)), pathNot: e.to },
    })),
  ],
  options: {
    // Type-only imports count: a type from a higher layer is a dependency on it all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: {
      path: [
        'node_modules',
        '/dist/',
        '[.]test[.]tsx?$',
        '/e2e/',
        '^server/test/',
        '/test-support/',
        '-harness[.]ts$',
        '/measure[-a-z]*[.]ts$',
      ].join('|'),
    },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
