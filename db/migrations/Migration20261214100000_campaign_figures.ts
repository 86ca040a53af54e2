import { Migration } from '@mikro-orm/migrations';

/**
 * A campaign's figures without reading its rows (issue 28): top campaigns, the campaign breakdown,
 * a campaign's stats and its send's watcher counted every email (and recipient) row of each
 * campaign they showed, so their cost grew with the mail sent (a million-recipient campaign read
 * two million rows a view). The counts are kept per campaign in `campaign_figures`, exact,
 * by statement triggers on `emails` and `campaign_recipients` (so no statement that writes them
 * can forget them), the way `project_email_event_counts` is kept on events: a statement adds its
 * deltas (+ what its new rows count, - what its old rows counted) to the shard of its connection
 * (backend pid mod 16), in campaign order, so concurrent lanes rarely wait on one row and never
 * deadlock. The counts are in no index and the pages keep room, so an addition is a HOT update. A
 * statement whose rows change no figure (a lane's claim, a second open) writes nothing.
 *
 * PostgreSQL refuses a column list on an UPDATE trigger with transition tables, so the trigger sees
 * every UPDATE of the two tables; its work is one pass over the statement's rows.
 *
 * A deleted campaign takes its counts (the foreign key); the deltas are joined with the campaigns
 * that still exist, so a cascade that deletes rows after their campaign adds nothing back.
 */
type Figures = [column: string, counts: string][];

/** Each figure of the email rows and when a row counts in it (columns of the kept table). */
const EMAIL_FIGURES: Figures = [
  ['emails', 'true'],
  ['queued', "status = 'QUEUED'"],
  ['sent', 'sent_at is not null'],
  ['delivered', "status = 'DELIVERED' or delivered_at is not null"],
  ['opened', 'opened_at is not null'],
  ['clicked', 'clicked_at is not null'],
  ['bounced', 'bounced_at is not null'],
  ['complained', 'complained_at is not null'],
  ['unsubscribed', 'unsubscribed_at is not null'],
  ['failed', "status = 'FAILED'"],
  ['cancelled', "status = 'CANCELLED'"],
  ['open_tracked', 'open_tracking'],
  ['click_tracked', 'click_tracking'],
  ['open_tracked_sent', 'open_tracking and sent_at is not null'],
  ['click_tracked_sent', 'click_tracking and sent_at is not null'],
];

/** The same of the recipient rows (`unqueued_cancelled`: cancelled before their email was queued). */
const RECIPIENT_FIGURES: Figures = [
  ['recipients', 'true'],
  ['pending', "status = 'PENDING'"],
  ['skipped', "status = 'SKIPPED'"],
  ['unqueued_cancelled', "status = 'CANCELLED'"],
];

/** One row per row of `table` with a campaign: its campaign, and 1 or 0 per figure times `sign`. */
const signedRows = (figures: Figures, table: string, sign: string): string =>
  `select campaign_id, ${figures.map(([column, counts]) => `${sign} * (${counts})::int as ${column}`).join(', ')}
     from ${table} where campaign_id is not null`;

/** The statement adding the deltas of `rows` (signedRows, unioned) to this connection's shards. */
const addDeltas = (figures: Figures, rows: string, shard = 'pg_backend_pid() % 16'): string =>
  `insert into campaign_figures as f (campaign_id, shard, ${figures.map(([column]) => column).join(', ')})
   select d.campaign_id, ${shard}, ${figures.map(([column]) => `sum(d.${column})`).join(', ')}
     from (${rows}) d
     join campaigns c on c.id = d.campaign_id
    group by d.campaign_id
   having ${figures.map(([column]) => `sum(d.${column}) <> 0`).join(' or ')}
    order by d.campaign_id
   on conflict (campaign_id, shard) do update
      set ${figures.map(([column]) => `${column} = f.${column} + excluded.${column}`).join(', ')}`;

/** The statement triggers keeping `figures` of `table`, and its rows so far counted into shard 0. */
function keptFigures(table: string, figures: Figures): string[] {
  const fn = `mw_${table}_figures`;
  const body = (rows: string): string => `returns trigger language plpgsql as $$
     begin
       ${addDeltas(figures, rows)};
       return null;
     end
     $$;`;
  return [
    `create or replace function ${fn}_insert() ${body(signedRows(figures, 'new_rows', '1'))}`,
    `create trigger "${table}_figures_insert" after insert on "${table}"
     referencing new table as new_rows for each statement execute function ${fn}_insert();`,
    `create or replace function ${fn}_delete() ${body(signedRows(figures, 'old_rows', '-1'))}`,
    `create trigger "${table}_figures_delete" after delete on "${table}"
     referencing old table as old_rows for each statement execute function ${fn}_delete();`,
    `create or replace function ${fn}_update() ${body(
      `${signedRows(figures, 'new_rows', '1')} union all ${signedRows(figures, 'old_rows', '-1')}`,
    )}`,
    `create trigger "${table}_figures_update" after update on "${table}"
     referencing old table as old_rows new table as new_rows
     for each statement execute function ${fn}_update();`,
    // The table emptied at once: its figures are 0 everywhere, the other table's stay.
    `create or replace function ${fn}_truncate() returns trigger language plpgsql as $$
     begin
       update campaign_figures set ${figures.map(([column]) => `${column} = 0`).join(', ')};
       return null;
     end
     $$;`,
    `create trigger "${table}_figures_truncate" after truncate on "${table}"
     for each statement execute function ${fn}_truncate();`,
    // Creating the triggers above locked the table against writes until this migration commits,
    // so no row is missed or counted twice.
    `${addDeltas(figures, signedRows(figures, table, '1'), '0')};`,
  ];
}

export class Migration20261214100000_campaign_figures extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "campaign_figures" (
      "campaign_id" uuid not null,
      "shard" smallint not null,
      ${[...EMAIL_FIGURES, ...RECIPIENT_FIGURES].map(([column]) => `"${column}" bigint not null default 0`).join(',\n      ')},
      constraint "campaign_figures_pkey" primary key ("campaign_id", "shard"),
      constraint "campaign_figures_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete cascade)
      with (fillfactor = 50);`);
    for (const statement of [
      ...keptFigures('emails', EMAIL_FIGURES),
      ...keptFigures('campaign_recipients', RECIPIENT_FIGURES),
    ]) {
      this.addSql(statement);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['emails', 'campaign_recipients']) {
      for (const event of ['truncate', 'update', 'delete', 'insert']) {
        this.addSql(`drop trigger if exists "${table}_figures_${event}" on "${table}";`);
        this.addSql(`drop function if exists mw_${table}_figures_${event}();`);
      }
    }
    this.addSql(`drop table if exists "campaign_figures";`);
  }
}
