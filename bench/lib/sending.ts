import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { findDeliverableEmails } from '../../db/sql/email-delivery.sql.js';
import { createSql, createSqlPool } from '../../db/sql/sql.js';
import { composeMessage } from '../../domain/sending/deliver.service.js';
import type { OutgoingMessage } from '../../domain/shared/ports.js';
import type { DnsServer } from '../../test/helpers/dns-server.js';
import { json, type BenchStack } from './stack.js';

/** A new domain of the project, its records published on `dns` and verified through the API. */
export async function verifiedBenchDomain(
  stack: BenchStack,
  dns: DnsServer,
  auth: Record<string, string>,
): Promise<string> {
  const domain = `bench-${randomUUID().slice(0, 8)}.example.test`;
  const added = await json(`${stack.apiUrl}/domains`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ domain }),
  });
  for (const record of added.body.records as { name: string; value: string }[])
    dns.publishTxt(record.name, record.value);
  const verified = await json(`${stack.apiUrl}/domains/${added.body.id}/verify`, { headers: auth });
  if (verified.body.status !== 'VERIFIED')
    throw new Error(`domain not verified: ${JSON.stringify(verified.body)}`);
  return domain;
}

/**
 * The floor's messages: the project's emails to addresses starting with `toPrefix`, composed
 * (rendered, DKIM options and all) by the same code the lanes use.
 */
export async function composeFloorMessages(
  stack: BenchStack,
  { projectId, toPrefix }: { projectId: string; toPrefix: string },
): Promise<OutgoingMessage[]> {
  const pool = createSqlPool({ url: stack.databaseUrl, max: 2 });
  try {
    const sql = createSql(pool);
    const rows = await findDeliverableEmails(sql, { projectId, toPrefix });
    const messages: OutgoingMessage[] = [];
    for (const row of rows) {
      const composed = await composeMessage({
        sql,
        row,
        encryptionKey: stack.env.ENCRYPTION_KEY as string,
        publicUrl: stack.apiUrl,
      });
      if ('failed' in composed) throw new Error(composed.failed);
      messages.push(composed.message);
    }
    return messages;
  } finally {
    await pool.end();
  }
}

/** Sends `messages` through one pooled nodemailer transport of `connections`, all at once. */
export async function sendThroughPool(
  smtpUrl: string,
  messages: OutgoingMessage[],
  connections: number,
): Promise<void> {
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: connections,
    url: smtpUrl,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  try {
    await Promise.all(messages.map((message) => transport.sendMail(message)));
  } finally {
    transport.close();
  }
}
