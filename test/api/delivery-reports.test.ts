import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { dsnMessage, outOfOfficeMessage } from '../helpers/report-messages.js';
import {
  deliverToInbound,
  returnPathDomain,
  sentWithReturnPath,
} from '../helpers/return-path-mail.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

// The delivery reports made visible (issue 30): every message that reached a return path, listed
// and read per project with its raw message, removed with the project's data.

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
let inboundPort: number;
beforeAll(async () => {
  inboundPort = await freePort();
  ({ dns, stack, stop } = await startSendingStack({
    INBOUND_SMTP_PORT: String(inboundPort),
    INBOUND_MX_HOST: 'mx.delivery-reports.test',
  }));
});
afterAll(async () => {
  await stop?.();
});

interface ReportView {
  id: string;
  emailId: string | null;
  emailTo: string | null;
  recipient: string;
  format: string;
  outcome: string;
  reason: string | null;
  storageKey: string;
  rawUrl: string;
  createdAt: string;
}

const deliver = (raw: string, rcpt: string) => deliverToInbound({ port: inboundPort, raw, rcpt });

/**
 * A project with four reports, oldest first: a DSN applied, the same DSN again (repeated), a DSN
 * about another recipient (undetermined) and an out-of-office reply (ignored).
 */
async function projectWithReports() {
  const fixture = await projectFixture(stack.api);
  const { sk } = fixture;
  const domain = await returnPathDomain(stack.api, dns, sk, 'reports-api');
  const first = await sentWithReturnPath({ api: stack.api, smtp: stack.smtp, sk, domain });
  const second = await sentWithReturnPath({ api: stack.api, smtp: stack.smtp, sk, domain });
  const bounce = dsnMessage({ to: first.returnPath, recipient: first.to });
  await deliver(bounce, first.returnPath);
  await deliver(bounce, first.returnPath);
  await deliver(
    dsnMessage({ to: second.returnPath, recipient: 'someone-else@remote.test' }),
    second.returnPath,
  );
  await deliver(
    outOfOfficeMessage({ to: second.returnPath, recipient: second.to }),
    second.returnPath,
  );
  return { ...fixture, domain, first, second, bounce };
}

const listOf = async (sk: { key: string }, query = '') => {
  const res = await stack.api.get(`/delivery-reports${query}`, sk);
  expect(res.status, res.text).toBe(200);
  return res.body as { data: ReportView[]; cursor: string | null; hasMore: boolean; total: number };
};

const reportRows = (projectId: string) =>
  withDatabase(
    async (db) =>
      (
        await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM delivery_reports WHERE project_id = $1',
          [projectId],
        )
      ).rows[0]?.n,
  );

const fileExists = (storageKey: string) =>
  access(path.join(stack.env.DATA_DIR as string, storageKey)).then(
    () => true,
    () => false,
  );

describe('GET /delivery-reports', () => {
  it('lists the reports newest first with their email and outcome, pages and filters them', async () => {
    const { sk, project, first, second } = await projectWithReports();
    const all = await listOf(sk);
    expect(all.total).toBe(4);
    expect(all.hasMore).toBe(false);
    expect(all.data.map((r) => [r.format, r.outcome, r.emailId])).toEqual([
      ['auto_reply', 'ignored', second.emailId],
      ['dsn', 'undetermined', second.emailId],
      ['dsn', 'repeated', first.emailId],
      ['dsn', 'applied', first.emailId],
    ]);
    const applied = all.data[3] as ReportView;
    expect(applied).toEqual({
      id: applied.id,
      emailId: first.emailId,
      emailTo: first.to,
      recipient: first.returnPath,
      format: 'dsn',
      outcome: 'applied',
      reason: null,
      storageKey: `reports/${project.id}/${applied.id}.eml`,
      rawUrl: `/delivery-reports/${applied.id}/raw`,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(all.data[1]?.reason).toBe("The report does not name the email's recipient");

    // One at a time: the same four in the same order, the count on the first page only.
    const walked: ReportView[] = [];
    let cursor: string | null = null;
    const totals: number[] = [];
    do {
      const page = await listOf(sk, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.data).toHaveLength(1);
      walked.push(...page.data);
      totals.push(page.total);
      cursor = page.cursor;
      expect(page.hasMore).toBe(cursor !== null);
    } while (cursor);
    expect(walked.map((r) => r.id)).toEqual(all.data.map((r) => r.id));
    expect(totals).toEqual([4, 0, 0, 0]);

    const undetermined = await listOf(sk, '?outcome=undetermined');
    expect(undetermined.total).toBe(1);
    expect(undetermined.data.map((r) => r.id)).toEqual([all.data[1]?.id]);
    expect((await listOf(sk, '?outcome=applied')).data.map((r) => r.id)).toEqual([applied.id]);

    // The limit's edges, and what is not an outcome or a cursor.
    expect((await listOf(sk, '?limit=100')).data).toHaveLength(4);
    for (const query of ['?limit=101', '?limit=0', '?outcome=bounced', '?cursor=nonsense']) {
      const res = await stack.api.get(`/delivery-reports${query}`, sk);
      expect(res.status, query).toBe(422);
      expect(res.body.error.code, query).toBe('VALIDATION_ERROR');
    }

    // Another project sees none of them.
    const other = await projectFixture(stack.api);
    expect(await listOf(other.sk)).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
  });
});

describe('GET /delivery-reports/:id and its raw message', () => {
  it('answers the project its own report and the message byte for byte; 404 to another project', async () => {
    const { sk, project, first, bounce } = await projectWithReports();
    const applied = (await listOf(sk, '?outcome=applied')).data[0] as ReportView;
    const one = await stack.api.get(`/delivery-reports/${applied.id}`, sk);
    expect(one.status, one.text).toBe(200);
    expect(one.body).toEqual(applied);

    const raw = await stack.api.get(applied.rawUrl, sk);
    expect(raw.status, raw.text).toBe(200);
    expect(raw.headers.get('content-type')).toBe('message/rfc822');
    expect(raw.headers.get('content-disposition')).toBe(
      `attachment; filename="report-${applied.id}.eml"`,
    );
    expect(raw.text).toBe(bounce);

    // The bounce it applied names it, on the event and on the suppression.
    const events = await stack.api.get(`/activity?type=bounced`, sk);
    expect(events.status, events.text).toBe(200);
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0]).toMatchObject({
      emailId: first.emailId,
      data: { source: 'dsn', reportId: applied.id },
    });
    const suppressions = await stack.api.get('/suppressions', sk);
    expect(suppressions.body.data).toEqual([
      expect.objectContaining({
        email: first.to,
        source: 'dsn',
        detail: expect.objectContaining({ status: '5.1.1', reportId: applied.id }),
      }),
    ]);

    // Another project's key: neither the report nor its message exists.
    const other = await projectFixture(stack.api);
    for (const url of [`/delivery-reports/${applied.id}`, applied.rawUrl]) {
      const res = await stack.api.get(url, other.sk);
      expect(res.status, url).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    // Nor does an unknown id; what is not an id is refused.
    const unknown = '0190a5b4-0000-7000-8000-000000000000';
    expect((await stack.api.get(`/delivery-reports/${unknown}`, sk)).status).toBe(404);
    expect((await stack.api.get(`/delivery-reports/${unknown}/raw`, sk)).status).toBe(404);
    const junk = await stack.api.get('/delivery-reports/not-an-id', sk);
    expect(junk.status).toBe(422);
    expect(junk.body.error.code).toBe('VALIDATION_ERROR');
    expect((await stack.api.get('/delivery-reports/not-an-id/raw', sk)).status).toBe(422);
    expect(await reportRows(project.id)).toBe(4);
  });
});

describe('a project reset or deleted', () => {
  it('takes its reports with it: the rows and the raw messages', async () => {
    const kept = await projectWithReports();
    const reset = await projectWithReports();
    const resetKeys = (await listOf(reset.sk)).data.map((r) => r.storageKey);
    expect(await Promise.all(resetKeys.map(fileExists))).toEqual([true, true, true, true]);

    const res = await stack.api.post(`/users/@me/projects/${reset.project.id}/reset`, {
      cookie: reset.owner.cookie,
    });
    expect(res.status, res.text).toBe(200);
    expect(await listOf(reset.sk)).toEqual({ data: [], cursor: null, hasMore: false, total: 0 });
    expect(await reportRows(reset.project.id)).toBe(0);
    expect(await Promise.all(resetKeys.map(fileExists))).toEqual([false, false, false, false]);
    // A report that arrives after the reset is kept again (its email is gone: undetermined).
    await deliver(reset.bounce, reset.first.returnPath);
    const after = await listOf(reset.sk);
    expect(after.data.map((r) => [r.outcome, r.emailId])).toEqual([['undetermined', null]]);
    const again = await stack.api.get(after.data[0]?.rawUrl as string, reset.sk);
    expect(again.status, again.text).toBe(200);
    expect(again.text).toBe(reset.bounce);

    const deleted = await projectWithReports();
    const deletedKeys = (await listOf(deleted.sk)).data.map((r) => r.storageKey);
    const gone = await stack.api.delete(`/users/@me/projects/${deleted.project.id}`, {
      cookie: deleted.owner.cookie,
    });
    expect(gone.status, gone.text).toBe(204);
    expect(await reportRows(deleted.project.id)).toBe(0);
    expect(await Promise.all(deletedKeys.map(fileExists))).toEqual([false, false, false, false]);

    // Another project's reports stay, and can still be read.
    const keptList = await listOf(kept.sk);
    expect(keptList.total).toBe(4);
    expect(await Promise.all(keptList.data.map((r) => fileExists(r.storageKey)))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    const raw = await stack.api.get(keptList.data[3]?.rawUrl as string, kept.sk);
    expect(raw.status).toBe(200);
  });
});
