import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  CONDITION_OPERATORS,
  type ConditionOperator,
} from '../../domain/segments/filter/ast.pure.js';
import { FILTER_OPERATORS } from '../../domain/segments/filter/filter-operators.pure.js';
import type { OperatorDefinition } from '../../domain/segments/filter/operators/operator-definition.pure.js';
import { assertNever } from '../../domain/shared/assert-never.pure.js';
import type { SystemEmailKind } from '../../domain/system-email/system-email-kind.pure.js';
import { ROOT } from '../helpers/processes.js';
import { applicationSources } from '../helpers/vocabularies.js';

// A forgotten operator entry or vocabulary case does not compile. Two proofs: fixtures checked
// by `npm run typecheck` (each `@ts-expect-error` marks an omission that must stay an error, or
// the directive itself fails), and the tree's own tables and switches compiled with one entry or
// case removed.

const everyOperator = (table: Record<ConditionOperator, OperatorDefinition>) => table;
const { contains: _contains, ...withoutContains } = FILTER_OPERATORS;
// @ts-expect-error: the table lacks `contains`
everyOperator(withoutContains);

function subjectOf(kind: SystemEmailKind): string {
  switch (kind) {
    case 'VERIFY_EMAIL':
    case 'RESET_PASSWORD':
    case 'PROJECT_INVITATION':
      return 'account';
  }
  // @ts-expect-error: BILLING_LIMIT_WARNING has no case
  return assertNever(kind);
}

const options = (() => {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
})();
const parsed = new Map<string, ts.SourceFile>();

/** What tsc reports in `file` when its text is `text` (the rest of the tree as it is). */
function errorsIn(file: string, text: string): string[] {
  const absolute = path.join(ROOT, file);
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) => {
    if (path.resolve(name) === absolute) return ts.createSourceFile(name, text, language, true);
    const known = parsed.get(name) ?? read(name, language);
    if (known) parsed.set(name, known);
    return known;
  };
  const program = ts.createProgram([absolute], options, host);
  const source = program.getSourceFile(absolute) as ts.SourceFile;
  return program
    .getSemanticDiagnostics(source)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

interface Omission {
  file: string;
  /** What was removed. */
  removed: string;
  text: string;
}

/** Each `switch` followed by `assertNever`, with its first case removed. */
function switchesWithoutACase(file: string, text: string): Omission[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Omission[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isSwitchStatement(node) && ts.isBlock(node.parent)) {
      const next = node.parent.statements[node.parent.statements.indexOf(node) + 1];
      const clause = node.caseBlock.clauses[0];
      if (next?.getText().includes('assertNever(') && clause) {
        out.push({
          file,
          removed: clause.getText().split('\n')[0] as string,
          text: text.slice(0, clause.getFullStart()) + text.slice(clause.getEnd()),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** Each `{...} satisfies Record<...>` table, with its first entry removed. */
function tablesWithoutAnEntry(file: string, text: string): Omission[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Omission[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isSatisfiesExpression(node) &&
      ts.isObjectLiteralExpression(node.expression) &&
      node.type.getText().startsWith('Record<')
    ) {
      const [first, second] = node.expression.properties;
      if (first && second) {
        out.push({
          file,
          removed: first.getText().split('\n')[0] as string,
          text: text.slice(0, first.getFullStart()) + text.slice(second.getFullStart()),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('exhaustiveness', () => {
  it('has an operator definition for every operator, and no other', () => {
    expect(Object.keys(FILTER_OPERATORS).sort()).toEqual([...CONDITION_OPERATORS].sort());
    expect(subjectOf('VERIFY_EMAIL')).toBe('account');
    expect(() => assertNever('X' as never)).toThrow('Unexpected value: "X"');
  });

  it('does not compile with an operator entry or a vocabulary case removed', async () => {
    const sources = await applicationSources(ROOT);
    const switches = sources.flatMap(({ file, text }) => switchesWithoutACase(file, text));
    const tables = sources
      .filter(({ file }) => file.startsWith('domain/segments/filter/'))
      .flatMap(({ file, text }) => tablesWithoutAnEntry(file, text));
    // The filter table and its seven families; the switches over step types, field kinds and
    // system email kinds (more as they come).
    expect(tables.length).toBeGreaterThanOrEqual(8);
    expect(switches.length).toBeGreaterThanOrEqual(5);
    const compiling = [...tables, ...switches]
      .filter(({ file, text }) => errorsIn(file, text).length === 0)
      .map(({ file, removed }) => `${file} without ${removed}`);
    expect(compiling).toEqual([]);
  }, 120_000);
});
