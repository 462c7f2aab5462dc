import type { RouteDoc } from '../registry.js';
import { assistantRoutes } from './assistants.js';

/**
 * Every documented route. One line per resource file: add yours here (see ../README.md).
 * Order is the order of docs/api.md.
 */
export const ROUTE_DOCS: RouteDoc[] = [
  ...assistantRoutes,
];
