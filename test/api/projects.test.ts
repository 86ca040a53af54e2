import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, signUp, type TestUser } from '../helpers/factories.js';
import { withDatabase } from '../helpers/database.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('projects and keys', () => {
  it('answers both keys once on create and masks the secret key afterwards', async () => {
    const owner = await signUp(stack.api, 'owner');
    const res = await stack.api.post('/users/@me/projects', {
      cookie: owner.cookie,
      body: { name: 'Shop' },
    });
    expect(res.status).toBe(201);
    expect(res.body.publicKey).toMatch(/^pk_[0-9A-Za-z]{32}$/);
    expect(res.body.secretKey).toMatch(/^sk_[0-9A-Za-z]{32}$/);
    expect(res.body.role).toBe('OWNER');

    const list = await stack.api.get('/users/@me/projects', { cookie: owner.cookie });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({
      id: res.body.id,
      name: 'Shop',
      publicKey: res.body.publicKey,
      role: 'OWNER',
    });
    expect(list.body[0].secretKey).not.toBe(res.body.secretKey);
    expect(list.body[0].secretKey.endsWith(res.body.secretKey.slice(-4))).toBe(true);
  });

  it('stores the secret key only as a hash', async () => {
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    const found = await withDatabase((db) =>
      db.query(
        "SELECT count(*)::int AS n FROM projects WHERE row_to_json(projects)::text LIKE '%' || $1 || '%'",
        [project.secretKey],
      ),
    );
    expect(found.rows[0].n).toBe(0);
  });

  it('refuses the public key anywhere but /v1/track with 401 INVALID_API_KEY', async () => {
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    for (const [method, path] of [
      ['GET', `/projects/${project.id}/setup-state`],
      ['GET', `/projects/${project.id}/members`],
      ['POST', `/users/@me/projects/${project.id}/regenerate-keys`],
      ['GET', '/users/@me'],
    ] as const) {
      const res = await stack.api.request(method, path, { key: project.publicKey });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    }
  });

  it('refuses missing, malformed and unknown keys with 401 INVALID_API_KEY', async () => {
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    const path = `/projects/${project.id}/setup-state`;
    for (const key of ['sk_short', `sk_${'A'.repeat(32)}`, 'nonsense']) {
      const res = await stack.api.get(path, { key });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_API_KEY');
    }
    expect((await stack.api.get(path)).status).toBe(401);
  });

  it('rotates both keys: old ones fail at once, new ones work', async () => {
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    const path = `/projects/${project.id}/setup-state`;
    expect((await stack.api.get(path, { key: project.secretKey })).status).toBe(200);

    const rotated = await stack.api.post(`/users/@me/projects/${project.id}/regenerate-keys`, {
      cookie: owner.cookie,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secretKey).toMatch(/^sk_/);
    expect(rotated.body.secretKey).not.toBe(project.secretKey);
    expect(rotated.body.publicKey).not.toBe(project.publicKey);

    const old = await stack.api.get(path, { key: project.secretKey });
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('INVALID_API_KEY');
    expect((await stack.api.get(path, { key: rotated.body.secretKey })).status).toBe(200);
  });

  it("gives 404 for another project's ids, by session and by key", async () => {
    const alice = await signUp(stack.api, 'alice');
    const bob = await signUp(stack.api, 'bob');
    const alices = await createProject(stack.api, alice);
    const bobs = await createProject(stack.api, bob);
    for (const path of [
      `/projects/${alices.id}/setup-state`,
      `/projects/${alices.id}/security`,
      `/projects/${alices.id}/members`,
      `/users/@me/projects/${alices.id}/security`,
    ]) {
      const bySession = await stack.api.get(path, { cookie: bob.cookie });
      expect(bySession.status, path).toBe(404);
      expect(bySession.body.error.code).toBe('NOT_FOUND');
      expect((await stack.api.get(path, { key: bobs.secretKey })).status, path).toBe(404);
    }
    for (const [method, path] of [
      ['PATCH', `/users/@me/projects/${alices.id}`],
      ['POST', `/users/@me/projects/${alices.id}/regenerate-keys`],
      ['POST', `/users/@me/projects/${alices.id}/reset`],
      ['DELETE', `/users/@me/projects/${alices.id}`],
      ['PATCH', `/projects/${alices.id}/members/${alice.id}`],
      ['DELETE', `/projects/${alices.id}/members/${alice.id}`],
    ] as const) {
      const res = await stack.api.request(method, path, {
        cookie: bob.cookie,
        body: { name: 'x', role: 'ADMIN' },
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(
      (await stack.api.get(`/projects/${randomUUID()}/setup-state`, { cookie: bob.cookie })).status,
    ).toBe(404);
    expect(
      (await stack.api.get('/projects/not-a-uuid/setup-state', { cookie: bob.cookie })).status,
    ).toBe(404);
    // Alice's project is untouched.
    expect(
      (await stack.api.get(`/projects/${alices.id}/setup-state`, { key: alices.secretKey })).status,
    ).toBe(200);
  });

  it('updates the name and settings', async () => {
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    const res = await stack.api.patch(`/users/@me/projects/${project.id}`, {
      cookie: owner.cookie,
      body: { name: 'Renamed', settings: { tracking: { opens: false } } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Renamed',
      settings: { tracking: { opens: false, clicks: true } },
    });
    const bad = await stack.api.patch(`/users/@me/projects/${project.id}`, {
      cookie: owner.cookie,
      body: { name: '' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.errors[0].field).toBe('name');
  });

  it('resets project data but keeps keys and members; deletes the whole project', async () => {
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    const other = await createProject(stack.api, owner);
    await insertEmails(project.id, [{ sent: true }, { sent: true, bounced: true }]);
    await insertWebhookDelivery(project.id);
    await insertWebhookDelivery(other.id);
    expect(
      (await stack.api.get(`/projects/${project.id}/security`, { cookie: owner.cookie })).body.sent,
    ).toBe(2);

    const reset = await stack.api.post(`/users/@me/projects/${project.id}/reset`, {
      cookie: owner.cookie,
    });
    expect(reset.status).toBe(200);
    expect(
      (await stack.api.get(`/projects/${project.id}/security`, { cookie: owner.cookie })).body.sent,
    ).toBe(0);
    // The project's webhook deliveries go (found through its endpoints, which stay); another
    // project's do not.
    expect(await webhookDeliveries(project.id)).toEqual({ deliveries: 0, endpoints: 1 });
    expect(await webhookDeliveries(other.id)).toEqual({ deliveries: 1, endpoints: 1 });
    expect(
      (await stack.api.get(`/projects/${project.id}/setup-state`, { key: project.secretKey }))
        .status,
    ).toBe(200);

    const removed = await stack.api.delete(`/users/@me/projects/${project.id}`, {
      cookie: owner.cookie,
    });
    expect(removed.status).toBe(204);
    expect(
      (await stack.api.get(`/projects/${project.id}/setup-state`, { cookie: owner.cookie })).status,
    ).toBe(404);
    expect(
      (await stack.api.get(`/projects/${project.id}/setup-state`, { key: project.secretKey }))
        .status,
    ).toBe(401);
    expect(
      (await stack.api.get('/users/@me/projects', { cookie: owner.cookie })).body.map(
        (p: { id: string }) => p.id,
      ),
    ).toEqual([other.id]);
  });
});

/** An endpoint of the project with one delivery queued to it. */
async function insertWebhookDelivery(projectId: string): Promise<void> {
  await withDatabase(async (db) => {
    const endpointId = randomUUID();
    await db.query(
      `INSERT INTO webhook_endpoints (id, project_id, url, event_types, secret)
       VALUES ($1, $2, 'https://hooks.example.com/in', '{email.sent}', 'stored')`,
      [endpointId, projectId],
    );
    await db.query(
      `INSERT INTO webhook_deliveries (id, project_id, endpoint_id, type, payload, queue)
       VALUES ($1, $2, $3, 'email.sent', '{}', 'reset-test')`,
      [randomUUID(), projectId, endpointId],
    );
  });
}

async function webhookDeliveries(
  projectId: string,
): Promise<{ deliveries: number; endpoints: number }> {
  return withDatabase(async (db) => {
    const { rows } = await db.query<{ deliveries: number; endpoints: number }>(
      `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE project_id = $1) AS deliveries,
              (SELECT count(*)::int FROM webhook_endpoints WHERE project_id = $1) AS endpoints`,
      [projectId],
    );
    return rows[0] as { deliveries: number; endpoints: number };
  });
}

async function insertEmails(
  projectId: string,
  rows: { sent?: boolean; bounced?: boolean; complained?: boolean; daysAgo?: number }[],
): Promise<void> {
  await withDatabase(async (db) => {
    for (const row of rows) {
      const at = `now() - interval '${row.daysAgo ?? 0} days'`;
      await db.query(
        `INSERT INTO emails (id, project_id, to_address, subject, type, status, sent_at, bounced_at, complained_at, created_at)
         VALUES ($1, $2, 'x@example.com', 's', 'TRANSACTIONAL', $3,
                 CASE WHEN $4 THEN ${at} END, CASE WHEN $5 THEN ${at} END, CASE WHEN $6 THEN ${at} END, ${at})`,
        [
          randomUUID(),
          projectId,
          row.bounced ? 'BOUNCED' : 'DELIVERED',
          Boolean(row.sent),
          Boolean(row.bounced),
          Boolean(row.complained),
        ],
      );
    }
  });
}

describe('security and setup state', () => {
  it('reports zero rates when nothing was sent', async () => {
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    const res = await stack.api.get(`/projects/${project.id}/security`, { cookie: owner.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      sent: 0,
      bounced: 0,
      complained: 0,
      bounceRate: 0,
      complaintRate: 0,
      status: 'HEALTHY',
      suspensions: [],
    });
  });

  it('computes bounce and complaint rates from the last 30 days of sends', async () => {
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    await insertEmails(project.id, [
      ...Array.from({ length: 16 }, () => ({ sent: true })),
      { sent: true, bounced: true },
      { sent: true, bounced: true },
      { sent: true, complained: true },
      { sent: true },
      { sent: true, bounced: true, daysAgo: 45 }, // outside the window
      { sent: false }, // queued, never left
    ]);
    for (const path of [
      `/projects/${project.id}/security`,
      `/users/@me/projects/${project.id}/security`,
    ]) {
      const res = await stack.api.get(path, { cookie: owner.cookie });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        sent: 20,
        bounced: 2,
        complained: 1,
        bounceRate: 0.1,
        complaintRate: 0.05,
        status: 'WARNING',
      });
    }
  });

  it('tracks onboarding steps from real data', async () => {
    const owner = await signUp(stack.api);
    const project = await createProject(stack.api, owner);
    const before = await stack.api.get(`/projects/${project.id}/setup-state`, {
      cookie: owner.cookie,
    });
    // Billing is off in this file: no subscription step.
    const none = {
      ownerEmailVerified: false,
      teamInvited: false,
      domainVerified: false,
      templateCreated: false,
      contactAdded: false,
      emailSent: false,
      workflowEnabled: false,
      campaignSent: false,
    };
    expect(before.body).toEqual({ projectId: project.id, steps: none, completed: false });
    const teammate = await signUp(stack.api, 'mate');
    await stack.api.post(`/projects/${project.id}/members`, {
      cookie: owner.cookie,
      body: { email: teammate.email },
    });
    await insertEmails(project.id, [{ sent: true }]);
    const after = await stack.api.get(`/projects/${project.id}/setup-state`, {
      cookie: owner.cookie,
    });
    expect(after.body.steps).toEqual({ ...none, teamInvited: true, emailSent: true });
  });
});

describe('members and roles', () => {
  async function teamOf(): Promise<{
    owner: TestUser;
    member: TestUser;
    projectId: string;
    secretKey: string;
  }> {
    const owner = await signUp(stack.api, 'owner');
    const member = await signUp(stack.api, 'member');
    const project = await createProject(stack.api, owner);
    const added = await stack.api.post(`/projects/${project.id}/members`, {
      cookie: owner.cookie,
      body: { email: member.email, role: 'MEMBER' },
    });
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({ userId: member.id, email: member.email, role: 'MEMBER' });
    return { owner, member, projectId: project.id, secretKey: project.secretKey };
  }

  it('tells the new member by email and shows them the project', async () => {
    const { member, projectId } = await teamOf();
    const mail = await stack.smtp.waitFor(
      (m) => m.to.includes(member.email) && /added to/.test(m.parsed.subject ?? ''),
    );
    expect(mail.parsed.subject).toBe('You were added to Test project');
    const projects = await stack.api.get('/users/@me/projects', { cookie: member.cookie });
    expect(projects.body.map((p: { id: string }) => p.id)).toContain(projectId);
    expect(projects.body.find((p: { id: string }) => p.id === projectId).role).toBe('MEMBER');
    const members = await stack.api.get(`/projects/${projectId}/members`, {
      cookie: member.cookie,
    });
    expect(members.status).toBe(200);
    expect(members.body.map((m: { role: string }) => m.role).sort()).toEqual(['MEMBER', 'OWNER']);
  });

  it('forbids a MEMBER to regenerate keys, change settings or manage members (403)', async () => {
    const { owner, member, projectId } = await teamOf();
    const other = await signUp(stack.api, 'other');
    const attempts = [
      stack.api.post(`/users/@me/projects/${projectId}/regenerate-keys`, { cookie: member.cookie }),
      stack.api.patch(`/users/@me/projects/${projectId}`, {
        cookie: member.cookie,
        body: { name: 'Mine' },
      }),
      stack.api.post(`/projects/${projectId}/members`, {
        cookie: member.cookie,
        body: { email: other.email },
      }),
      stack.api.patch(`/projects/${projectId}/members/${owner.id}`, {
        cookie: member.cookie,
        body: { role: 'MEMBER' },
      }),
      stack.api.delete(`/projects/${projectId}/members/${owner.id}`, { cookie: member.cookie }),
      stack.api.post(`/users/@me/projects/${projectId}/reset`, { cookie: member.cookie }),
      stack.api.delete(`/users/@me/projects/${projectId}`, { cookie: member.cookie }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status, res.text).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const members = await stack.api.get(`/projects/${projectId}/members`, { cookie: owner.cookie });
    expect(members.body).toHaveLength(2);
  });

  it('lets an ADMIN rotate keys and manage members but not delete or reset the project', async () => {
    const { owner, member, projectId } = await teamOf();
    const promoted = await stack.api.patch(`/projects/${projectId}/members/${member.id}`, {
      cookie: owner.cookie,
      body: { role: 'ADMIN' },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.role).toBe('ADMIN');
    expect(
      (
        await stack.api.post(`/users/@me/projects/${projectId}/regenerate-keys`, {
          cookie: member.cookie,
        })
      ).status,
    ).toBe(200);
    const third = await signUp(stack.api, 'third');
    expect(
      (
        await stack.api.post(`/projects/${projectId}/members`, {
          cookie: member.cookie,
          body: { email: third.email },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await stack.api.post(`/projects/${projectId}/members`, {
          cookie: member.cookie,
          body: { email: third.email },
        })
      ).status,
    ).toBe(409);
    // Only an OWNER grants or touches OWNER roles.
    expect(
      (
        await stack.api.patch(`/projects/${projectId}/members/${third.id}`, {
          cookie: member.cookie,
          body: { role: 'OWNER' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await stack.api.patch(`/projects/${projectId}/members/${owner.id}`, {
          cookie: member.cookie,
          body: { role: 'MEMBER' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await stack.api.delete(`/projects/${projectId}/members/${third.id}`, {
          cookie: member.cookie,
        })
      ).status,
    ).toBe(204);
    expect(
      (await stack.api.post(`/users/@me/projects/${projectId}/reset`, { cookie: member.cookie }))
        .status,
    ).toBe(403);
    expect(
      (await stack.api.delete(`/users/@me/projects/${projectId}`, { cookie: member.cookie }))
        .status,
    ).toBe(403);
  });

  it('keeps at least one OWNER', async () => {
    const { owner, member, projectId } = await teamOf();
    const demote = await stack.api.patch(`/projects/${projectId}/members/${owner.id}`, {
      cookie: owner.cookie,
      body: { role: 'ADMIN' },
    });
    expect(demote.status).toBe(409);
    expect(
      (
        await stack.api.delete(`/projects/${projectId}/members/${owner.id}`, {
          cookie: owner.cookie,
        })
      ).status,
    ).toBe(409);
    // With a second OWNER, the first may step down.
    expect(
      (
        await stack.api.patch(`/projects/${projectId}/members/${member.id}`, {
          cookie: owner.cookie,
          body: { role: 'OWNER' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await stack.api.patch(`/projects/${projectId}/members/${owner.id}`, {
          cookie: owner.cookie,
          body: { role: 'ADMIN' },
        })
      ).status,
    ).toBe(200);
  });

  it('lets a member leave, and then the project is gone for them', async () => {
    const { member, projectId } = await teamOf();
    expect(
      (
        await stack.api.delete(`/projects/${projectId}/members/${member.id}`, {
          cookie: member.cookie,
        })
      ).status,
    ).toBe(204);
    expect(
      (await stack.api.get(`/projects/${projectId}/members`, { cookie: member.cookie })).status,
    ).toBe(404);
  });

  it('refuses to add an address with no account, with a suggestion', async () => {
    const { owner, projectId } = await teamOf();
    const res = await stack.api.post(`/projects/${projectId}/members`, {
      cookie: owner.cookie,
      body: { email: 'nobody-here@example.com' },
    });
    expect(res.status).toBe(404);
    expect(res.body.error.suggestion).toMatch(/sign up/);
  });

  it('accepts the project secret key on member routes of its own project', async () => {
    const { projectId, secretKey } = await teamOf();
    const res = await stack.api.get(`/projects/${projectId}/members`, { key: secretKey });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
  });

  it('lets only an OWNER or ADMIN add or remove sending domains (403 for a MEMBER)', async () => {
    const { owner, member, projectId } = await teamOf();
    const as = (user: TestUser) => ({
      cookie: user.cookie,
      headers: { 'X-Project-Id': projectId },
    });
    const domain = `${randomUUID().slice(0, 8)}.members.example.com`;
    const refused = await stack.api.post('/domains', { ...as(member), body: { domain } });
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const added = await stack.api.post('/domains', { ...as(owner), body: { domain } });
    expect(added.status, added.text).toBe(201);
    // A member may still read them and ask for a check.
    const listed = await stack.api.get(`/domains/project/${projectId}`, as(member));
    expect(listed.body.map((d: { domain: string }) => d.domain)).toEqual([domain]);
    expect((await stack.api.delete(`/domains/${added.body.id}`, as(member))).status).toBe(403);
    expect((await stack.api.delete(`/domains/${added.body.id}`, as(owner))).status).toBe(204);
  });
});
