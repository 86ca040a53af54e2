import { databaseAnswers } from '../../db/sql/health.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import type { WorkflowEngine } from '../shared/ports.js';

/**
 * Ready means this API can serve: PostgreSQL and Temporal answer. Whether a worker polls the
 * task queue is reported beside it; accepted work waits durably for one, so a worker that is
 * restarting does not make the API unready.
 */
export interface Readiness {
  ready: boolean;
  checks: { database: boolean; temporal: boolean; worker: boolean };
}

export async function checkReadiness({
  sql,
  engine,
}: {
  sql: Sql;
  engine: WorkflowEngine;
}): Promise<Readiness> {
  const [database, temporal, worker] = await Promise.all([
    databaseAnswers(sql),
    engine.isReachable(),
    engine.hasLiveWorker(),
  ]);
  return { ready: database && temporal, checks: { database, temporal, worker } };
}
