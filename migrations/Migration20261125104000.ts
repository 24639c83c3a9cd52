import { Migration } from '@mikro-orm/migrations';

export class Migration20261125104000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "idempotency_keys" ("api_key_id" int not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "attempt" uuid not null, "status" smallint null, "body" json null, "created_at" timestamptz not null default now(), constraint "idempotency_keys_pkey" primary key ("api_key_id", "key"));`);
    this.addSql(`create index "idempotency_keys_created_at_index" on "idempotency_keys" ("created_at");`);

    this.addSql(`alter table "idempotency_keys" add constraint "idempotency_keys_api_key_id_foreign" foreign key ("api_key_id") references "api_keys" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
  }

}
