import type { EntityManager } from "@mikro-orm/postgresql";
import type { BankCode } from "../banks/codes.js";
import { type SavedAccount, SavedAccountSchema } from "../db/entities/index.js";
import { NotFoundError } from "../errors.js";

/** A saved receiving account as it leaves this module: a plain value, never the managed entity. */
export interface SavedAccountRecord {
  id: number;
  branchId: number;
  bank: string;
  accountNumber: string;
  label: string;
  isPrimary: boolean;
  createdAt: Date;
}

export interface NewSavedAccount {
  bank: BankCode;
  accountNumber: string;
  label: string;
  isPrimary: boolean;
}

export interface SavedAccountChanges {
  label?: string;
  isPrimary?: boolean;
}

/** A branch's receiving accounts, grouped by bank, the primary one first. */
export async function listAccounts(em: EntityManager, branchId: number): Promise<SavedAccountRecord[]> {
  const accounts = await em.find(
    SavedAccountSchema,
    { branch: branchId },
    { orderBy: { bank: "asc", isPrimary: "desc", id: "asc" } },
  );
  return accounts.map(toRecord);
}

export async function findAccount(
  em: EntityManager,
  branchId: number,
  id: number,
): Promise<SavedAccountRecord> {
  return toRecord(await findEntity(em, branchId, id));
}

export function createAccount(
  em: EntityManager,
  branchId: number,
  input: NewSavedAccount,
): Promise<SavedAccountRecord> {
  return em.transactional(async (tx) => {
    if (input.isPrimary) await clearPrimary(tx, branchId, input.bank);
    const account = tx.create(SavedAccountSchema, { ...input, branch: branchId, createdAt: new Date() });
    await tx.flush();
    return toRecord(account);
  });
}

export function updateAccount(
  em: EntityManager,
  branchId: number,
  id: number,
  changes: SavedAccountChanges,
): Promise<SavedAccountRecord> {
  return em.transactional(async (tx) => {
    const account = await findEntity(tx, branchId, id);
    if (changes.isPrimary === true) {
      await clearPrimary(tx, branchId, account.bank);
      // The row was read before the lock and may already say primary: the ORM would see no change to write.
      await tx.nativeUpdate(SavedAccountSchema, { id: account.id }, { isPrimary: true });
    }
    if (changes.label !== undefined) account.label = changes.label;
    if (changes.isPrimary !== undefined) account.isPrimary = changes.isPrimary;
    await tx.flush();
    return toRecord(account);
  });
}

export async function deleteAccount(em: EntityManager, branchId: number, id: number): Promise<void> {
  const deleted = await em.nativeDelete(SavedAccountSchema, { id, branch: branchId });
  if (deleted === 0) throw new NotFoundError("Account not found.");
}

// --- internal helpers ---

async function findEntity(em: EntityManager, branchId: number, id: number): Promise<SavedAccount> {
  const account = await em.findOne(SavedAccountSchema, { id, branch: branchId });
  if (!account) throw new NotFoundError("Account not found.");
  return account;
}

function toRecord(account: SavedAccount): SavedAccountRecord {
  return {
    id: account.id,
    branchId: account.branch.id,
    bank: account.bank,
    accountNumber: account.accountNumber,
    label: account.label,
    isPrimary: account.isPrimary,
    createdAt: account.createdAt,
  };
}

/**
 * Serialises primary changes of one (branch, bank) with a transaction-scoped advisory lock, then clears the
 * current primary. Row locks alone would not cover the first account of a bank (no row to lock yet).
 */
async function clearPrimary(tx: EntityManager, branchId: number, bank: string): Promise<void> {
  await tx.execute("select pg_advisory_xact_lock(hashtext(?))", [`saved_accounts:${branchId}:${bank}`]);
  await tx.nativeUpdate(
    SavedAccountSchema,
    { branch: branchId, bank, isPrimary: true },
    { isPrimary: false },
  );
}
