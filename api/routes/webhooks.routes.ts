import { z } from 'zod';
import {
  applyDeliveryFeedback,
  verifyWebhookSignature,
  type Feedback,
} from '../../domain/sending/delivery-feedback.service.js';
import { defineRoute } from '../http/route.js';

const emailWebhookBody = z
  .object({
    type: z.enum(['delivered', 'bounced', 'complained']),
    emailId: z.uuid().optional(),
    messageId: z.string().min(3).max(998).optional(),
    bounceType: z.enum(['hard', 'soft']).default('hard'),
  })
  .refine((b) => b.emailId || b.messageId, {
    message: 'Give emailId or messageId',
    path: ['emailId'],
  });

export const webhookRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/webhooks/email',
    summary:
      'Delivery callbacks from the mail infrastructure (delivered, bounced hard|soft, complained), HMAC-signed',
    tag: 'Webhooks',
    auth: 'none',
    body: emailWebhookBody,
    response: z.object({ received: z.literal(true), applied: z.boolean() }),
    handler: async ({ sql, deps, body, ctx }) => {
      verifyWebhookSignature({
        header: ctx.get('X-Signature'),
        rawBody: (ctx.request as { rawBody?: string }).rawBody ?? '',
        secret: deps.config.secrets.EMAIL_WEBHOOK_SECRET,
      });
      const feedback: Feedback =
        body.type === 'bounced'
          ? { type: 'bounced', bounceType: body.bounceType }
          : { type: body.type };
      const { applied } = await applyDeliveryFeedback({
        sql,
        emailId: body.emailId,
        messageId: body.messageId,
        feedback,
      });
      return { received: true, applied };
    },
  }),
];
