import type { EntityManager } from "@mikro-orm/postgresql";
import type { BankCode } from "../banks/codes.js";
import { type SavedAccount, SavedAccountSchema } from "../db/entities/index.js";
import { receiverMatches, showsReceiverAccount } from "../engine/account-match.js";
import { NotFoundError } from "../errors.js";

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
export function listAccounts(em: EntityManager, branchId: number): Promise<SavedAccount[]> {
  return em.find(
    SavedAccountSchema,
    { branch: branchId },
    { orderBy: { bank: "asc", isPrimary: "desc", id: "asc" } },
  );
}

export async function findAccount(em: EntityManager, branchId: number, id: number): Promise<SavedAccount> {
  const account = await em.findOne(SavedAccountSchema, { id, branch: branchId });
  if (!account) throw new NotFoundError("Account not found.");
  return account;
}

export function createAccount(
  em: EntityManager,
  branchId: number,
  input: NewSavedAccount,
): Promise<SavedAccount> {
  return em.transactional(async (tx) => {
    if (input.isPrimary) await clearPrimary(tx, branchId, input.bank);
    const account = tx.create(SavedAccountSchema, { ...input, branch: branchId, createdAt: new Date() });
    await tx.flush();
    return account;
  });
}

export function updateAccount(
  em: EntityManager,
  branchId: number,
  id: number,
  changes: SavedAccountChanges,
): Promise<SavedAccount> {
  return em.transactional(async (tx) => {
    const account = await findAccount(tx, branchId, id);
    if (changes.isPrimary === true) {
      await clearPrimary(tx, branchId, account.bank);
      // The row was read before the lock and may already say primary: the ORM would see no change to write.
      await tx.nativeUpdate(SavedAccountSchema, { id: account.id }, { isPrimary: true });
    }
    if (changes.label !== undefined) account.label = changes.label;
    if (changes.isPrimary !== undefined) account.isPrimary = changes.isPrimary;
    await tx.flush();
    return account;
  });
}

export async function deleteAccount(em: EntityManager, branchId: number, id: number): Promise<void> {
  const deleted = await em.nativeDelete(SavedAccountSchema, { id, branch: branchId });
  if (deleted === 0) throw new NotFoundError("Account not found.");
}

// --- internal helpers ---

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

/**
 * Whether a confirmed payment went somewhere other than this branch's saved accounts for its bank. False
 * when the branch saved none for that bank, or the bank shows no receiving account to compare.
 */
export async function paidOutsideSavedAccounts(
  em: EntityManager,
  branchId: number,
  bank: string,
  receiverAccount: string | null | undefined,
): Promise<boolean> {
  if (!receiverAccount || !showsReceiverAccount(receiverAccount)) return false;
  const saved = await em.find(SavedAccountSchema, { branch: branchId, bank });
  return (
    saved.length > 0 && !saved.some((account) => receiverMatches(account.accountNumber, receiverAccount))
  );
}
