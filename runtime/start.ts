// `npm start`: the whole service, supervised. Unset URLs get embedded defaults: PostgreSQL under
// DATA_DIR, the Temporal dev server (SQLite under DATA_DIR, UI on :8233) and an SMTP sink that
// keeps every message as an .eml file under DATA_DIR/mail. The API and the worker run as child
// processes (the entry points `npm run api` / `npm run worker` run), each restarted alone when it
// exits unexpectedly, so one bad request can never stop the worker or the embedded servers.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { migrate, openOrm } from '../db/orm.js';
import { loadConfig } from './config.js';
import { startEmbeddedPostgres } from './embedded/postgres.js';
import { startSmtpSink } from './embedded/smtp-sink.js';
import { findOrBuildTemporalCli } from './embedded/temporal-cli.js';
import { startWatchedTemporalDevServer } from './embedded/temporal-server.js';
import { portIsFree } from './embedded/free-port.js';
import { ensureSelfSignedCertificate } from './embedded/self-signed-certificate.js';
import { certificateSha256 } from './submission-tls.js';
import { printWelcome, rememberFirstAccount } from './first-run.js';
import { createLogger } from './logger.js';
import { exitOnFatalErrors } from './fatal-errors.js';
import { onShutdown } from './shutdown.js';
import { supervise } from './supervisor.js';

const DEFAULT_INBOUND_PORT = 2525;
const DEFAULT_SUBMISSION_PORT = 587;
const DEFAULT_SUBMISSION_TLS_PORT = 465;

const config = await loadConfig();
const logger = createLogger({ level: config.logLevel, name: 'mailwright' });
exitOnFatalErrors({ logger });
const say = (line: string): void => console.log(line);
const stops: (() => Promise<void>)[] = [];
const stopAll = async (): Promise<void> => {
  for (const stop of stops.reverse())
    await stop().catch((error: unknown) => logger.error({ err: error }, 'stop failed'));
};
onShutdown(logger, stopAll, { watchParent: true });

try {
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    say(`Starting embedded PostgreSQL (data in ${path.join(config.dataDir, 'postgres')})...`);
    const postgres = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      log: say,
      detached: true,
    });
    stops.push(postgres.stop);
    databaseUrl = postgres.url;
  }

  let temporalAddress = config.temporal.address;
  let temporalUiUrl = config.temporal.uiUrl;
  if (!temporalAddress) {
    const cli = await findOrBuildTemporalCli({ configured: config.temporal.cli, log: say });
    say('Starting the Temporal dev server...');
    const temporal = await startWatchedTemporalDevServer({
      cli,
      dataDir: config.dataDir,
      uiPort: config.temporal.uiPort,
      detached: true,
      log: say,
    });
    stops.push(temporal.stop);
    temporalAddress = temporal.address;
    temporalUiUrl ??= temporal.uiUrl;
  }

  let smtpUrl = config.smtpUrl;
  let mailDir: string | undefined;
  if (!smtpUrl) {
    mailDir = path.join(config.dataDir, 'mail');
    const sink = await startSmtpSink({ mailDir });
    stops.push(sink.stop);
    smtpUrl = sink.url;
  }

  // Migrations and the first account before the parts start, so neither races the other.
  const orm = await openOrm({ url: databaseUrl, poolMax: 2 });
  const account = await migrate(orm)
    .then(() => rememberFirstAccount({ orm, dataDir: config.dataDir }))
    .finally(() => orm.close());

  // The embedded default receives mail too (INBOUND_SMTP_PORT, else 2525 when it is free), and
  // its domains' records then advise an MX for PUBLIC_URL's host.
  let inboundPort = config.inbound.port;
  if (inboundPort === undefined) {
    if (await portIsFree(DEFAULT_INBOUND_PORT, config.host)) inboundPort = DEFAULT_INBOUND_PORT;
    else say(`Port ${DEFAULT_INBOUND_PORT} is taken: inbound mail is off (set INBOUND_SMTP_PORT).`);
  }
  // SMTP submission too (SMTP_SUBMISSION_PORT / SMTP_SUBMISSION_TLS_PORT, else 587 and 465 when
  // free), with SMTP_TLS_CERT / SMTP_TLS_KEY or a self-signed certificate made once under DATA_DIR.
  let submissionPort = config.submission.port;
  let submissionTlsPort = config.submission.tlsPort;
  if (submissionPort === undefined && submissionTlsPort === undefined) {
    for (const [port, kind] of [
      [DEFAULT_SUBMISSION_PORT, 'STARTTLS'],
      [DEFAULT_SUBMISSION_TLS_PORT, 'implicit TLS'],
    ] as const) {
      if (!(await portIsFree(port, config.host))) {
        say(
          `Port ${port} cannot be listened on (taken, or privileged for this user): SMTP submission with ${kind} is off (set SMTP_SUBMISSION_PORT / SMTP_SUBMISSION_TLS_PORT).`,
        );
      } else if (port === DEFAULT_SUBMISSION_PORT) submissionPort = port;
      else submissionTlsPort = port;
    }
  }
  let submissionTls = config.submission.tls;
  let selfSigned = false;
  if ((submissionPort !== undefined || submissionTlsPort !== undefined) && !submissionTls) {
    const made = await ensureSelfSignedCertificate({
      dir: path.join(config.dataDir, 'smtp-tls'),
      hostname: config.submission.host,
    });
    submissionTls = { certPath: made.certPath, keyPath: made.keyPath };
    selfSigned = true;
  }
  // Ports picked here because they looked free may be taken by the time the API listens.
  const pickedInbound = config.inbound.port === undefined && inboundPort !== undefined;
  const pickedSubmission =
    config.submission.port === undefined &&
    config.submission.tlsPort === undefined &&
    (submissionPort !== undefined || submissionTlsPort !== undefined);
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    ...(pickedInbound ? { INBOUND_SMTP_PORT_OPTIONAL: 'true' } : {}),
    ...(pickedSubmission ? { SMTP_SUBMISSION_PORTS_OPTIONAL: 'true' } : {}),
    TEMPORAL_ADDRESS: temporalAddress,
    SMTP_URL: smtpUrl,
    DATA_DIR: config.dataDir,
    ...(temporalUiUrl === undefined ? {} : { TEMPORAL_UI_URL: temporalUiUrl }),
    ...(inboundPort === undefined ? {} : { INBOUND_SMTP_PORT: String(inboundPort) }),
    ...(submissionPort === undefined ? {} : { SMTP_SUBMISSION_PORT: String(submissionPort) }),
    ...(submissionTlsPort === undefined
      ? {}
      : { SMTP_SUBMISSION_TLS_PORT: String(submissionTlsPort) }),
    ...(submissionTls
      ? { SMTP_TLS_CERT: submissionTls.certPath, SMTP_TLS_KEY: submissionTls.keyPath }
      : {}),
  };
  const runDir = path.join(config.dataDir, 'run');
  const worker = supervise({ name: 'worker', entry: 'worker', env, runDir, logger });
  stops.push(worker.stop);
  const api = supervise({ name: 'api', entry: 'api', env, runDir, logger });
  // Stopped first: no new requests while the worker drains.
  stops.push(api.stop);
  const [apiUp] = await Promise.all([api.ready, worker.ready]);
  if (typeof apiUp.inboundPort === 'number') say(`Inbound mail: SMTP on port ${apiUp.inboundPort}`);
  const submissionPorts = [
    typeof apiUp.submissionPort === 'number' ? `${apiUp.submissionPort} (STARTTLS)` : undefined,
    typeof apiUp.submissionTlsPort === 'number' ? `${apiUp.submissionTlsPort} (TLS)` : undefined,
  ].filter(Boolean);
  if (submissionPorts.length > 0 && submissionTls) {
    say(
      `SMTP submission: ${config.submission.host} port ${submissionPorts.join(', ')}; any username, the project's secret key as password.`,
    );
    const sha256 = certificateSha256(await readFile(submissionTls.certPath));
    say(
      `  Certificate${selfSigned ? ` (self-signed, ${submissionTls.certPath})` : ''} SHA-256: ${sha256}`,
    );
  }
  say(
    `Parts: API (pid ${api.pid()}), worker (pid ${worker.pid()}); each restarts alone if it exits.`,
  );

  printWelcome({
    say,
    apiUrl: config.publicUrl,
    temporalUiUrl,
    temporalAddress,
    mailDir,
    account,
  });
} catch (error) {
  logger.fatal({ err: error }, 'start failed');
  console.error(error instanceof Error ? error.message : error);
  await stopAll();
  process.exit(1);
}
