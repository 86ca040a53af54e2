import { Migration } from '@mikro-orm/migrations';

export class Migration20261121112100_domains extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "domains" ("id" uuid not null, "project_id" uuid not null, "domain" text not null, "selector" text not null, "dkim_public_key" text not null, "dkim_private_key" text not null, "status" text check ("status" in ('PENDING', 'VERIFIED', 'FAILED')) not null, "dkim_verified" boolean not null default false, "spf_verified" boolean not null default false, "dmarc_verified" boolean not null default false, "last_error" text null, "last_checked_at" timestamptz null, "verified_at" timestamptz null, "created_at" timestamptz not null, constraint "domains_pkey" primary key ("id"));`,
    );
    // One project per domain.
    this.addSql(`alter table "domains" add constraint "domains_domain_unique" unique ("domain");`);
    this.addSql(
      `create index "domains_project_id_created_at_index" on "domains" ("project_id", "created_at");`,
    );
    // The re-check takes the domains checked longest ago first.
    this.addSql(
      `create index "domains_status_last_checked_at_index" on "domains" ("status", "last_checked_at");`,
    );
    this.addSql(
      `alter table "domains" add constraint "domains_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "domains" cascade;`);
  }
}
