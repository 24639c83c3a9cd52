import { Migration } from '@mikro-orm/migrations';

export class Migration20261128223227 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "verifications" add column "request_ref" varchar(100) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "verifications" drop column "request_ref";`);
  }

}
