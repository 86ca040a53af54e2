import { Migration } from '@mikro-orm/migrations';

/**
 * Server-side sessions: a session token names its row, so logging out, "log out everywhere" and
 * a password change end sessions at once on every replica. `auth_attempts` keeps the recent
 * failed logins, sign-ups and password-reset requests per account and per client address (the
 * throttles of domain/accounts/auth-limits.pure.ts), shared by every replica as well.
 */
export class Migration20261129100000_sessions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "sessions" (
      "id" uuid not null,
      "user_id" uuid not null,
      "created_at" timestamptz not null default now(),
      "last_seen_at" timestamptz not null default now(),
      "expires_at" timestamptz not null,
      "user_agent" text null,
      "ip" text null,
      constraint "sessions_pkey" primary key ("id"),
      constraint "sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade);`);
    this.addSql(`create index "sessions_user_id_index" on "sessions" ("user_id");`);
    this.addSql(`create table "auth_attempts" (
      "id" bigint generated always as identity,
      "bucket" text not null,
      "at" timestamptz not null default now(),
      constraint "auth_attempts_pkey" primary key ("id"));`);
    this.addSql(
      `create index "auth_attempts_bucket_at_index" on "auth_attempts" ("bucket", "at");`,
    );
    // Old attempts are pruned by age.
    this.addSql(`create index "auth_attempts_at_index" on "auth_attempts" ("at");`);
    // Sessions replace the per-user session version: tokens issued before this stop working.
    this.addSql(`alter table "users" drop column "session_version";`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "users" add column "session_version" int not null default 0;`);
    this.addSql(`drop table if exists "auth_attempts";`);
    this.addSql(`drop table if exists "sessions";`);
  }
}
