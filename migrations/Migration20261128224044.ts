import { Migration } from '@mikro-orm/migrations';

export class Migration20261128224044 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "bot_pending_updates" ("update_id" bigint not null, "body" jsonb not null, "received_at" timestamptz not null default now(), constraint "bot_pending_updates_pkey" primary key ("update_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "bot_pending_updates" cascade;`);
  }

}
