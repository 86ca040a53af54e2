// The floor for POST /v1/track: a bare node:http handler doing the same two SQL statements with
// the `pg` driver (contact upsert with a jsonb merge, event insert), no framework, no auth, no
// validation. What we measure against it is everything our API adds.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const projectId = process.env.PROJECT_ID as string;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        email: string;
        event: string;
        data?: object;
      };
      const contact = await pool.query(
        `INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
         VALUES ($1, $2, $3, true, $4, now(), now(), now())
         ON CONFLICT (project_id, email) DO UPDATE SET data = contacts.data || excluded.data, updated_at = now()
         RETURNING id`,
        [randomUUID(), projectId, body.email.toLowerCase(), JSON.stringify(body.data ?? {})],
      );
      const eventId = randomUUID();
      await pool.query(
        `INSERT INTO events (id, project_id, contact_id, name, data, created_at) VALUES ($1, $2, $3, $4, $5, now())`,
        [eventId, projectId, contact.rows[0].id, body.event, JSON.stringify(body.data ?? {})],
      );
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          success: true,
          data: {
            contact: contact.rows[0].id,
            event: eventId,
            timestamp: new Date().toISOString(),
          },
        }),
      );
    } catch (error) {
      res.writeHead(500);
      res.end(String(error));
    }
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('floor listening'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
