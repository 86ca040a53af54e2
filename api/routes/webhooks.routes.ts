import { z } from 'zod';
import { receivePaymentEvent } from '../../domain/billing/billing.service.js';
import {
  BOUNCE_TYPES,
  FEEDBACK_TYPES,
  type Feedback,
} from '../../domain/sending/delivery-feedback.pure.js';
import { receiveDeliveryReport } from '../../domain/sending/delivery-feedback.service.js';
import {
  SNS_MESSAGE_TYPES,
  SNS_OUTCOMES,
  SNS_SIGNATURE_VERSIONS,
} from '../../domain/sending/sns-message.pure.js';
import { handleSnsEnvelope, type SnsEnvelope } from '../../domain/sending/sns.service.js';
import { DomainError } from '../../domain/shared/errors.js';
import { readRawText } from '../http/raw-body.js';
import { parseOrThrow } from '../http/validation.js';
import { defineRoute } from '../http/route.js';

const emailWebhookBody = z
  .object({
    type: z.enum(FEEDBACK_TYPES),
    emailId: z.uuid().optional(),
    messageId: z.string().min(3).max(998).optional(),
    // The address the report is about: a Message-ID shared by several emails is matched with it.
    recipient: z.email().max(320).optional(),
    bounceType: z.enum(BOUNCE_TYPES).default('hard'),
  })
  .refine((b) => b.emailId || b.messageId, {
    message: 'Give emailId or messageId',
    path: ['emailId'],
  });

const snsEnvelope = z.object({
  Type: z.enum(SNS_MESSAGE_TYPES),
  MessageId: z.string().max(200),
  TopicArn: z.string().max(500),
  Message: z.string().max(256 * 1024),
  Timestamp: z.string().max(100),
  Signature: z.string().max(4096),
  SignatureVersion: z.enum(SNS_SIGNATURE_VERSIONS),
  SigningCertURL: z.url().max(2000),
  Subject: z.string().max(1000).optional(),
  SubscribeURL: z.url().max(2000).optional(),
  Token: z.string().max(4096).optional(),
});

export const webhookRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/webhooks/email',
    summary:
      'Delivery callbacks from the mail infrastructure (delivered, bounced hard|soft, complained), HMAC-signed',
    tag: 'Webhooks',
    auth: 'none',
    // The mail infrastructure's report is kept cleaned of text PostgreSQL cannot store.
    unstorableText: 'clean',
    body: emailWebhookBody,
    response: z.object({
      received: z.literal(true),
      applied: z.boolean(),
      // Present when the Message-ID named several emails it cannot tell apart (none changed).
      undetermined: z.literal(true).optional(),
    }),
    handler: async ({ deps, body, ctx }) => {
      const feedback: Feedback =
        body.type === 'bounced'
          ? { type: 'bounced', bounceType: body.bounceType, evidence: { source: 'webhook' } }
          : { type: body.type, evidence: { source: 'webhook' } };
      const { applied, undetermined } = await receiveDeliveryReport({
        ...deps.feedback,
        signature: ctx.get('X-Signature'),
        rawBody: (ctx.request as { rawBody?: string }).rawBody ?? '',
        emailId: body.emailId,
        messageId: body.messageId,
        recipient: body.recipient,
        feedback,
      });
      return { received: true, applied, ...(undetermined && { undetermined: true as const }) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/webhooks/incoming/stripe',
    summary:
      'Stripe events (signature checked on the raw body): checkout completion and subscription changes keep the plan; each event once',
    tag: 'Webhooks',
    auth: 'none',
    response: z.object({ received: z.literal(true), applied: z.boolean() }),
    handler: async ({ deps, ctx }) => {
      // Unparsed: the signature covers the body's exact bytes.
      const rawBody = await readRawText(ctx);
      const { applied } = await receivePaymentEvent({
        ...deps.billing,
        rawBody,
        signature: ctx.get('Stripe-Signature') || undefined,
      });
      return { received: true, applied };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/webhooks/ses',
    summary: 'Amazon SES notifications through SNS (signature verified; subscriptions confirmed)',
    tag: 'Webhooks',
    auth: 'none',
    response: z.object({
      received: z.literal(true),
      action: z.enum(SNS_OUTCOMES),
    }),
    handler: async ({ deps, ctx }) => {
      let json: unknown;
      try {
        json = JSON.parse(await readRawText(ctx));
      } catch {
        throw new DomainError('BAD_REQUEST', 'The body is not an SNS message');
      }
      const envelope = parseOrThrow(snsEnvelope, json) as SnsEnvelope;
      const { action } = await handleSnsEnvelope({ ...deps.feedback, envelope });
      return { received: true, action };
    },
  }),
];
