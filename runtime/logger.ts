import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; anything that could carry a credential is redacted at the source. */
export function createLogger({ level, name }: { level: string; name: string }): Logger {
  return pino({
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
  });
}
