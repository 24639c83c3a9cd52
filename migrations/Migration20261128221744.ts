import { Migration } from '@mikro-orm/migrations';

export class Migration20261128221744 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" add column "lease_until" timestamptz not null default now();`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_keys" drop column "lease_until";`);
  }

}
