import { Migration } from '@mikro-orm/migrations';

export class Migration20261129030749 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "leases" ("name" varchar(255) not null, "holder" varchar(255) not null, "expires_at" timestamptz not null, constraint "leases_pkey" primary key ("name"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "leases" cascade;`);
  }

}
