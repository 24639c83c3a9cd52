import { Migration } from '@mikro-orm/migrations';

// Each service process remembers the callers of recently used API keys (src/auth/key-cache.ts) and forgets
// them all when told that a key changed. The triggers tell it from the database itself, so any writer (the
// admin CLI, another instance, plain SQL) is heard. last_used_at is left out: the service refreshes it.
export class Migration20261126050000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create function "api_keys_changed"() returns trigger language plpgsql as $$ begin perform pg_notify('api_keys_changed', ''); return null; end $$;`);
    this.addSql(`create trigger "api_keys_changed" after update of "revoked_at", "role", "label", "test", "branch_id", "key_hash" or delete on "api_keys" for each statement execute function "api_keys_changed"();`);
    this.addSql(`create trigger "api_keys_changed" after update of "business_id" or delete on "branches" for each statement execute function "api_keys_changed"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "api_keys_changed" on "branches";`);
    this.addSql(`drop trigger "api_keys_changed" on "api_keys";`);
    this.addSql(`drop function "api_keys_changed"();`);
  }

}
