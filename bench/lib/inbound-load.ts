import nodemailer from 'nodemailer';

/** A message as a remote mail system hands it to an MX: envelope and raw bytes. */
export interface InboundMessage {
  from: string;
  to: string;
  raw: string;
}

/**
 * Hands `messages` to the SMTP server on `port` through one pooled transport of `connections`,
 * all at once, as remote systems would; answers the milliseconds until the last was accepted.
 * A message the server does not accept with a 250 ends the run.
 */
export async function deliverInbound({
  port,
  messages,
  connections,
}: {
  port: number;
  messages: InboundMessage[];
  connections: number;
}): Promise<number> {
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: connections,
    maxMessages: Number.POSITIVE_INFINITY,
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  const started = performance.now();
  try {
    await Promise.all(
      messages.map(async (message) => {
        const info = await transport.sendMail({
          envelope: { from: message.from, to: [message.to] },
          raw: message.raw,
        });
        if (info.accepted.length !== 1) throw new Error(`not accepted: ${info.response}`);
      }),
    );
    return performance.now() - started;
  } finally {
    transport.close();
  }
}
