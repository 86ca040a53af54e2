import { Migration } from '@mikro-orm/migrations';

/**
 * CSV import at COPY speed (issue 28). A worker parses the job's file and COPYs each batch of
 * checked, merged rows into `import_rows`, committed batch by batch, while on another connection
 * it applies the batches already staged to `contacts` (one set-based statement per batch that
 * takes the batch out of here and moves the job's progress, in one transaction).
 *
 * `import_stages` names the one run of an import that may stage its rows (a retried attempt
 * takes it over and clears what the earlier one staged). Both are unlogged, and the rows have
 * no foreign key: what they hold is made again from the stored file (job_files) at any time, so
 * they need no WAL and no per-row key check; a PostgreSQL crash empties them and the next
 * attempt stages the rest of the file again.
 */
export class Migration20261206100000_import_staging extends Migration {
  override async up(): Promise<void> {
    // A run's rows carry its number, not the job's and run's ids: ~70 bytes less per row to
    // write, send and parse.
    this.addSql(`create sequence "import_stage_numbers";`);
    this.addSql(`create unlogged table "import_stages" (
      "job_id" uuid not null primary key references "jobs" ("id") on delete cascade,
      "stage_no" bigint not null);`);
    this.addSql(`create unlogged table "import_rows" (
      "stage_no" bigint not null,
      "batch_start" int not null,
      "sheet_row" int not null,
      "id" uuid null,
      "email" text null,
      "subscribed" boolean null,
      "data" jsonb null,
      "occurrences" int not null,
      "error" text null);`);
    this.addSql(
      `create index "import_rows_stage_no_batch_start_index" on "import_rows" ("stage_no", "batch_start");`,
    );
    // An uploaded file is stored as it came: compressing 5 MB of CSV on upload (pglz) and
    // decompressing it when the import reads it cost more than the disk it saves (files stored
    // before stay compressed, and read the same).
    this.addSql(`alter table "job_files" alter column "content" set storage external;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "import_rows";`);
    this.addSql(`drop table if exists "import_stages";`);
    this.addSql(`drop sequence if exists "import_stage_numbers";`);
    this.addSql(`alter table "job_files" alter column "content" set storage extended;`);
  }
}
