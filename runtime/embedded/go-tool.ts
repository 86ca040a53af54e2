import { spawn, spawnSync } from 'node:child_process';
import { access, constants, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** A command-line tool built from the Go module proxy when the machine does not have it. */
export interface GoTool {
  /** What the messages call it ("the Temporal CLI"). */
  title: string;
  /** The binary's name, looked up on PATH and written by `go install`. */
  binary: string;
  /** False for a name too generic to trust on PATH (Temporal's server builds as `server`). */
  searchPath?: boolean;
  /** The cache folder's name under ~/.cache/mailwright. */
  cacheName: string;
  version: string;
  /** The `go install` argument, version included. */
  goPackage: string;
  /** The environment variable that names a binary to use instead. */
  envVar: string;
  /** How long a build usually takes here, for the first message. */
  buildTime: string;
}

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

export function cachedToolDir(tool: GoTool): string {
  const base = process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache');
  return path.join(base, 'mailwright', tool.cacheName, tool.version);
}

async function goInstall(tool: GoTool, dir: string, log: (line: string) => void): Promise<string> {
  const go =
    onPath('go') ??
    ((await isExecutable('/usr/local/go/bin/go')) ? '/usr/local/go/bin/go' : undefined);
  if (!go) {
    throw new Error(
      `${tool.title} was not found (${tool.envVar}, \`${tool.binary}\` on PATH, or a cached build) ` +
        `and Go is not installed to build it. Install Go >= 1.23 or set ${tool.envVar} to a ` +
        `${tool.binary} binary.`,
    );
  }
  await mkdir(dir, { recursive: true });
  log(
    `Building ${tool.title} ${tool.version} with \`go install\` (first run only; usually ` +
      `${tool.buildTime} on 2 cores). It is cached in ${dir}.`,
  );
  const started = Date.now();
  const ticker = setInterval(() => {
    log(`  ...still building ${tool.title} (${Math.round((Date.now() - started) / 1000)} s)`);
  }, 30_000);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(go, ['install', tool.goPackage], {
        env: { ...process.env, GOBIN: dir },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`go install ${tool.goPackage} exited with ${code}`)),
      );
    });
  } finally {
    clearInterval(ticker);
  }
  log(`${tool.title} built in ${Math.round((Date.now() - started) / 1000)} s.`);
  return path.join(dir, tool.binary);
}

/**
 * The lookup order ARCHITECTURE.md fixes for the Temporal CLI, for any such tool: the variable
 * naming a binary, the binary on PATH, the cached build, then `go install`. (No release download:
 * this code runs where only package registries are reachable, and the Go module proxy is one.)
 */
export async function findOrBuildGoTool(
  tool: GoTool,
  { configured, log }: { configured?: string; log: (line: string) => void },
): Promise<string> {
  if (configured) {
    if (await isExecutable(configured)) return configured;
    throw new Error(`${tool.envVar}=${configured} is not an executable file.`);
  }
  const fromPath = tool.searchPath === false ? undefined : onPath(tool.binary);
  if (fromPath) return fromPath;
  const dir = cachedToolDir(tool);
  const cached = path.join(dir, tool.binary);
  if (await isExecutable(cached)) return cached;
  return goInstall(tool, dir, log);
}
