import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { ConfigError } from './env-settings.js';

/** The certificate SMTP submission presents, and its SHA-256 fingerprint (for clients to pin). */
export interface SubmissionTls {
  key: Buffer;
  cert: Buffer;
  /** Colon-separated upper-case hex, as `openssl x509 -fingerprint -sha256` prints it. */
  sha256: string;
}

/** SHA-256 fingerprint of the first certificate in a PEM file's text. */
export function certificateSha256(cert: Buffer | string): string {
  return new X509Certificate(cert).fingerprint256;
}

/** Reads SMTP_TLS_CERT and SMTP_TLS_KEY; a missing file or a key that does not match refuses to start. */
export async function readSubmissionTls({
  certPath,
  keyPath,
}: {
  certPath: string;
  keyPath: string;
}): Promise<SubmissionTls> {
  const [cert, key] = await Promise.all([readFile(certPath), readFile(keyPath)]).catch(
    (error: Error) => {
      throw new ConfigError(`SMTP_TLS_CERT / SMTP_TLS_KEY could not be read: ${error.message}`);
    },
  );
  try {
    createSecureContext({ cert, key });
    return { cert, key, sha256: certificateSha256(cert) };
  } catch (error) {
    throw new ConfigError(
      `SMTP_TLS_CERT / SMTP_TLS_KEY are not a PEM certificate and its key: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
