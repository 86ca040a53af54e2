import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Orm } from '../db/orm.js';
import { ensureFirstAccount, type FirstAccount } from '../domain/accounts/first-account.service.js';
import { Project } from '../db/entities/index.js';
import { secretKeyMatches } from '../domain/projects/api-keys.js';

const FIRST_ACCOUNT_EMAIL = 'admin@mailwright.local';

export interface RememberedAccount extends FirstAccount {
  keysStillValid: boolean;
}

/**
 * The first start creates a user and a project and keeps their credentials in
 * DATA_DIR/first-account.json (mode 600) so later starts can print them again; the database
 * itself only ever holds the secret key's hash.
 */
export async function rememberFirstAccount({
  orm,
  dataDir,
}: {
  orm: Orm;
  dataDir: string;
}): Promise<RememberedAccount | undefined> {
  const file = path.join(dataDir, 'first-account.json');
  const em = orm.em.fork();
  const created = await ensureFirstAccount({ em, email: FIRST_ACCOUNT_EMAIL });
  if (created) {
    await writeFile(file, JSON.stringify(created, null, 2), { mode: 0o600 });
    return { ...created, keysStillValid: true };
  }
  const stored = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as FirstAccount)
    .catch(() => undefined);
  if (!stored) return undefined;
  const project = await em.findOne(Project, { id: stored.projectId });
  const keysStillValid = Boolean(
    project && secretKeyMatches(stored.keys.secretKey, project.secretKeyHash),
  );
  return { ...stored, keysStillValid };
}

export function printWelcome({
  say,
  apiUrl,
  temporalUiUrl,
  temporalAddress,
  mailDir,
  account,
}: {
  say: (line: string) => void;
  apiUrl: string;
  temporalUiUrl?: string;
  temporalAddress: string;
  mailDir?: string;
  account?: RememberedAccount;
}): void {
  const lines = [
    '',
    'Mailwright is running.',
    `  Dashboard:    ${apiUrl}/app/`,
    `  API:          ${apiUrl}`,
    `  API docs:     ${apiUrl}/docs`,
    `  Temporal UI:  ${temporalUiUrl ?? `(external Temporal at ${temporalAddress})`}`,
  ];
  if (mailDir) lines.push(`  Mail sink:    every email is kept as an .eml file in ${mailDir}`);
  if (account) {
    lines.push(
      '',
      `  Login:        ${account.email} / ${account.password}`,
      `  Project:      ${account.projectId}`,
    );
    if (account.keysStillValid) {
      lines.push(
        `  Public key:   ${account.keys.publicKey}`,
        `  Secret key:   ${account.keys.secretKey}`,
      );
    } else {
      lines.push(
        '  Keys:         rotated since the first start; the new secret key was shown once.',
      );
    }
  }
  lines.push('', 'Press Ctrl-C to stop.', '');
  say(lines.join('\n'));
}
