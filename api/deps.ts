import type { Orm } from '../db/orm.js';
import type { Sql } from '../db/sql/sql.js';
import type {
  DnsResolver,
  FetchText,
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
  dns: DnsResolver;
  fetchText: FetchText;
  logger: Logger;
}
