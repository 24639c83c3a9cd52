import { Migration } from '@mikro-orm/migrations';

export class Migration20261125173912 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "branches" add column "stale_after_minutes" int null default 1440;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "branches" drop column "stale_after_minutes";`);
  }

}
