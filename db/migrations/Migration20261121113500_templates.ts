import { Migration } from '@mikro-orm/migrations';

export class Migration20261121113500_templates extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "templates" ("id" uuid not null, "project_id" uuid not null, "name" text not null, "subject" text not null, "body" text not null, "type" text check ("type" in ('TRANSACTIONAL', 'MARKETING')) not null, "from_address" text not null, "from_name" text null, "reply_to" text null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "templates_pkey" primary key ("id"));`,
    );
    // Keyset pages of a project's templates, newest first.
    this.addSql(
      `create index "templates_project_id_id_index" on "templates" ("project_id", "id");`,
    );
    this.addSql(
      `create index "templates_name_trgm_index" on "templates" using gin ("name" gin_trgm_ops);`,
    );
    this.addSql(
      `alter table "templates" add constraint "templates_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "templates" cascade;`);
  }
}
