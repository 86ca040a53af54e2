import PostalMime, { type Email } from 'postal-mime';
import {
  startSmtpSink,
  type ReceivedMessage,
  type SmtpDataHandler,
} from '../../runtime/embedded/smtp-sink.js';

export interface CapturedEmail extends ReceivedMessage {
  parsed: Email;
}

/** A real SMTP server in the test process that parses every message it accepts. */
export async function startSmtpCapture() {
  const messages: CapturedEmail[] = [];
  const waiters = new Set<() => void>();
  let respond: SmtpDataHandler | undefined;
  let answerSender: ((address: string) => void) | undefined;
  const sink = await startSmtpSink({
    onSender: (address) => answerSender?.(address),
    onMessage: async (message, connection) => {
      await respond?.(message, connection);
      // A client that hung up before the answer never saw the message accepted; an MTA drops it.
      if (connection.closed()) return;
      messages.push({ ...message, parsed: await PostalMime.parse(message.raw) });
      for (const wake of waiters) wake();
    },
  });

  async function waitFor(
    predicate: (m: CapturedEmail) => boolean,
    { timeoutMs = 30_000 } = {},
  ): Promise<CapturedEmail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`No matching email within ${timeoutMs} ms (${messages.length} received)`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          waiters.delete(wake);
          resolve();
        };
        waiters.add(wake);
        setTimeout(wake, Math.min(left, 250));
      });
    }
  }

  return {
    url: sink.url,
    messages,
    waitFor,
    /** Lets a test answer with an SMTP error (throw an error with `responseCode`). */
    setResponder(handler: SmtpDataHandler | undefined) {
      respond = handler;
    },
    /** Lets a test refuse a sender at MAIL FROM (throw an error with `responseCode`). */
    setSenderResponder(handler: ((address: string) => void) | undefined) {
      answerSender = handler;
    },
    stop: sink.stop,
  };
}

export type SmtpCapture = Awaited<ReturnType<typeof startSmtpCapture>>;
