import { Project, User } from '../../db/entities/index.js';
import { issueAuthToken } from '../accounts/auth-tokens.js';
import type { Em, Mailer, SystemEmailRequest } from '../shared/ports.js';
import { systemEmailContent } from './system-email-content.pure.js';

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

  let link: string;
  let projectName: string | undefined;
  switch (request.kind) {
    case 'VERIFY_EMAIL': {
      if (user.emailVerifiedAt) return { skipped: 'already verified' };
      const token = await issueAuthToken({ em, userId: user.id, purpose: 'VERIFY_EMAIL' });
      link = `${publicUrl}/auth/verify-email?token=${encodeURIComponent(token)}`;
      break;
    }
    case 'RESET_PASSWORD': {
      const token = await issueAuthToken({ em, userId: user.id, purpose: 'RESET_PASSWORD' });
      link = `${publicUrl}/auth/reset-password?token=${encodeURIComponent(token)}`;
      break;
    }
    case 'BILLING_LIMIT_WARNING':
    case 'PROJECT_INVITATION': {
      const project = request.projectId
        ? await em.findOne(Project, { id: request.projectId })
        : null;
      if (!project) return { skipped: 'project no longer exists' };
      projectName = project.name;
      link = `${publicUrl}/docs`;
      break;
    }
  }
  const content = systemEmailContent({
    kind: request.kind,
    link,
    projectName,
    limit: request.limit,
  });
  return mailer.send({ from, to: user.email, ...content });
}
