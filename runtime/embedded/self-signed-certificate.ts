import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import selfsigned from 'selfsigned';

const YEARS = 5;

/**
 * The embedded default's SMTP submission certificate: made once under `dir` (cert.pem, key.pem),
 * for `hostname`, localhost and the loopback addresses, then reused by every start. `created` says
 * whether this call made it.
 */
export async function ensureSelfSignedCertificate({
  dir,
  hostname,
}: {
  dir: string;
  hostname: string;
}): Promise<{ certPath: string; keyPath: string; created: boolean }> {
  const certPath = path.join(dir, 'cert.pem');
  const keyPath = path.join(dir, 'key.pem');
  const present = await Promise.all([access(certPath), access(keyPath)]).then(
    () => true,
    () => false,
  );
  if (present) return { certPath, keyPath, created: false };
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate);
  notAfterDate.setFullYear(notAfterDate.getFullYear() + YEARS);
  const names = [...new Set([hostname, 'localhost'])];
  const pems = await selfsigned.generate([{ name: 'commonName', value: hostname }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...names.map((value) => ({ type: 2 as const, value })),
          { type: 7 as const, ip: '127.0.0.1' },
          { type: 7 as const, ip: '::1' },
        ],
      },
    ],
  });
  await mkdir(dir, { recursive: true });
  await writeFile(keyPath, pems.private, { mode: 0o600 });
  await writeFile(certPath, pems.cert, { mode: 0o644 });
  return { certPath, keyPath, created: true };
}
