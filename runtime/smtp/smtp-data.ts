const CRLF = Buffer.from('\r\n', 'latin1');
const END_OF_DATA = Buffer.from('.\r\n', 'latin1');
const LF_DOT = Buffer.from('\n.', 'latin1');

/**
 * A finished message (CRLF lines) as DATA carries it (RFC 5321 4.5.2): every line that starts with
 * "." gets a second one, the last line ends with CRLF, then the lone "." that ends the data. The
 * message is copied only where a line needs the extra dot (mail the lean builder makes never has
 * one: its quoted-printable escapes a leading dot).
 */
export function dataChunks(message: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  let start = 0;
  if (message[0] === 0x2e) {
    chunks.push(Buffer.from('.', 'latin1'));
  }
  for (let at = message.indexOf(LF_DOT); at !== -1; at = message.indexOf(LF_DOT, at + 1)) {
    // Up to and including the line's first ".", then that "." once more as the next chunk's start.
    chunks.push(message.subarray(start, at + 2));
    start = at + 1;
  }
  chunks.push(start === 0 ? message : message.subarray(start));
  const endsWithCrlf =
    message.length >= 2 && message[message.length - 2] === 0x0d && message.at(-1) === 0x0a;
  if (!endsWithCrlf) chunks.push(CRLF);
  chunks.push(END_OF_DATA);
  return chunks;
}
