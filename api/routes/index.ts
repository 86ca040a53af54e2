import type { AnyRoute } from '../http/route.js';
import { authRoutes } from './auth.routes.js';
import { billingRoutes } from './billing.routes.js';
import { campaignRoutes } from './campaigns.routes.js';
import { configRoutes } from './config.routes.js';
import { contactRoutes } from './contacts.routes.js';
import { deliveryReportRoutes } from './delivery-reports.routes.js';
import { domainRoutes } from './domains.routes.js';
import { doubleOptInRoutes } from './double-opt-in.routes.js';
import { segmentRoutes } from './segments.routes.js';
import { workflowExecutionRoutes } from './workflow-executions.routes.js';
import { workflowRoutes } from './workflows.routes.js';
import { sendRoutes } from './send.routes.js';
import { suppressionRoutes } from './suppressions.routes.js';
import { templateRoutes } from './templates.routes.js';
import { trackingRoutes } from './tracking.routes.js';
import { uploadRoutes } from './uploads.routes.js';
import { verifyRoutes } from './verify.routes.js';
import { webhookRoutes } from './webhooks.routes.js';
import { webhookEndpointRoutes } from './webhook-endpoints.routes.js';
import { eventRoutes, trackRoutes } from './events.routes.js';
import { healthRoutes } from './health.routes.js';
import { insightRoutes } from './insights.routes.js';
import { memberRoutes } from './members.routes.js';
import { projectRoutes } from './projects.routes.js';
import { sessionRoutes } from './sessions.routes.js';
import { userRoutes } from './users.routes.js';

export function resourceRoutes(): AnyRoute[] {
  return [
    ...healthRoutes(),
    ...configRoutes(),
    ...authRoutes(),
    ...userRoutes(),
    ...sessionRoutes(),
    ...projectRoutes(),
    ...memberRoutes(),
    ...billingRoutes(),
    ...trackRoutes(),
    ...doubleOptInRoutes(),
    ...sendRoutes(),
    ...suppressionRoutes(),
    ...deliveryReportRoutes(),
    ...verifyRoutes(),
    ...contactRoutes(),
    ...segmentRoutes(),
    ...workflowRoutes(),
    ...workflowExecutionRoutes(),
    ...campaignRoutes(),
    ...insightRoutes(),
    ...eventRoutes(),
    ...domainRoutes(),
    ...templateRoutes(),
    ...uploadRoutes(),
    ...trackingRoutes(),
    ...webhookRoutes(),
    ...webhookEndpointRoutes(),
  ];
}
