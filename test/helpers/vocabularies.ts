import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';

/**
 * Finds vocabularies (sets of string literals: `'A' | 'B'` unions, `[...] as const` arrays and
 * `z.enum([...])` lists) in the source tree and reports every one declared outside its home or
 * repeated. A vocabulary's home is a named declaration in a `domain/**\/*.pure.ts` module.
 */
export interface LiteralSet {
  file: string;
  line: number;
  members: string[];
  /** A named type alias or `as const` array in a pure domain module. */
  home: boolean;
  name?: string;
}

const SOURCE_DIRS = ['api', 'db', 'domain', 'runtime', 'temporal'];
// Where a vocabulary may not be declared inline: the domain, entities and resource SQL modules.
// (Transport and process code may keep their own, such as HTTP methods or log levels, as long
// as nothing repeats them.)
const inDomainLayer = (file: string): boolean =>
  file.startsWith('domain/') ||
  file.startsWith('db/entities/') ||
  /^db\/sql\/.+\.sql\.ts$/.test(file);

export interface SourceFile {
  /** Relative to the repository root, with forward slashes. */
  file: string;
  text: string;
}

/** The TypeScript sources of the application (tests, benchmarks and migrations aside). */
export async function applicationSources(root: string): Promise<SourceFile[]> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (rel !== 'db/migrations') await walk(rel);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(rel);
    }
  };
  for (const dir of SOURCE_DIRS) await walk(dir);
  return Promise.all(
    files
      .sort()
      .map(async (file) => ({ file, text: await readFile(path.join(root, file), 'utf8') })),
  );
}

const isPureDomainModule = (file: string): boolean =>
  file.startsWith('domain/') && file.endsWith('.pure.ts');

function stringLiterals(nodes: readonly ts.Node[]): string[] | undefined {
  const out: string[] = [];
  for (const node of nodes) {
    if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) out.push(node.literal.text);
    else if (ts.isStringLiteral(node)) out.push(node.text);
    else return undefined;
  }
  return out.length >= 2 ? out : undefined;
}

/**
 * `Extract<T, 'A' | 'B'>` names members of a vocabulary declared elsewhere, and
 * `Omit<T, 'a' | 'b'>` names properties: neither declares a vocabulary.
 */
function isTypeArgumentOfUtility(node: ts.Node): boolean {
  const parent = node.parent;
  const utility = ts.isTypeReferenceNode(parent)
    ? parent.typeName
    : ts.isExpressionWithTypeArguments(parent)
      ? parent.expression
      : undefined;
  return (
    utility !== undefined &&
    ts.isIdentifier(utility) &&
    ['Extract', 'Exclude', 'Omit', 'Pick'].includes(utility.text) &&
    (parent as ts.TypeReferenceNode | ts.ExpressionWithTypeArguments).typeArguments?.[1] === node
  );
}

function isZodEnumArgument(node: ts.Node): boolean {
  const call = node.parent;
  return (
    ts.isCallExpression(call) &&
    call.arguments[0] === node &&
    ts.isPropertyAccessExpression(call.expression) &&
    call.expression.name.text === 'enum'
  );
}

export function literalSetsOf(file: string, text: string): LiteralSet[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const sets: LiteralSet[] = [];
  const pure = isPureDomainModule(file);
  const add = (node: ts.Node, members: string[], name?: string): void => {
    sets.push({
      file,
      line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
      members: [...new Set(members)].sort(),
      home: pure && name !== undefined,
      name,
    });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isUnionTypeNode(node) && !isTypeArgumentOfUtility(node)) {
      const members = stringLiterals(node.types);
      if (members) {
        const alias = ts.isTypeAliasDeclaration(node.parent) ? node.parent.name.text : undefined;
        add(node, members, alias);
      }
    } else if (ts.isArrayLiteralExpression(node)) {
      const members = stringLiterals(node.elements);
      const parent = node.parent;
      if (members && ts.isAsExpression(parent) && parent.type.getText() === 'const') {
        let declaration: ts.Node = parent.parent;
        while (ts.isSatisfiesExpression(declaration) || ts.isAsExpression(declaration)) {
          declaration = declaration.parent;
        }
        const name =
          ts.isVariableDeclaration(declaration) && ts.isIdentifier(declaration.name)
            ? declaration.name.text
            : undefined;
        add(node, members, name);
      } else if (members && isZodEnumArgument(node)) add(node, members);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sets;
}

const sameMembers = (a: string[], b: string[]): boolean =>
  a.length === b.length && a.every((m, i) => m === b[i]);
const within = (part: string[], whole: string[]): boolean => part.every((m) => whole.includes(m));
const where = (s: LiteralSet): string => `${s.file}:${s.line}`;
const show = (s: LiteralSet): string => s.members.map((m) => `'${m}'`).join(' | ');

export function vocabularyProblems(sources: SourceFile[]): string[] {
  const sets = sources.flatMap(({ file, text }) => literalSetsOf(file, text));
  const homes = sets.filter((s) => s.home);
  const problems: string[] = [];
  for (const [i, home] of homes.entries()) {
    const twin = homes.slice(0, i).find((other) => sameMembers(other.members, home.members));
    if (twin) problems.push(`${where(home)} declares ${show(home)} again (see ${where(twin)})`);
  }
  const others = sets.filter((s) => !s.home);
  for (const [i, set] of others.entries()) {
    const home = homes.find((h) => within(set.members, h.members));
    if (home) {
      problems.push(`${where(set)} spells out ${show(set)}: use ${home.name} (${where(home)})`);
    } else if (inDomainLayer(set.file)) {
      problems.push(`${where(set)} declares ${show(set)} inline: give it a *.pure.ts home`);
    } else {
      const twin = others.slice(0, i).find((o) => sameMembers(o.members, set.members));
      if (twin) problems.push(`${where(set)} repeats ${show(set)} (see ${where(twin)})`);
    }
  }
  return problems;
}
