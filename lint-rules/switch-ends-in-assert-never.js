// A `switch` over a vocabulary (a union of string literals: statuses, types, kinds, operators)
// has no `default:` and is followed by `return assertNever(x)` (domain/shared/
// assert-never.pure.ts), so a member left without a case does not compile: its cases answer or
// throw. (typescript-eslint's switch-exhaustiveness-check also names the missing members.)

const isAssertNever = (node) =>
  node?.type === 'CallExpression' &&
  node.callee.type === 'Identifier' &&
  node.callee.name === 'assertNever';

function statementAfter(node) {
  const parent = node.parent;
  const body = parent.type === 'SwitchCase' ? parent.consequent : parent.body;
  if (!Array.isArray(body)) return undefined;
  return body[body.indexOf(node) + 1];
}

function endsInAssertNever(node) {
  const next = statementAfter(node);
  if (next?.type === 'ReturnStatement') return isAssertNever(next.argument);
  return next?.type === 'ExpressionStatement' && isAssertNever(next.expression);
}

export const switchEndsInAssertNever = {
  meta: {
    type: 'problem',
    docs: { description: 'A switch over a vocabulary is followed by assertNever' },
    messages: {
      defaultCase:
        'A switch over a vocabulary ({{type}}) lists every member instead of a `default:`, and is followed by `return assertNever(...)`.',
      missing:
        'A switch over a vocabulary ({{type}}) is followed by `return assertNever(...)` (domain/shared/assert-never.pure.ts), with no default case, so a forgotten member does not compile.',
    },
    schema: [],
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    return {
      SwitchStatement(node) {
        const type = services.getTypeAtLocation(node.discriminant);
        const members = type.isUnion() ? type.types : [type];
        const vocabulary = members.length > 1 && members.every((t) => t.isStringLiteral());
        if (!vocabulary) return;
        const data = { type: services.program.getTypeChecker().typeToString(type) };
        const defaultCase = node.cases.find((c) => c.test === null);
        if (defaultCase) context.report({ node: defaultCase, messageId: 'defaultCase', data });
        if (!endsInAssertNever(node)) context.report({ node, messageId: 'missing', data });
      },
    };
  },
};
