import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes.js';

const eslint = new ESLint({ cwd: ROOT });

async function restrictedImports(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

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
});
