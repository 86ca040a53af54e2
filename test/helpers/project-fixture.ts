import { createProject, signUp, type TestProject, type TestUser } from './factories.js';
import type { Client } from './http.js';

/** A fresh user and project, with a client that sends the project's secret key. */
export async function projectFixture(
  api: Client,
): Promise<{ owner: TestUser; project: TestProject; sk: { key: string } }> {
  const owner = await signUp(api, 'owner');
  const project = await createProject(api, owner);
  return { owner, project, sk: { key: project.secretKey } };
}
