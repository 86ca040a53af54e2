import {
  getDeliveryReport,
  listDeliveryReports,
  readDeliveryReportMessage,
} from '../../domain/inbound/delivery-reports.service.js';
import { defineRoute } from '../http/route.js';
import {
  deliveryReportPage,
  deliveryReportParams,
  deliveryReportView,
  listDeliveryReportsQuery,
} from './delivery-reports.schemas.js';
import { projectIdOf } from './session-user.js';

export const deliveryReportRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/delivery-reports',
    summary:
      'Bounce and complaint reports that reached the return path, newest first, with what became of each',
    tag: 'Suppressions',
    auth: 'project',
    query: listDeliveryReportsQuery,
    response: deliveryReportPage,
    handler: async ({ sql, auth, query }) =>
      listDeliveryReports({ sql, projectId: projectIdOf(auth), ...query }),
  }),
  defineRoute({
    method: 'get',
    path: '/delivery-reports/:id',
    summary: 'One delivery report: its email, format, outcome and reason',
    tag: 'Suppressions',
    auth: 'project',
    params: deliveryReportParams,
    response: deliveryReportView,
    handler: async ({ sql, auth, params }) =>
      getDeliveryReport({ sql, projectId: projectIdOf(auth), reportId: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/delivery-reports/:id/raw',
    summary: 'The message a delivery report arrived as, byte for byte (message/rfc822)',
    tag: 'Suppressions',
    auth: 'project',
    params: deliveryReportParams,
    produces: 'message/rfc822',
    handler: async ({ deps, auth, params, ctx }) => {
      const { id, raw } = await readDeliveryReportMessage({
        ...deps.reports,
        projectId: projectIdOf(auth),
        reportId: params.id,
      });
      ctx.type = 'message/rfc822';
      ctx.set('Content-Disposition', `attachment; filename="report-${id}.eml"`);
      ctx.set('X-Content-Type-Options', 'nosniff');
      return raw;
    },
  }),
];
