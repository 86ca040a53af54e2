/**
 * A template source that renders as `text` itself, whatever it holds: every `{` that would open an
 * output, a tag or a comment (`{{`, `{%`, `{#`), and every `#` that would close a comment (`#}`,
 * an error on its own), becomes an output of that one character as a string, which no escaping
 * changes. For finished content that goes through the template path, such as a message submitted
 * over SMTP, whose CSS braces or literal `{{` must reach the reader untouched.
 */
export function literalTemplate(text: string): string {
  return text.replace(/\{(?=[{%#])|#(?=\})/g, (char) => `{{ "${char}" }}`);
}
