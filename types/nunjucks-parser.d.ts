declare module 'nunjucks/src/parser.js' {
  const parser: { parse(source: string, extensions?: unknown[], options?: object): unknown };
  export default parser;
}
