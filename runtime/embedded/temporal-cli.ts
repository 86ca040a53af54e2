import { spawn, spawnSync } from 'node:child_process';
import { access, constants, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

export const TEMPORAL_CLI_VERSION = 'v1.5.1';
const GO_PACKAGE = `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`;

async function isExecutable(file: string): Promise<boolean> {
  return access(file, constants.X_OK).then(
    () => true,
    () => false,
  );
}

function onPath(name: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const file = found.stdout.trim();
  return found.status === 0 && file ? file : undefined;
}

export function cachedCliDir(): string {
  const base = process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache');
  return path.join(base, 'mailwright', 'temporal-cli', TEMPORAL_CLI_VERSION);
}

async function goInstall(dir: string, log: (line: string) => void): Promise<string> {
  const go =
    onPath('go') ??
    ((await isExecutable('/usr/local/go/bin/go')) ? '/usr/local/go/bin/go' : undefined);
  if (!go) {
    throw new Error(
      'The Temporal CLI was not found (TEMPORAL_CLI, `temporal` on PATH, or a cached build) and Go is ' +
        'not installed to build it. Install Go >= 1.23, set TEMPORAL_CLI to a temporal binary, or set ' +
        'TEMPORAL_ADDRESS to an existing Temporal server.',
    );
  }
  await mkdir(dir, { recursive: true });
  log(
    `Building the Temporal CLI ${TEMPORAL_CLI_VERSION} with \`go install\` (first run only; ` +
      `usually 3-6 minutes on 2 cores). It is cached in ${dir}.`,
  );
  const started = Date.now();
  const ticker = setInterval(() => {
    log(`  ...still building the Temporal CLI (${Math.round((Date.now() - started) / 1000)} s)`);
  }, 30_000);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(go, ['install', GO_PACKAGE], {
        env: { ...process.env, GOBIN: dir },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`go install ${GO_PACKAGE} exited with ${code}`)),
      );
    });
  } finally {
    clearInterval(ticker);
  }
  log(`Temporal CLI built in ${Math.round((Date.now() - started) / 1000)} s.`);
  return path.join(dir, 'temporal');
}

/**
 * The lookup order is fixed by ARCHITECTURE.md: TEMPORAL_CLI, `temporal` on PATH, the cached
 * build, then `go install`. (The release download is not attempted: this code runs where only
 * package registries are reachable, and a build from the Go module proxy always works there.)
 */
export async function findOrBuildTemporalCli({
  configured,
  log,
}: {
  configured?: string;
  log: (line: string) => void;
}): Promise<string> {
  if (configured) {
    if (await isExecutable(configured)) return configured;
    throw new Error(`TEMPORAL_CLI=${configured} is not an executable file.`);
  }
  const fromPath = onPath('temporal');
  if (fromPath) return fromPath;
  const dir = cachedCliDir();
  const cached = path.join(dir, 'temporal');
  if (await isExecutable(cached)) return cached;
  return goInstall(dir, log);
}
