import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes.js';

const eslint = new ESLint({ cwd: ROOT });

async function messagesOf(file: string, code: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

const restrictedImports = (file: string, code: string): Promise<string[]> =>
  messagesOf(file, code, '@typescript-eslint/no-restricted-imports');

const restrictedSyntax = (file: string, code: string): Promise<string[]> =>
  messagesOf(file, code, 'no-restricted-syntax');

describe('architecture lint rules', () => {
  it('keeps workflow code deterministic', async () => {
    const file = 'temporal/workflows/probe.workflow.ts';
    expect(
      await restrictedImports(
        file,
        "import { sleep } from '@temporalio/workflow';\nexport const a = sleep;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        file,
        "import { x } from '../shared/workflow-ids.js';\nexport const a = x;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        file,
        "import type { Activities } from '../activities/index.js';\nexport type A = Activities;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        file,
        "import { f } from '../../domain/x/rules.pure.js';\nexport const a = f;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        file,
        "import { createActivities } from '../activities/index.js';\nexport const a = createActivities;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(file, "import pg from 'pg';\nexport const a = pg;\n"),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        file,
        "import { newId } from '../../domain/shared/ids.js';\nexport const a = newId;\n",
      ),
    ).toHaveLength(1);
  });

  it('keeps pure domain modules free of I/O', async () => {
    const file = 'domain/x/probe.pure.ts';
    expect(
      await restrictedImports(file, "import { z } from 'zod';\nexport const a = z;\n"),
    ).toEqual([]);
    expect(
      await restrictedImports(
        file,
        "import { readFile } from 'node:fs';\nexport const a = readFile;\n",
      ),
    ).toHaveLength(1);
  });

  it('keeps the API layer free of SQL and Temporal', async () => {
    const file = 'api/routes/probe.routes.ts';
    expect(
      await restrictedImports(
        file,
        "import { Client } from '@temporalio/client';\nexport const a = Client;\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedImports(file, "import pg from 'pg';\nexport const a = pg;\n"),
    ).toHaveLength(1);
    expect(
      await restrictedImports(
        file,
        "import type { EntityManager } from '@mikro-orm/core';\nexport type A = EntityManager;\n",
      ),
    ).toEqual([]);
  });

  it('keeps SQL text and raw connections out of the domain (the filter compiler aside)', async () => {
    const service = 'domain/contacts/probe.service.ts';
    expect(
      await restrictedSyntax(
        service,
        "export const q = (sql: any) => sql.query('SELECT id FROM contacts WHERE id = $1');\n",
      ),
    ).toHaveLength(1);
    expect(
      await restrictedSyntax(
        service,
        'export const q = (id: string) => `UPDATE contacts SET data = $1 WHERE id = ${id}`;\n',
      ),
    ).toHaveLength(1);
    expect(
      await restrictedSyntax(
        service,
        'export const q = (em: any) => em.getConnection().execute("x");\n',
      ),
    ).toHaveLength(1);
    expect(
      await restrictedSyntax(
        service,
        "// A claiming UPDATE answers the rows.\nexport const a = 'select one';\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedSyntax(
        'domain/segments/filter/compile-sql.pure.ts',
        "export const q = 'SELECT 1 FROM events WHERE name = $1';\n",
      ),
    ).toEqual([]);
  });

  it('lets entities import vocabularies and ids from the domain, nothing else', async () => {
    const file = 'db/entities/probe.entity.ts';
    expect(
      await restrictedImports(
        file,
        "import { EMAIL_TYPES } from '../../domain/sending/email-type.pure.js';\nexport const a = EMAIL_TYPES;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        file,
        "import { newId } from '../../domain/shared/ids.js';\nexport const a = newId;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        file,
        "import { sendEmails } from '../../domain/sending/send.service.js';\nexport const a = sendEmails;\n",
      ),
    ).toHaveLength(1);
  });

  it('keeps default out of switches over vocabularies, which end in assertNever', async () => {
    const file = 'domain/probe/switch.pure.ts';
    const vocabularySwitch = (body: string, after = '') =>
      [
        "import { assertNever } from '../shared/assert-never.pure.js';",
        "type Kind = 'A' | 'B';",
        'export function f(kind: Kind, text: string): number {',
        "  if (text === '') return 0;",
        `  switch (kind) {\n${body}\n  }`,
        after,
        '}',
      ].join('\n');
    const switchRules = async (code: string) => [
      ...(await messagesOf(file, code, 'mailwright/switch-ends-in-assert-never')),
      ...(await messagesOf(file, code, '@typescript-eslint/switch-exhaustiveness-check')),
    ];
    expect(
      await switchRules(
        vocabularySwitch("case 'A': return 1;\ncase 'B': return 2;", 'return assertNever(kind);'),
      ),
    ).toEqual([]);
    // A default beside every member, or instead of some.
    expect(
      await switchRules(
        vocabularySwitch(
          "case 'A': return 1;\ncase 'B': return 2;\ndefault: return 3;",
          'return 4;',
        ),
      ),
    ).not.toEqual([]);
    expect(
      await switchRules(vocabularySwitch("case 'A': return 1;\ndefault: return 3;", 'return 4;')),
    ).not.toEqual([]);
    // Every member, but nothing that fails to compile when one is removed.
    expect(
      await switchRules(vocabularySwitch("case 'A': return 1;\ncase 'B': return 2;", 'return 4;')),
    ).toHaveLength(1);
    // A switch over an open type (text from outside) may have a default.
    expect(
      await switchRules(
        [
          'export function g(text: string): number {',
          "  switch (text) {\n    case 'A': return 1;\n    default: return 2;\n  }",
          '}',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});
