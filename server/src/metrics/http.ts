import type { Express, Request, RequestHandler, Response } from 'express';
import type { CounterSeries, HistogramSeries } from './families.js';
import type { Metrics } from './metrics.js';

/** The route label of a request that matched no route (a 404, or one refused before its route matched). */
export const UNMATCHED_ROUTE = 'unmatched';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
/** Any other method (Node's parser admits a few dozen) shares one label value: label values stay few. */
const OTHER_METHOD = 'OTHER';

interface RouteLike {
  path: unknown;
}
interface Marks {
  metricsRoute?: RouteLike;
  metricsRouteBase?: string;
  metricsLabel?: string;
  metricsStartedAt?: number;
}
interface Tagged {
  baseUrl: string;
  path: string;
  res: { locals: Marks };
}
interface Timed {
  locals: Marks;
  req: Request & Tagged;
  statusCode: number;
}

interface Series {
  count: CounterSeries;
  duration: HistogramSeries;
}
/** The series of one route label, by status × method (a number: no key string per request). */
interface RouteSeries {
  label: string;
  byKey: Map<number, Series>;
}

/**
 * The route pattern a request matched, read when it matched. `req.route` is assigned by the
 * router at that moment, while `req.baseUrl` still holds the prefixes of the routers it is
 * mounted under; by the time the response finishes (an error thrown in a handler is answered
 * by the app's error handler) the router has restored `baseUrl` to ''. So `route` becomes an
 * accessor on this app's request prototype (`app.request`, not Node's or Express's shared one)
 * that also keeps the base. Two property writes per matched route; nothing is allocated.
 *
 * The marks live in `res.locals` (Express's per-response dictionary), never as properties of
 * `req`/`res` themselves: symbol-keyed properties added to Node's request and response objects
 * cost 0.36 M instructions a chat (3.36 M against 3.01 M; 2.86 M kept in res.locals, callgrind,
 * bench/src/http-instructions.ts), slowing every later property access on them.
 */
function captureRoutes(app: Express): void {
  Object.defineProperty(app.request, 'route', {
    configurable: true,
    enumerable: true,
    get(this: Tagged) {
      return this.res.locals.metricsRoute;
    },
    set(this: Tagged, route: RouteLike) {
      const locals = this.res.locals;
      locals.metricsRoute = route;
      locals.metricsRouteBase = this.baseUrl;
    },
  });
}

/**
 * Middleware mounted ahead of a handler that is not a route (the dashboard's static files) to
 * give its requests a pattern instead of `unmatched`.
 */
export function routeLabel(pattern: string): RequestHandler {
  return function labelRoute(req, _res, next) {
    (req as unknown as Tagged).res.locals.metricsLabel = pattern;
    next();
  };
}

/**
 * Counts and times every request (`parley_http_requests_total`,
 * `parley_http_request_duration_seconds`) by method, route pattern and status, when its
 * response has been handed to the socket ('finish'). Must be the app's first middleware.
 * A request whose client went away before the response ended is not counted.
 *
 * Cost per request: one shared 'finish' listener (no closure), two map lookups for the series
 * of a known (route, base) and (status, method), one addition and one histogram observation.
 */
export function httpMetrics(app: Express, metrics: Metrics): RequestHandler {
  captureRoutes(app);
  const { requests, duration } = metrics.http;
  /** Per route object, per base URL: the route's label's series. */
  const byRoute = new WeakMap<RouteLike, Map<string, RouteSeries>>();
  const byLabel = new Map<string, RouteSeries>();

  const seriesOfLabel = (label: string): RouteSeries => {
    let s = byLabel.get(label);
    if (!s) byLabel.set(label, (s = { label, byKey: new Map() }));
    return s;
  };

  function routeSeries(req: Request & Tagged): RouteSeries {
    const locals = req.res.locals;
    const override = locals.metricsLabel;
    if (override !== undefined) return seriesOfLabel(override);
    const route = locals.metricsRoute;
    if (!route) return seriesOfLabel(UNMATCHED_ROUTE);
    const base = locals.metricsRouteBase ?? '';
    let bases = byRoute.get(route);
    if (!bases) byRoute.set(route, (bases = new Map()));
    let s = bases.get(base);
    if (!s) {
      // An array path is not cached per base: which of its paths matched depends on the request.
      if (Array.isArray(route.path)) return seriesOfLabel(patternOfList(route.path as unknown[], base, req));
      s = seriesOfLabel(base + String(route.path));
      bases.set(base, s);
    }
    return s;
  }

  function onFinish(this: Response & Timed): void {
    const started = this.locals.metricsStartedAt;
    if (started === undefined) return;
    const req = this.req;
    const methodIndex = METHODS.indexOf(req.method);
    const key = this.statusCode * 8 + (methodIndex < 0 ? METHODS.length : methodIndex);
    const perRoute = routeSeries(req);
    let series = perRoute.byKey.get(key);
    if (!series) {
      const { label } = perRoute;
      const method = methodIndex < 0 ? OTHER_METHOD : req.method;
      const status = String(this.statusCode);
      series = { count: requests.labels(method, label, status), duration: duration.labels(method, label, status) };
      perRoute.byKey.set(key, series);
    }
    series.count.inc();
    series.duration.observe((performance.now() - started) / 1000);
  }

  return function countRequest(_req, res, next) {
    (res.locals as Marks).metricsStartedAt = performance.now();
    res.on('finish', onFinish);
    next();
  };
}

/**
 * For a route mounted at several paths (`app.get(['/demo', '/demo/'])`): the path without
 * parameters that equals the request's, else the first one. Only cold routes use lists: the
 * chat routes are mounted one path each (app.ts) so that they need none of this.
 */
function patternOfList(paths: unknown[], base: string, req: Request): string {
  const rest = req.path;
  const exact = paths.find((p) => typeof p === 'string' && !/[:*]/.test(p) && p === rest);
  return base + String(exact ?? paths[0]);
}
