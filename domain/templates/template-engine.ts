import nunjucks from 'nunjucks';
import parser from 'nunjucks/src/parser.js';
import { validationError, type FieldError } from '../shared/errors.js';

// Templates are written by customers, so rendering must not reach the host. nunjucks is not a
// sandbox by itself (`range.constructor("...")()` reaches Function), so every template is parsed
// and refused if it names a prototype-chain property, looks a property up by a computed name, or
// loads another template. Rendering has no loader and autoescapes HTML.
const FORBIDDEN_NAMES = new Set(['constructor', 'prototype', '__proto__']);
const FORBIDDEN_TAGS = new Set(['Include', 'Import', 'FromImport', 'Extends']);

interface AstNode {
  typename?: string;
  lineno?: number;
  value?: unknown;
  val?: AstNode;
  [key: string]: unknown;
}

const htmlEnv = new nunjucks.Environment(null, { autoescape: true, throwOnUndefined: false });
const textEnv = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });

/** Plunk's `{{ name ?? 'there' }}` becomes nunjucks' `{{ name | default('there') }}`. */
export function translatePlunkSyntax(source: string): string {
  return source.replace(/\{\{\s*([^{}]+?)\s*\?\?\s*([^{}]+?)\s*\}\}/g, '{{ $1 | default($2) }}');
}

function problem(node: AstNode): string | undefined {
  if (node.typename && FORBIDDEN_TAGS.has(node.typename))
    return 'Templates cannot load other templates';
  if (node.typename === 'LookupVal') {
    const key = node.val;
    if (!key || key.typename !== 'Literal')
      return 'Look properties up by a fixed name (a.b or a["b"])';
    if (
      typeof key.value === 'string' &&
      (FORBIDDEN_NAMES.has(key.value) || key.value.startsWith('__'))
    ) {
      return `"${key.value}" cannot be used in a template`;
    }
  }
  if (
    node.typename === 'Symbol' &&
    typeof node.value === 'string' &&
    (FORBIDDEN_NAMES.has(node.value) || node.value.startsWith('__'))
  ) {
    return `"${node.value}" cannot be used in a template`;
  }
  return undefined;
}

function walk(node: unknown, found: { line: number; message: string }[]): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, found);
    return;
  }
  const ast = node as AstNode;
  const message = problem(ast);
  if (message) found.push({ line: (ast.lineno ?? 0) + 1, message });
  for (const [key, value] of Object.entries(ast)) {
    if (key !== 'parent' && typeof value === 'object') walk(value, found);
  }
}

/** Field errors for a template source: syntax errors (with their line) and unsafe constructs. */
export function templateProblems(source: string, field: string): FieldError[] {
  const translated = translatePlunkSyntax(source);
  let ast: unknown;
  try {
    ast = parser.parse(translated, [], {});
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error))
      .replace(/\s+/g, ' ')
      .trim();
    const line = (error as { lineno?: number }).lineno;
    return [
      {
        field,
        message: line === undefined ? message : `Line ${line}: ${message}`,
        code: 'template_syntax',
      },
    ];
  }
  const found: { line: number; message: string }[] = [];
  walk(ast, found);
  return found.map((f) => ({
    field,
    message: `Line ${f.line}: ${f.message}`,
    code: 'template_unsafe',
  }));
}

export function assertTemplatesValid(sources: Record<string, string | undefined>): void {
  const errors = Object.entries(sources).flatMap(([field, source]) =>
    source === undefined ? [] : templateProblems(source, field),
  );
  if (errors.length > 0) throw validationError(errors);
}

// Checked and compiled templates by source: a campaign or a burst of sends renders one template
// thousands of times. Bounded; the oldest entry goes first.
const COMPILED_MAX = 500;
const compiled = new Map<string, nunjucks.Template>();

function compiledTemplate(source: string, escape: boolean): nunjucks.Template {
  const key = `${escape ? 'h' : 't'}:${source}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  const problems = templateProblems(source, 'template');
  if (problems.length > 0) throw validationError(problems);
  const template = nunjucks.compile(translatePlunkSyntax(source), escape ? htmlEnv : textEnv);
  if (compiled.size >= COMPILED_MAX) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, template);
  return template;
}

/**
 * Renders a checked template. A failure throws: an email is never sent half-rendered.
 * `escape: false` is for subjects and plain text, where HTML escaping would be wrong.
 */
export function renderTemplate(
  source: string,
  variables: Record<string, unknown>,
  { escape = true } = {},
): string {
  return compiledTemplate(source, escape).render({ ...variables });
}
