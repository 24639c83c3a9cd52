import { Migration } from '@mikro-orm/migrations';

export class Migration20261122001456 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "businesses" ("id" serial primary key, "name" varchar(200) not null, "plan" varchar(50) not null default 'free', "monthly_quota" int not null, "created_at" timestamptz not null default now());`);

    this.addSql(`create table "branches" ("id" serial primary key, "business_id" int not null, "name" varchar(200) not null, "created_at" timestamptz not null default now());`);

    this.addSql(`create table "api_keys" ("id" serial primary key, "branch_id" int not null, "role" text check ("role" in ('cashier', 'manager', 'admin')) not null, "label" varchar(100) not null, "key_hash" varchar(64) not null, "prefix" varchar(16) not null, "test" boolean not null default false, "created_at" timestamptz not null default now(), "last_used_at" timestamptz null, "revoked_at" timestamptz null);`);
    this.addSql(`alter table "api_keys" add constraint "api_keys_key_hash_unique" unique ("key_hash");`);

    this.addSql(`create table "invite_codes" ("id" serial primary key, "code" varchar(64) not null, "branch_id" int not null, "role" text check ("role" in ('cashier', 'manager', 'admin')) not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "used_by_telegram_user_id" bigint null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "invite_codes" add constraint "invite_codes_code_unique" unique ("code");`);

    this.addSql(`create table "quota_usage" ("business_id" int not null, "month" varchar(7) not null, "count" int not null default 0, constraint "quota_usage_pkey" primary key ("business_id", "month"));`);

    this.addSql(`create table "saved_accounts" ("id" serial primary key, "branch_id" int not null, "bank" varchar(16) not null, "account_number" varchar(34) not null, "label" varchar(100) not null, "is_primary" boolean not null default false, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "saved_accounts_branch_id_bank_index" on "saved_accounts" ("branch_id", "bank");`);
    this.addSql(`create unique index "saved_accounts_one_primary" on "saved_accounts" ("branch_id", "bank") where "is_primary";`);

    this.addSql(`create table "telegram_members" ("id" serial primary key, "telegram_user_id" bigint not null, "branch_id" int not null, "role" text check ("role" in ('cashier', 'manager', 'admin')) not null, "name" varchar(200) not null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "telegram_members" add constraint "telegram_members_telegram_user_id_unique" unique ("telegram_user_id");`);

    this.addSql(`create table "verifications" ("id" serial primary key, "branch_id" int not null, "bank" varchar(16) not null, "transaction_number" varchar(100) not null, "account_number" varchar(34) null, "success" boolean not null, "exists" boolean not null, "message" text null, "status" varchar(50) null, "transaction_type" varchar(100) null, "amount" numeric(18,2) null, "currency" varchar(8) null, "transaction_date" varchar(40) null, "payer_name" text null, "payer_account" varchar(64) null, "receiver_name" text null, "receiver_account" varchar(64) null, "description" text null, "source_url" text null, "verification_method" varchar(50) not null, "source_type" varchar(20) not null, "source_label" varchar(200) not null, "bank_answer" jsonb null, "created_at" timestamptz not null default now(), "deleted_at" timestamptz null);`);
    this.addSql(`create index "verifications_history_idx" on "verifications" ("branch_id", "created_at" desc, "id" desc) where "deleted_at" is null;`);
    this.addSql(`create index "verifications_history_success_idx" on "verifications" ("branch_id", "success", "created_at" desc, "id" desc) where "deleted_at" is null;`);
    this.addSql(`create unique index "verifications_confirmed_unique" on "verifications" ("branch_id", "bank", "transaction_number") where "success";`);

    this.addSql(`alter table "branches" add constraint "branches_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "api_keys" add constraint "api_keys_branch_id_foreign" foreign key ("branch_id") references "branches" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "invite_codes" add constraint "invite_codes_branch_id_foreign" foreign key ("branch_id") references "branches" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "quota_usage" add constraint "quota_usage_business_id_foreign" foreign key ("business_id") references "businesses" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "saved_accounts" add constraint "saved_accounts_branch_id_foreign" foreign key ("branch_id") references "branches" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "telegram_members" add constraint "telegram_members_branch_id_foreign" foreign key ("branch_id") references "branches" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "verifications" add constraint "verifications_branch_id_foreign" foreign key ("branch_id") references "branches" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "branches" drop constraint "branches_business_id_foreign";`);

    this.addSql(`alter table "quota_usage" drop constraint "quota_usage_business_id_foreign";`);

    this.addSql(`alter table "api_keys" drop constraint "api_keys_branch_id_foreign";`);

    this.addSql(`alter table "invite_codes" drop constraint "invite_codes_branch_id_foreign";`);

    this.addSql(`alter table "saved_accounts" drop constraint "saved_accounts_branch_id_foreign";`);

    this.addSql(`alter table "telegram_members" drop constraint "telegram_members_branch_id_foreign";`);

    this.addSql(`alter table "verifications" drop constraint "verifications_branch_id_foreign";`);

    this.addSql(`drop table if exists "businesses" cascade;`);

    this.addSql(`drop table if exists "branches" cascade;`);

    this.addSql(`drop table if exists "api_keys" cascade;`);

    this.addSql(`drop table if exists "invite_codes" cascade;`);

    this.addSql(`drop table if exists "quota_usage" cascade;`);

    this.addSql(`drop table if exists "saved_accounts" cascade;`);

    this.addSql(`drop table if exists "telegram_members" cascade;`);

    this.addSql(`drop table if exists "verifications" cascade;`);
  }

}
