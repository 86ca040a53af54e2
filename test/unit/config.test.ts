import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../runtime/config.js';
import { ConfigError, parseEnv } from '../../runtime/env-settings.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mw-config-'));
  await chmod(dir, 0o700);
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('configuration', () => {
  it('refuses to start in production without secrets', async () => {
    await expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: await tempDir() })).rejects.toThrow(
      ConfigError,
    );
    await expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: await tempDir() })).rejects.toThrow(
      /JWT_SECRET, ENCRYPTION_KEY, EMAIL_WEBHOOK_SECRET/,
    );
  });

  it('generates missing secrets once outside production and keeps them under DATA_DIR', async () => {
    const dir = await tempDir();
    const first = await loadConfig({ DATA_DIR: dir });
    const second = await loadConfig({ DATA_DIR: dir });
    expect(first.secrets.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(second.secrets).toEqual(first.secrets);
    const file = path.join(dir, 'secrets.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).JWT_SECRET).toBe(first.secrets.JWT_SECRET);
  });

  it('prefers secrets from the environment', async () => {
    const config = await loadConfig({ DATA_DIR: await tempDir(), JWT_SECRET: 'from-env' });
    expect(config.secrets.JWT_SECRET).toBe('from-env');
  });

  it('validates values and names the bad ones', async () => {
    await expect(loadConfig({ DATA_DIR: await tempDir(), PORT: 'eighty' })).rejects.toThrow(/PORT/);
    await expect(
      loadConfig({ DATA_DIR: await tempDir(), RATE_LIMIT_PER_MINUTE: '0' }),
    ).rejects.toThrow(/RATE_LIMIT_PER_MINUTE/);
    await expect(
      loadConfig({ DATA_DIR: await tempDir(), PUBLIC_URL: 'not a url' }),
    ).rejects.toThrow(/PUBLIC_URL/);
  });

  it('has the documented defaults', async () => {
    const config = await loadConfig({ DATA_DIR: await tempDir() });
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      rateLimitPerMinute: 1000,
      disableSignups: false,
    });
    expect(config.temporal).toMatchObject({
      namespace: 'default',
      taskQueue: 'mailwright',
      uiPort: 8233,
    });
    expect(config.emailRetry).toEqual({ windowSeconds: 86_400, maxIntervalSeconds: 600 });
  });

  it("reads the worker's CPU priority: 10 unless set, 0 to 19", () => {
    expect(parseEnv({}).WORKER_NICE).toBe(10);
    expect(parseEnv({ WORKER_NICE: '0' }).WORKER_NICE).toBe(0);
    expect(parseEnv({ WORKER_NICE: '19' }).WORKER_NICE).toBe(19);
    for (const bad of ['20', '-1', '2.5', 'low']) {
      expect(() => parseEnv({ WORKER_NICE: bad })).toThrow(/WORKER_NICE/);
    }
  });

  it('reads the retries of temporarily refused email', async () => {
    const config = await loadConfig({
      DATA_DIR: await tempDir(),
      EMAIL_RETRY_WINDOW: '90m',
      EMAIL_RETRY_MAX_INTERVAL: '30s',
    });
    expect(config.emailRetry).toEqual({ windowSeconds: 5400, maxIntervalSeconds: 30 });
    await expect(
      loadConfig({ DATA_DIR: await tempDir(), EMAIL_RETRY_WINDOW: '1.5h' }),
    ).rejects.toThrow(/EMAIL_RETRY_WINDOW/);
  });
});
