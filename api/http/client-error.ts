import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ErrorBody } from '../middleware/error-envelope.js';

/**
 * What Node's HTTP parser refuses before any middleware runs (a NUL or CR/LF in a header, a
 * malformed request line, headers past the size limit) is answered in the error envelope too,
 * instead of Node's bare `400 Bad Request`.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const requestId = randomUUID();
  const body: ErrorBody = {
    success: false,
    error: {
      code: 'BAD_REQUEST',
      message: tooLarge ? 'The request headers are too large' : 'The request is malformed',
      statusCode: status,
      requestId,
    },
    timestamp: new Date().toISOString(),
  };
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(text)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      text,
  );
}
