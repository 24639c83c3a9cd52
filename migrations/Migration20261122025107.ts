import { Migration } from '@mikro-orm/migrations';

export class Migration20261122025107 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "bot_conversations" ("key" varchar(100) not null, "state" jsonb not null, "updated_at" timestamptz not null default now(), constraint "bot_conversations_pkey" primary key ("key"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "bot_conversations" cascade;`);
  }

}
