import { Migration } from '@mikro-orm/migrations';

export class Migration20261122003405 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "verifications" add column "receipt_token" varchar(200) null, add column "sandbox" boolean not null default false;`);
    // The snapshot diff does not see a changed index expression: sandbox receipts get their own namespace.
    this.addSql(`drop index "verifications_confirmed_unique";`);
    this.addSql(`create unique index "verifications_confirmed_unique" on "verifications" ("branch_id", "bank", "transaction_number", "sandbox") where "success";`);
    this.addSql(`create index "verifications_confirmed_token_idx" on "verifications" ("branch_id", "bank", "receipt_token") where "success" and "receipt_token" is not null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "verifications_confirmed_token_idx";`);
    this.addSql(`drop index "verifications_confirmed_unique";`);
    this.addSql(`create unique index "verifications_confirmed_unique" on "verifications" ("branch_id", "bank", "transaction_number") where "success";`);
    this.addSql(`alter table "verifications" drop column "receipt_token", drop column "sandbox";`);
  }

}
