import type { Express } from 'express';

/** One route as the app mounts it, normalised to the registry's form: `get /v1/assistants/{id}`. */
export interface MountedRoute {
  method: string;
  path: string;
}

/** The API prefixes (docs/api-spec.md §1): both serve one API, documented once under /v1. */
const ALIASES: [RegExp, string][] = [[/^\/api\/v1(?=\/|$)/, '/v1']];

interface LayerLike {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: LayerLike[] };
  /** router 2 keeps the path a layer was created with (a string, an array of them, or '/'). */
  rawPath?: string | string[] | RegExp;
}

const asList = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

function join(prefix: string, path: string): string {
  if (path === '/' && prefix) return prefix;
  return (prefix + path).replace(/\/{2,}/g, '/');
}

/** `:id` → `{id}`, `*rest` → `{rest}`, /api/v1 → /v1. */
export function normaliseRoutePath(path: string): string {
  let p = path.replace(/[:*](\w+)/g, '{$1}');
  for (const [from, to] of ALIASES) p = p.replace(from, to);
  return p;
}

/**
 * Every (method, path) the Express 5 app answers: walks app.router.stack into mounted routers
 * (router 2 layers: `route` for app.get/r.post…, `handle.stack` for a mounted Router) and joins
 * the prefixes each router is mounted at (a layer may carry several, e.g. ['/auth', '/widget']).
 */
export function listMountedRoutes(app: Express): MountedRoute[] {
  const out = new Map<string, MountedRoute>();
  const walk = (stack: LayerLike[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const path of asList(layer.route.path)) {
          for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all')) {
            const route = { method, path: normaliseRoutePath(join(prefix, path)) };
            out.set(`${route.method} ${route.path}`, route);
          }
        }
      } else if (layer.handle?.stack) {
        const raw = layer.rawPath;
        if (raw instanceof RegExp) throw new Error(`openapi: a router mounted at a RegExp (${raw}) cannot be listed`);
        for (const path of asList(raw ?? '/')) walk(layer.handle.stack, join(prefix, path === '/' ? '' : path));
      }
    }
  };
  walk((app as unknown as { router: { stack: LayerLike[] } }).router.stack, '');
  return [...out.values()];
}
