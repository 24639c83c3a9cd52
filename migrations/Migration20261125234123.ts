import { Migration } from '@mikro-orm/migrations';

export class Migration20261125234123 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "branches" add column "telegram_chat_id" bigint null;`);
    this.addSql(`alter table "branches" add constraint "branches_telegram_chat_id_unique" unique ("telegram_chat_id");`);

    this.addSql(`alter table "telegram_members" add column "summary_minute" smallint null, add column "summary_sent_on" varchar(10) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "branches" drop constraint "branches_telegram_chat_id_unique";`);
    this.addSql(`alter table "branches" drop column "telegram_chat_id";`);

    this.addSql(`alter table "telegram_members" drop column "summary_minute", drop column "summary_sent_on";`);
  }

}
