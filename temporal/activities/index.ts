import type { Orm } from '../../db/orm.js';
import type { Sql } from '../../db/sql/sql.js';
import type { DnsResolver, Mailer, WorkflowEngine } from '../../domain/shared/ports.js';
import { createContactJobActivities } from './contact-job.activities.js';
import { createDomainActivities } from './domain.activities.js';
import { createSendEmailActivities } from './send-email.activities.js';
import { createSystemEmailActivities } from './system-email.activities.js';

export interface ActivityDeps {
  orm: Orm;
  sql: Sql;
  mailer: Mailer;
  publicUrl: string;
  systemEmailFrom: string;
  importBatchSize: number;
  dns: DnsResolver;
  spfInclude: string;
  encryptionKey: string;
  /** Starts workflows from activities (the email dispatcher). */
  engine: WorkflowEngine;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSendEmailActivities({
      sql: deps.sql,
      mailer: deps.mailer,
      encryptionKey: deps.encryptionKey,
      publicUrl: deps.publicUrl,
      engine: deps.engine,
    }),
    ...createDomainActivities({ orm: deps.orm, dns: deps.dns, spfInclude: deps.spfInclude }),
    ...createContactJobActivities({
      orm: deps.orm,
      sql: deps.sql,
      importBatchSize: deps.importBatchSize,
    }),
    ...createSystemEmailActivities({
      orm: deps.orm,
      mailer: deps.mailer,
      publicUrl: deps.publicUrl,
      from: deps.systemEmailFrom,
    }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
