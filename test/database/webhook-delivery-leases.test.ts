import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type Sql } from '../../db/sql/sql.js';
import {
  claimWebhookDeliveries,
  recordWebhookAttempts,
} from '../../db/sql/webhook-deliveries.sql.js';
import { databasePool, seedProjectRows } from '../helpers/database.js';

// A webhook lane's claim leases the deliveries it takes (`leased_until`, in no index): a claimed
// delivery is not claimed again until its lease ends or its attempt is recorded as due again,
// and the claim itself rewrites no index entry (a HOT update).

const { sql } = databasePool({ max: 2 });
// One session of its own, where `webhook_deliveries` is a fresh temporary copy of the table (its
// columns and indexes): whether an UPDATE is HOT depends on room in the row's page, which in the
// shared table depends on what the other test files wrote beside it.
const { sql: session } = databasePool({ max: 1 });

async function queueDeliveries(
  count: number,
  { disabledForFailingAgo }: { disabledForFailingAgo?: string } = {},
): Promise<{ queue: string; ids: string[]; endpointId: string }> {
  const { projectId } = await seedProjectRows(sql, { name: 'leases', contacts: 0 });
  const endpointId = randomUUID();
  await sql.query(
    `INSERT INTO webhook_endpoints (id, project_id, url, event_types, secret)
     VALUES ($1, $2, 'http://127.0.0.1:9/hook', '{}', 'sealed')`,
    [endpointId, projectId],
  );
  if (disabledForFailingAgo) {
    await sql.query(
      `UPDATE webhook_endpoints
          SET enabled = false, disabled_for_failing = true, disabled_at = now() - $2::interval
        WHERE id = $1`,
      [endpointId, disabledForFailingAgo],
    );
  }
  const queue = `leases-${randomUUID()}`;
  const ids = Array.from({ length: count }, () => randomUUID());
  await sql.query(
    `INSERT INTO webhook_deliveries (id, project_id, endpoint_id, type, payload, queue, next_attempt_at)
     SELECT id, $1, $2, 'contact.created', '{}', $3, now() - interval '1 minute'
       FROM unnest($4::uuid[]) AS id`,
    [projectId, endpointId, queue, ids],
  );
  return { queue, ids, endpointId };
}

/** The HOT updates of this transaction on the table the name stands for in this session. */
const hotUpdates = async (tx: Sql): Promise<number> => {
  const [row] = await tx.query<{ n: number }>(
    `SELECT n_tup_hot_upd::int AS n FROM pg_stat_xact_user_tables
      WHERE relid = 'webhook_deliveries'::regclass`,
  );
  return row?.n ?? 0;
};

describe('webhook delivery leases', () => {
  it('a claimed delivery is passed over until its lease ends; the claim touches no index', async () => {
    const { queue, ids } = await queueDeliveries(6);
    const first = await claimWebhookDeliveries(sql, { queue, limit: 4, leaseSeconds: 1 });
    expect(first).toHaveLength(4);
    const rest = await claimWebhookDeliveries(sql, { queue, limit: 10, leaseSeconds: 60 });
    expect(rest.map((r) => r.id).sort()).toEqual(
      ids.filter((id) => !first.some((r) => r.id === id)).sort(),
    );
    expect(await claimWebhookDeliveries(sql, { queue, limit: 10, leaseSeconds: 60 })).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const again = await claimWebhookDeliveries(sql, { queue, limit: 10, leaseSeconds: 60 });
    expect(again.map((r) => r.id).sort()).toEqual(first.map((r) => r.id).sort());

    // The same six rows, unleased, in a temporary copy of the table that shadows it in this
    // session; one transaction, whose own statistics count only its updates.
    await session.query(
      `CREATE TEMPORARY TABLE webhook_deliveries
         (LIKE public.webhook_deliveries INCLUDING ALL) WITH (fillfactor = 80)`,
    );
    await session.query(
      `INSERT INTO webhook_deliveries
       SELECT * FROM public.webhook_deliveries WHERE queue = $1`,
      [queue],
    );
    await session.query(`UPDATE webhook_deliveries SET leased_until = NULL`);
    await session.query(`VACUUM webhook_deliveries`);
    const hot = await session.transaction(async (tx) => {
      const before = await hotUpdates(tx);
      const claimed = await claimWebhookDeliveries(tx, { queue, limit: 10, leaseSeconds: 60 });
      expect(claimed).toHaveLength(6);
      return (await hotUpdates(tx)) - before;
    });
    expect(hot).toBe(6);
  });

  it('an attempt recorded as due again ends its lease; a retry in the future waits for its time', async () => {
    const { queue } = await queueDeliveries(2);
    const [now, later] = await claimWebhookDeliveries(sql, { queue, limit: 2, leaseSeconds: 60 });
    const failed = {
      ok: false,
      responseStatus: 500,
      responseBody: 'no',
      latencyMs: 1,
      error: null,
    };
    await recordWebhookAttempts(sql, {
      attempts: [
        { id: now!.id, status: 'PENDING', retryInSeconds: 0, ...failed },
        { id: later!.id, status: 'PENDING', retryInSeconds: 60, ...failed },
      ],
      disableAfterSeconds: 86_400,
      queue,
    });
    const next = await claimWebhookDeliveries(sql, { queue, limit: 10, leaseSeconds: 60 });
    expect(next.map((r) => [r.id, r.attempts])).toEqual([[now!.id, 1]]);
  });

  it('fails what was queued for an endpoint disabled for failing in the last hour, on the way', async () => {
    const statuses = async (endpointId: string) =>
      (
        await sql.query<{ status: string; last_error: string | null }>(
          'SELECT status, last_error FROM webhook_deliveries WHERE endpoint_id = $1',
          [endpointId],
        )
      ).map((r) => [r.status, r.last_error]);
    // Disabled a minute ago: a dispatcher may have queued these while it was being disabled.
    const lately = await queueDeliveries(2, { disabledForFailingAgo: '1 minute' });
    expect(
      await claimWebhookDeliveries(sql, { queue: lately.queue, limit: 10, leaseSeconds: 60 }),
    ).toEqual([]);
    const failed = ['FAILED', 'The endpoint was disabled after failing for too long'];
    expect(await statuses(lately.endpointId)).toEqual([failed, failed]);
    // Disabled two hours ago: no dispatcher was queueing for it; its rows are passed over, as a
    // disabled endpoint's are.
    const long = await queueDeliveries(1, { disabledForFailingAgo: '2 hours' });
    expect(
      await claimWebhookDeliveries(sql, { queue: long.queue, limit: 10, leaseSeconds: 60 }),
    ).toEqual([]);
    expect(await statuses(long.endpointId)).toEqual([['PENDING', null]]);
  });
});
