import { Migration } from '@mikro-orm/migrations';

export class Migration20261125180952 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "telegram_members" add column "alerts" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "telegram_members" drop column "alerts";`);
  }

}
