import { Migration } from '@mikro-orm/migrations';

export class Migration20261121102419_foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "projects" ("id" uuid not null, "name" text not null, "public_key" text not null, "secret_key_hash" text not null, "secret_key_hint" text not null, "settings" jsonb not null default '{}', "disabled_at" timestamptz null, "disabled_reason" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "projects_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "projects" add constraint "projects_public_key_unique" unique ("public_key");`,
    );
    this.addSql(
      `alter table "projects" add constraint "projects_secret_key_hash_unique" unique ("secret_key_hash");`,
    );

    this.addSql(
      `create table "emails" ("id" uuid not null, "project_id" uuid not null, "to_address" text not null, "subject" text not null, "type" text check ("type" in ('TRANSACTIONAL', 'MARKETING')) not null, "status" text check ("status" in ('QUEUED', 'SENT', 'DELIVERED', 'BOUNCED', 'FAILED', 'SUPPRESSED')) not null, "sent_at" timestamptz null, "bounced_at" timestamptz null, "complained_at" timestamptz null, "created_at" timestamptz not null, constraint "emails_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "emails_project_id_created_at_index" on "emails" ("project_id", "created_at");`,
    );

    this.addSql(
      `create table "users" ("id" uuid not null, "email" text not null, "password_hash" text not null, "name" text null, "email_verified_at" timestamptz null, "session_version" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "users_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);

    this.addSql(
      `create table "project_members" ("project_id" uuid not null, "user_id" uuid not null, "role" text check ("role" in ('OWNER', 'ADMIN', 'MEMBER')) not null, "created_at" timestamptz not null, constraint "project_members_pkey" primary key ("project_id", "user_id"));`,
    );
    this.addSql(`create index "project_members_user_id_index" on "project_members" ("user_id");`);

    this.addSql(
      `create table "auth_tokens" ("id" uuid not null, "user_id" uuid not null, "purpose" text check ("purpose" in ('VERIFY_EMAIL', 'RESET_PASSWORD')) not null, "token_hash" text not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null, constraint "auth_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "auth_tokens_user_id_index" on "auth_tokens" ("user_id");`);
    this.addSql(
      `alter table "auth_tokens" add constraint "auth_tokens_token_hash_unique" unique ("token_hash");`,
    );

    this.addSql(
      `alter table "emails" add constraint "emails_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "project_members" add constraint "project_members_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "project_members" add constraint "project_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    // Fixed-window counters of rate-limiter-flexible (its own table shape), shared by every replica.
    this.addSql(
      `create table "rate_limits" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);`,
    );

    this.addSql(
      `alter table "auth_tokens" add constraint "auth_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "emails" drop constraint "emails_project_id_foreign";`);

    this.addSql(
      `alter table "project_members" drop constraint "project_members_project_id_foreign";`,
    );

    this.addSql(`alter table "project_members" drop constraint "project_members_user_id_foreign";`);

    this.addSql(`alter table "auth_tokens" drop constraint "auth_tokens_user_id_foreign";`);

    this.addSql(`drop table if exists "projects" cascade;`);

    this.addSql(`drop table if exists "emails" cascade;`);

    this.addSql(`drop table if exists "users" cascade;`);

    this.addSql(`drop table if exists "project_members" cascade;`);

    this.addSql(`drop table if exists "auth_tokens" cascade;`);

    this.addSql(`drop table if exists "rate_limits";`);
  }
}
