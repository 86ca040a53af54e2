import type { Orm } from '../../db/orm.js';
import type { Mailer, SystemEmailRequest } from '../../domain/shared/ports.js';
import { deliverSystemEmail } from '../../domain/system-email/system-email.service.js';

export function createSystemEmailActivities({
  orm,
  mailer,
  publicUrl,
  from,
}: {
  orm: Orm;
  mailer: Mailer;
  publicUrl: string;
  from: string;
}) {
  return {
    async deliverSystemEmail(request: SystemEmailRequest): Promise<void> {
      await deliverSystemEmail({ em: orm.em.fork(), mailer, publicUrl, from, request });
    },
  };
}
