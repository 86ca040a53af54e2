import { sendEmails } from '../../domain/sending/send.service.js';
import { idempotencyKeyOf } from '../http/idempotency-key.js';
import { defineRoute } from '../http/route.js';
import { sendBody, sendResult } from './send.schemas.js';
import { projectIdOf } from './session-user.js';

export const sendRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/v1/send',
    summary:
      'Send an email to one or more recipients (secret key); each becomes a durable send. Idempotency-Key supported',
    tag: 'Public API',
    auth: 'project',
    // 40 MB of message arrives as base64 inside JSON.
    bodyLimit: '60mb',
    body: sendBody,
    response: sendResult,
    handler: async ({ deps, auth, body, ctx }) => ({
      success: true,
      data: await sendEmails({
        ...deps.sending,
        projectId: projectIdOf(auth),
        idempotencyKey: idempotencyKeyOf(ctx),
        input: {
          to: body.to,
          subject: body.subject,
          body: body.body,
          templateId: body.template ?? body.templateId,
          from: body.from,
          senderName: body.name,
          replyTo: body.reply ?? body.replyTo,
          headers: body.headers,
          attachments: body.attachments,
          subscribed: body.subscribed,
          data: body.data,
          tracking: body.tracking,
        },
      }),
    }),
  }),
];
