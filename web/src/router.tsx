import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  Outlet,
  redirect,
} from '@tanstack/react-router';
import { ApiError } from './api/client';
import { meQuery } from './api/session';
import { ErrorState, Loading } from './components/states';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Outlet });

// Pages load on demand (lazyRouteComponent): the first page sends only the shell and its code.

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  component: lazyRouteComponent(() => import('./auth/login-page'), 'LoginPage'),
});
const signupRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/signup',
  component: lazyRouteComponent(() => import('./auth/signup-page'), 'SignupPage'),
});

/** Everything behind the session: redirects to the login page when there is none. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: async ({ context }) => {
    try {
      await context.queryClient.ensureQueryData(meQuery);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) throw redirect({ to: '/login' });
      throw error;
    }
  },
  component: lazyRouteComponent(() => import('./layout/app-layout'), 'AppLayout'),
  pendingComponent: () => <Loading />,
  errorComponent: ({ error }) => (
    <div className="p-6">
      <ErrorState error={error} />
    </div>
  ),
});

const overviewRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./overview/overview-page'), 'OverviewPage'),
});
const newProjectRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/projects/new',
  component: lazyRouteComponent(() => import('./projects/new-project-page'), 'NewProjectPage'),
});
const contactsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/contacts',
  component: lazyRouteComponent(() => import('./contacts/contacts-page'), 'ContactsPage'),
});
const contactRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/contacts/$contactId',
  component: lazyRouteComponent(() => import('./contacts/contact-page'), 'ContactPage'),
});
const templatesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/templates',
  component: lazyRouteComponent(() => import('./templates/templates-page'), 'TemplatesPage'),
});
const templateRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/templates/$templateId',
  component: lazyRouteComponent(() => import('./templates/template-page'), 'TemplatePage'),
});
const domainsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/domains',
  component: lazyRouteComponent(() => import('./domains/domains-page'), 'DomainsPage'),
});
const suppressionsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/suppressions',
  component: lazyRouteComponent(
    () => import('./suppressions/suppressions-page'),
    'SuppressionsPage',
  ),
});
const webhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/webhooks',
  component: lazyRouteComponent(() => import('./webhooks/webhooks-page'), 'WebhooksPage'),
});
const webhookEndpointRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/webhooks/$endpointId',
  component: lazyRouteComponent(() => import('./webhooks/endpoint-page'), 'EndpointPage'),
});
const reportsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/suppressions/reports',
  component: lazyRouteComponent(() => import('./suppressions/reports-page'), 'ReportsPage'),
});
const reportRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/suppressions/reports/$reportId',
  component: lazyRouteComponent(() => import('./suppressions/report-page'), 'ReportPage'),
});
const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  component: lazyRouteComponent(() => import('./settings/settings-page'), 'SettingsPage'),
});

const segmentsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/segments',
  component: lazyRouteComponent(() => import('./segments/segments-page'), 'SegmentsPage'),
});
const newSegmentRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/segments/new',
  component: lazyRouteComponent(() => import('./segments/segment-page'), 'NewSegmentPage'),
});
const segmentRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/segments/$segmentId',
  component: lazyRouteComponent(() => import('./segments/segment-page'), 'SegmentPage'),
});

const campaignsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/campaigns',
  component: lazyRouteComponent(() => import('./campaigns/campaigns-page'), 'CampaignsPage'),
});
const newCampaignRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/campaigns/new',
  component: lazyRouteComponent(() => import('./campaigns/campaign-page'), 'NewCampaignPage'),
});
const campaignRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/campaigns/$campaignId',
  component: lazyRouteComponent(() => import('./campaigns/campaign-page'), 'CampaignPage'),
});
const campaignStatsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/campaigns/$campaignId/stats',
  component: lazyRouteComponent(
    () => import('./campaigns/campaign-stats-page'),
    'CampaignStatsPage',
  ),
});

const workflowsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/workflows',
  component: lazyRouteComponent(() => import('./workflows/workflows-page'), 'WorkflowsPage'),
});
const workflowRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/workflows/$workflowId',
  component: lazyRouteComponent(
    () => import('./workflows/workflow-editor-page'),
    'WorkflowEditorPage',
  ),
});
const executionsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/workflows/$workflowId/executions',
  component: lazyRouteComponent(() => import('./workflows/executions-page'), 'ExecutionsPage'),
});
const executionRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/workflows/$workflowId/executions/$executionId',
  component: lazyRouteComponent(() => import('./workflows/execution-page'), 'ExecutionPage'),
});

const contactFieldsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/contacts/fields',
  component: lazyRouteComponent(() => import('./contacts/fields-page'), 'FieldsPage'),
});
const activityRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/activity',
  component: lazyRouteComponent(() => import('./activity/activity-page'), 'ActivityPage'),
});
const messageRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/activity/messages/$messageId',
  component: lazyRouteComponent(() => import('./activity/message-page'), 'MessagePage'),
});
const analyticsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/analytics',
  component: lazyRouteComponent(() => import('./analytics/analytics-page'), 'AnalyticsPage'),
});
const accountRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/account',
  component: lazyRouteComponent(() => import('./account/account-page'), 'AccountPage'),
});

const routeTree = rootRoute.addChildren([
  loginRoute,
  signupRoute,
  appRoute.addChildren([
    overviewRoute,
    newProjectRoute,
    contactsRoute,
    contactRoute,
    contactFieldsRoute,
    segmentsRoute,
    newSegmentRoute,
    segmentRoute,
    campaignsRoute,
    newCampaignRoute,
    campaignRoute,
    campaignStatsRoute,
    workflowsRoute,
    workflowRoute,
    executionsRoute,
    executionRoute,
    templatesRoute,
    templateRoute,
    domainsRoute,
    suppressionsRoute,
    reportsRoute,
    reportRoute,
    webhooksRoute,
    webhookEndpointRoute,
    settingsRoute,
    activityRoute,
    messageRoute,
    analyticsRoute,
    accountRoute,
  ]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: '/app',
    context: { queryClient },
    defaultPreload: 'intent',
    defaultPendingComponent: () => <Loading />,
    defaultErrorComponent: ({ error }) => <ErrorState error={error} />,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
