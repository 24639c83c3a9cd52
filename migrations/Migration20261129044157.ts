import { Migration } from '@mikro-orm/migrations';

// History partitioned by month (Addis Ababa's months, UTC+3 all year), converted in place: the rows move
// into monthly partitions and keep their ids. A unique index on a partitioned table must hold the partition
// key, so the guarantee that a receipt is confirmed once per branch moves to `confirmed_receipts`, which a
// trigger fills in the confirming statement. Rows outside every month's partition (far in the past or the
// future) land in `verifications_default`; `verifications_add_month` moves them when their month is added.
export class Migration20261129044157 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "confirmed_receipts" ("branch_id" int not null, "bank" varchar(16) not null, "transaction_number" varchar(100) not null, "sandbox" boolean not null, "receipt_token" varchar(200) null, "verification_id" int not null, "created_at" timestamptz not null, constraint "confirmed_receipts_pkey" primary key ("branch_id", "bank", "transaction_number", "sandbox"));`);
    this.addSql(`insert into "confirmed_receipts" ("branch_id", "bank", "transaction_number", "sandbox", "receipt_token", "verification_id", "created_at") select "branch_id", "bank", "transaction_number", "sandbox", "receipt_token", "id", "created_at" from "verifications" where "success";`);
    this.addSql(`create index "confirmed_receipts_created_at_index" on "confirmed_receipts" ("created_at");`);
    this.addSql(`create index "confirmed_receipts_token_idx" on "confirmed_receipts" ("branch_id", "bank", "receipt_token") where "receipt_token" is not null;`);
    this.addSql(`alter table "confirmed_receipts" add constraint "confirmed_receipts_branch_id_foreign" foreign key ("branch_id") references "branches" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "verifications" rename to "verifications_unpartitioned";`);
    this.addSql(`alter table "verifications_unpartitioned" rename constraint "verifications_pkey" to "verifications_unpartitioned_pkey";`);
    this.addSql(`drop index "verifications_history_idx", "verifications_history_success_idx", "verifications_confirmed_token_idx", "verifications_confirmed_unique";`);
    this.addSql(`alter sequence "verifications_id_seq" owned by none;`);
    this.addSql(`create table "verifications" (like "verifications_unpartitioned" including defaults including constraints) partition by range ("created_at");`);
    this.addSql(`create table "verifications_default" partition of "verifications" default;`);
    this.addSql(ADD_MONTH_FUNCTION);
    // Every month from the oldest record's (ten years back at most: older rows stay in the default partition)
    // to three months ahead; the service keeps adding months ahead.
    this.addSql(`select "verifications_add_month"("month"::date) from generate_series(date_trunc('month', greatest(now() - interval '10 years', coalesce((select min("created_at") from "verifications_unpartitioned"), now())) at time zone interval '+03:00'), date_trunc('month', now() at time zone interval '+03:00') + interval '3 months', interval '1 month') as "month";`);
    this.addSql(`insert into "verifications" select * from "verifications_unpartitioned";`);
    this.addSql(`drop table "verifications_unpartitioned";`);
    this.addSql(`alter sequence "verifications_id_seq" owned by "verifications"."id";`);
    this.addSql(`alter table "verifications" add constraint "verifications_pkey" primary key ("id", "created_at");`);
    this.addSql(`create index "verifications_history_idx" on "verifications" ("branch_id", "created_at" desc, "id" desc) where "deleted_at" is null;`);
    this.addSql(`create index "verifications_history_success_idx" on "verifications" ("branch_id", "success", "created_at" desc, "id" desc) where "deleted_at" is null;`);
    this.addSql(`alter table "verifications" add constraint "verifications_branch_id_foreign" foreign key ("branch_id") references "branches" ("id") on update cascade on delete cascade;`);
    this.addSql(`create function "verifications_claim_receipt"() returns trigger language plpgsql as $$ begin insert into "confirmed_receipts" ("branch_id", "bank", "transaction_number", "sandbox", "receipt_token", "verification_id", "created_at") values (new."branch_id", new."bank", new."transaction_number", new."sandbox", new."receipt_token", new."id", new."created_at"); return null; end $$;`);
    this.addSql(`create trigger "verifications_claim_receipt" after insert on "verifications" for each row when (new."success") execute function "verifications_claim_receipt"();`);
    this.addSql(`analyze "verifications";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "verifications_claim_receipt" on "verifications";`);
    this.addSql(`drop function "verifications_claim_receipt"();`);
    this.addSql(`drop function "verifications_add_month"(date);`);
    this.addSql(`alter table "verifications" rename to "verifications_partitioned";`);
    this.addSql(`alter table "verifications_partitioned" rename constraint "verifications_pkey" to "verifications_partitioned_pkey";`);
    this.addSql(`drop index "verifications_history_idx", "verifications_history_success_idx";`);
    this.addSql(`alter sequence "verifications_id_seq" owned by none;`);
    this.addSql(`create table "verifications" (like "verifications_partitioned" including defaults including constraints);`);
    this.addSql(`insert into "verifications" select * from "verifications_partitioned";`);
    this.addSql(`drop table "verifications_partitioned";`);
    this.addSql(`alter sequence "verifications_id_seq" owned by "verifications"."id";`);
    this.addSql(`alter table "verifications" add constraint "verifications_pkey" primary key ("id");`);
    this.addSql(`create index "verifications_history_idx" on "verifications" ("branch_id", "created_at" desc, "id" desc) where "deleted_at" is null;`);
    this.addSql(`create index "verifications_history_success_idx" on "verifications" ("branch_id", "success", "created_at" desc, "id" desc) where "deleted_at" is null;`);
    this.addSql(`create unique index "verifications_confirmed_unique" on "verifications" ("branch_id", "bank", "transaction_number", "sandbox") where "success";`);
    this.addSql(`create index "verifications_confirmed_token_idx" on "verifications" ("branch_id", "bank", "receipt_token") where "success" and "receipt_token" is not null;`);
    this.addSql(`alter table "verifications" add constraint "verifications_branch_id_foreign" foreign key ("branch_id") references "branches" ("id") on update cascade on delete cascade;`);
    this.addSql(`drop table "confirmed_receipts";`);
  }

}

// Adds the month that starts on `first_day` (Addis Ababa's midnight), taking over the default partition's
// rows of that month. Attaching a table, rather than CREATE TABLE … PARTITION OF, locks out neither reads nor
// writes of the other months. The advisory lock makes concurrent callers (several instances) take turns.
const ADD_MONTH_FUNCTION = `create function "verifications_add_month"("first_day" date) returns void language plpgsql as $$
declare
  "lower" timestamptz := ("first_day"::text || ' 00:00:00+03')::timestamptz;
  "upper" timestamptz := (("first_day" + interval '1 month')::date::text || ' 00:00:00+03')::timestamptz;
  "name" text := 'verifications_' || to_char("first_day", 'YYYY_MM');
begin
  if "first_day" <> date_trunc('month', "first_day")::date then raise exception 'not the first day of a month: %', "first_day"; end if;
  perform pg_advisory_xact_lock(hashtext('verifications_add_month'));
  if to_regclass(format('%I', "name")) is not null then return; end if;
  -- No row may land in the default partition between the move and the attach, which would refuse it.
  lock table "verifications_default" in exclusive mode;
  execute format('create table %I (like "verifications" including defaults including constraints)', "name");
  execute format('with "moved" as (delete from "verifications_default" where "created_at" >= %L and "created_at" < %L returning *) insert into %I select * from "moved"', "lower", "upper", "name");
  execute format('alter table "verifications" attach partition %I for values from (%L) to (%L)', "name", "lower", "upper");
end $$;`;
