import { Migration } from '@mikro-orm/migrations';

/**
 * A UUIDv7 for a given instant. An event's time is its transaction's start (`now()`), while
 * `uuid_generate_v7()` reads the clock when the row is made; in a transaction that did other work
 * first (a bounce, a send's bookkeeping) the two drift apart by that work's length, so a feed
 * ordered by id (its keyset) showed times out of order under load. Events made with
 * `uuid_generate_v7(now())` carry their own time in their id: id order is time order, to the
 * millisecond. The random tail keeps ids of the same millisecond apart, as before.
 */
export class Migration20261215100000_uuid_v7_at extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function uuid_generate_v7(at timestamptz) returns uuid
      language sql volatile as $$
      select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
        substring(int8send(floor(extract(epoch from at) * 1000)::bigint) from 3)
        from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
    $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists uuid_generate_v7(timestamptz);`);
  }
}
