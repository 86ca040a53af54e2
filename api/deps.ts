import type { Orm } from '../db/orm.js';
import type { RateLimiter, WorkflowEngine } from '../domain/shared/ports.js';
import type { Config } from '../runtime/config.js';
import type { Logger } from '../runtime/logger.js';

export interface AppDeps {
  config: Config;
  orm: Pick<Orm, 'em'>;
  engine: WorkflowEngine;
  rateLimiter: RateLimiter;
  logger: Logger;
}
