import type { RouteDoc } from '../registry.js';
import { analyticsRoutes } from './analytics.js';
import { analyticsDashboardRoutes } from './analytics-dashboard.js';
import { apiKeyRoutes } from './api-keys.js';
import { assistantRoutes } from './assistants.js';
import { authRoutes } from './auth.js';
import { chatRoutes } from './chat.js';
import { conversationRoutes } from './conversations.js';
import { dashboardRoutes } from './dashboard.js';
import { exportLinkRoutes } from './export-links.js';
import { knowledgeRoutes } from './knowledge.js';
import { organizationRoutes } from './organizations.js';
import { serviceRoutes } from './service.js';
import { webhookRoutes } from './webhooks.js';
import { widgetRoutes } from './widget.js';

/**
 * Every documented route. One line per resource file: add yours here (see ../README.md).
 * Order is the order of docs/api.md.
 */
export const ROUTE_DOCS: RouteDoc[] = [
  ...serviceRoutes,
  ...authRoutes,
  ...organizationRoutes,
  ...apiKeyRoutes,
  ...assistantRoutes,
  ...knowledgeRoutes,
  ...chatRoutes,
  ...conversationRoutes,
  ...analyticsRoutes,
  ...analyticsDashboardRoutes,
  ...exportLinkRoutes,
  ...webhookRoutes,
  ...widgetRoutes,
  ...dashboardRoutes,
];
