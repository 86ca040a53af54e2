import { Migration } from '@mikro-orm/migrations';

export class Migration20261121114500_uploads extends Migration {
  override async up(): Promise<void> {
    // The files live under DATA_DIR/uploads; the rows say whose they are.
    this.addSql(
      `create table "uploads" ("key" text not null, "project_id" uuid not null references "projects" ("id") on delete cascade, "content_type" text not null, "size" int not null, "created_at" timestamptz not null default now(), constraint "uploads_pkey" primary key ("key"));`,
    );
    this.addSql(`create index "uploads_project_id_index" on "uploads" ("project_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "uploads";`);
  }
}
