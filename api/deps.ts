import type { Orm } from '../db/orm.js';
import type { Sql } from '../db/sql/sql.js';
import type {
  DnsResolver,
  FetchText,
  QueueNotifier,
  RateLimiter,
  WorkflowEngine,
} from '../domain/shared/ports.js';
import type { Config } from '../runtime/config.js';
import type { Logger } from '../runtime/logger.js';

export interface AppDeps {
  config: Config;
  orm: Pick<Orm, 'em'>;
  sql: Sql;
  engine: WorkflowEngine;
  rateLimiter: RateLimiter;
  /** Wakes the delivery lanes after /v1/send queued mail. */
  queueNotifier: QueueNotifier;
  dns: DnsResolver;
  fetchText: FetchText;
  logger: Logger;
}
