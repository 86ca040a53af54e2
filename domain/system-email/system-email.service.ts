import { Project, User } from '../../db/entities/index.js';
import { issueAuthToken } from '../accounts/auth-tokens.js';
import { assertNever } from '../shared/assert-never.pure.js';
import type { Em, Mailer, SystemEmailRequest } from '../shared/ports.js';
import { systemEmailContent } from './system-email-content.pure.js';

/** The link the email carries (its token issued), or why the email is no longer sent. */
async function linkOf({
  em,
  publicUrl,
  user,
  request,
}: {
  em: Em;
  publicUrl: string;
  user: { id: string; verified: boolean };
  request: SystemEmailRequest;
}): Promise<{ link: string; projectName?: string } | { skipped: string }> {
  const { kind } = request;
  switch (kind) {
    case 'VERIFY_EMAIL': {
      if (user.verified) return { skipped: 'already verified' };
      const token = await issueAuthToken({ em, userId: user.id, purpose: 'VERIFY_EMAIL' });
      return { link: `${publicUrl}/auth/verify-email?token=${encodeURIComponent(token)}` };
    }
    case 'RESET_PASSWORD': {
      const token = await issueAuthToken({ em, userId: user.id, purpose: 'RESET_PASSWORD' });
      return { link: `${publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}` };
    }
    case 'BILLING_LIMIT_WARNING':
    case 'PROJECT_INVITATION':
    case 'WEBHOOK_ENDPOINT_DISABLED': {
      const project = request.projectId
        ? await em.findOne(Project, { id: request.projectId })
        : null;
      if (!project) return { skipped: 'project no longer exists' };
      const page = kind === 'WEBHOOK_ENDPOINT_DISABLED' ? '/app/webhooks' : '/docs';
      return { link: `${publicUrl}${page}`, projectName: project.name };
    }
  }
  return assertNever(kind, 'system email kind');
}

/**
 * Issues the token (when the email carries one) and delivers the email. A retry issues a new
 * token and retires the previous one, so the link that finally arrives is the one that works.
 */
export async function deliverSystemEmail({
  em,
  mailer,
  publicUrl,
  from,
  request,
}: {
  em: Em;
  mailer: Mailer;
  publicUrl: string;
  from: string;
  request: SystemEmailRequest;
}): Promise<{ messageId: string } | { skipped: string }> {
  const user = await em.findOne(User, { id: request.userId });
  if (!user) return { skipped: 'user no longer exists' };
  const linked = await linkOf({
    em,
    publicUrl,
    user: { id: user.id, verified: Boolean(user.emailVerifiedAt) },
    request,
  });
  if ('skipped' in linked) return linked;
  const content = systemEmailContent({
    kind: request.kind,
    link: linked.link,
    projectName: linked.projectName,
    limit: request.limit,
    webhook: request.webhook,
  });
  return mailer.send({ from, to: user.email, ...content });
}
