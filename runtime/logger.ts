import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs on stdout; anything that could carry a credential is redacted at the
 * source. Lines are written asynchronously (a line waits only while the write before it is in
 * flight, then goes out with the others that queued behind it): under load one write carries many
 * request lines instead of one system call a line. pino writes what is queued before the process
 * exits, `process.exit` included (the fatal-error handler's last line too).
 */
export function createLogger({ level, name }: { level: string; name: string }): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: [
          '*.authorization',
          '*.cookie',
          '*.password',
          '*.token',
          '*.secretKey',
          '*.apiKey',
          'headers.authorization',
          'headers.cookie',
        ],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
