import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY_RUNTIME, entryPointCommand, SERVER_ENTRIES } from '../../runtime/entry-points.js';
import { PROJECT_ROOT } from '../../runtime/project-root.js';

const scripts = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8'))
  .scripts as Record<string, string>;

describe('entry points', () => {
  it.each(SERVER_ENTRIES)(
    '`npm run %s` builds the bundle and runs it with the flags and environment the supervisor uses',
    (entry) => {
      const { nodeFlags, env } = ENTRY_RUNTIME[entry];
      const assignments = Object.entries(env).map(
        ([name, value]) => `${name}=\${${name}:-${value}}`,
      );
      expect(scripts[entry]).toBe(
        [
          'npm run build:server --silent &&',
          ...assignments,
          'exec node',
          ...nodeFlags,
          `dist/server/${entry}.js`,
        ].join(' '),
      );
    },
  );

  it('runs the sources under tsx, with the same flags, when this process runs from the sources', () => {
    const worker = entryPointCommand('worker');
    expect(worker.file).toBe(path.join(PROJECT_ROOT, 'runtime', 'worker.ts'));
    expect(worker.execArgv).toEqual([...ENTRY_RUNTIME.worker.nodeFlags, '--import', 'tsx']);
    expect(worker.env).toEqual(ENTRY_RUNTIME.worker.env);
  });

  it('gives node only flags it accepts', () => {
    for (const entry of SERVER_ENTRIES) {
      const flags = ENTRY_RUNTIME[entry].nodeFlags;
      expect(
        execFileSync(process.execPath, [...flags, '-p', '1+1'])
          .toString()
          .trim(),
      ).toBe('2');
    }
  });
});
