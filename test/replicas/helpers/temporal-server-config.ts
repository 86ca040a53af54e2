/** Where the server's store lives: one PostgreSQL server, two databases of its own. */
export interface TemporalStore {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  visibilityDatabase: string;
}

/** The ports of the four services of a single-node server (all on 127.0.0.1). */
export interface TemporalServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

const datastore = (store: TemporalStore, database: string, maxConns: number): string => `
      sql:
        pluginName: postgres12
        databaseName: ${JSON.stringify(database)}
        connectAddr: ${JSON.stringify(`${store.host}:${store.port}`)}
        connectProtocol: tcp
        user: ${JSON.stringify(store.user)}
        password: ${JSON.stringify(store.password)}
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: 1h`;

const service = (grpcPort: number, membershipPort: number, httpPort?: number): string => `
    rpc:
      grpcPort: ${grpcPort}
      membershipPort: ${membershipPort}
      bindOnIP: 127.0.0.1${httpPort === undefined ? '' : `\n      httpPort: ${httpPort}`}`;

/**
 * A minimal config (config/development.yaml) for a single-node server as a self-hoster runs it:
 * PostgreSQL persistence and advanced visibility on PostgreSQL (the postgres12 plugin; custom
 * search attributes such as ProjectId work on it), every service on loopback, no archival, no
 * metrics endpoint, no dynamic config file (the defaults). Four history shards: plenty for one
 * node, and each shard is a row lock and a goroutine set the 2-core test machine pays for.
 */
export function temporalServerConfig({
  store,
  ports,
  logLevel = 'warn',
}: {
  store: TemporalStore;
  ports: TemporalServerPorts;
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
}): string {
  return `# Written by test/replicas/helpers/temporal-server-config.ts
log:
  stdout: true
  level: ${logLevel}

persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: 4
  datastores:
    postgres-default:${datastore(store, store.database, 20)}
    postgres-visibility:${datastore(store, store.visibilityDatabase, 5)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1

services:
  frontend:${service(ports.frontend, ports.frontendMembership, ports.frontendHttp)}
  history:${service(ports.history, ports.historyMembership)}
  matching:${service(ports.matching, ports.matchingMembership)}
  worker:${service(ports.worker, ports.workerMembership)}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: 127.0.0.1:${ports.frontend}
      httpAddress: 127.0.0.1:${ports.frontendHttp}

dcRedirectionPolicy:
  policy: noop

archival:
  history:
    state: disabled
  visibility:
    state: disabled

namespaceDefaults:
  archival:
    history:
      state: disabled
    visibility:
      state: disabled
`;
}
