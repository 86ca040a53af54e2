import { databaseAnswers } from '../../db/sql/health.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import type { WorkflowEngine } from '../shared/ports.js';

export interface Readiness {
  ready: boolean;
  checks: { database: boolean; temporal: boolean };
}

export async function checkReadiness({
  sql,
  engine,
}: {
  sql: Sql;
  engine: WorkflowEngine;
}): Promise<Readiness> {
  const [database, temporal] = await Promise.all([databaseAnswers(sql), engine.isReachable()]);
  return { ready: database && temporal, checks: { database, temporal } };
}
