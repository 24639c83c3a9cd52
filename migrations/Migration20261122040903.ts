import { Migration } from '@mikro-orm/migrations';

export class Migration20261122040903 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "telegram_members" add column "language" varchar(8) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "telegram_members" drop column "language";`);
  }

}
