import { Client as TemporalClient, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { waitForJob } from '../helpers/jobs.js';
import { createClient } from '../helpers/http.js';
import { runEntryPoint, type RunningProcess } from '../helpers/processes.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

const UI_URL = 'http://temporal-ui.example:8080';

let stack: TestStack;
let bare: RunningProcess | undefined;
beforeAll(async () => {
  // A trailing slash is dropped, so the dashboard can append paths.
  stack = await startStack({ env: { TEMPORAL_UI_URL: `${UI_URL}/` } });
});
afterAll(async () => {
  await Promise.all([stack?.stop(), bare?.stop()]);
});

describe('GET /config: the Temporal UI', () => {
  it('returns the configured TEMPORAL_UI_URL and the namespace', async () => {
    const res = await stack.api.get('/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ temporalUiUrl: UI_URL, temporalNamespace: 'default' });
  });

  it('returns null when TEMPORAL_UI_URL is unset', async () => {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    bare = runEntryPoint('runtime/api.ts', {
      ...stack.env,
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      TEMPORAL_UI_URL: '',
    });
    await bare.waitForOutput(/"msg":"api listening"/, 90_000);
    const res = await createClient(publicUrl).get('/config');
    expect(res.status).toBe(200);
    expect(res.body.temporalUiUrl).toBeNull();
  });

  it("names the job's Temporal workflow in the job view", async () => {
    const { project, sk } = await projectFixture(stack.api);
    const contact = await stack.api.post('/contacts', { ...sk, body: { email: 'a@example.com' } });
    const res = await stack.api.post('/contacts/bulk-unsubscribe', {
      ...sk,
      body: { contactIds: [contact.body.id] },
    });
    const job = await waitForJob(stack.api, `/contacts/bulk/${res.body.jobId}`, project.secretKey);
    expect(job.workflowId).toBe(`job-${job.id}`);
    const connection = await Connection.connect({ address: inject('stack').temporalAddress });
    try {
      const run = await new TemporalClient({ connection }).workflow
        .getHandle(job.workflowId)
        .describe();
      expect(run.type).toBe('contactJob');
      expect(run.status.name).toBe('COMPLETED');
    } finally {
      await connection.close();
    }
  });
});
