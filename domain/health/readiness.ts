import type { Em, WorkflowEngine } from '../shared/ports.js';

export interface Readiness {
  ready: boolean;
  checks: { database: boolean; temporal: boolean };
}

export async function checkReadiness({
  em,
  engine,
}: {
  em: Em;
  engine: WorkflowEngine;
}): Promise<Readiness> {
  const [database, temporal] = await Promise.all([
    em
      .getConnection()
      .execute('SELECT 1')
      .then(() => true)
      .catch(() => false),
    engine.isReachable(),
  ]);
  return { ready: database && temporal, checks: { database, temporal } };
}
