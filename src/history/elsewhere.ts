import type { EntityManager } from "@mikro-orm/postgresql";

/** Where else in the business a receipt was confirmed first: the branch's name and when. */
export interface ConfirmedElsewhere {
  branchName: string;
  createdAt: Date;
}

/**
 * The first confirmation of the same receipt at another branch of the same business. Duplicates are per
 * branch (docs/api.md §3); this is what the bot tells a cashier besides, never a duplicate. The
 * lookup goes through the primary key of confirmed_receipts (branch_id, bank, transaction_number, sandbox).
 */
export async function confirmedElsewhere(
  em: EntityManager,
  at: { businessId: number; branchId: number; bank: string; transactionNumber: string },
): Promise<ConfirmedElsewhere | null> {
  const rows: { name: string; created_at: string | Date }[] = await em.execute(
    `select b.name, c.created_at from confirmed_receipts c join branches b on b.id = c.branch_id
     where c.branch_id in (select id from branches where business_id = ? and id <> ?)
       and c.bank = ? and c.transaction_number = ? and not c.sandbox
     order by c.created_at limit 1`,
    [at.businessId, at.branchId, at.bank, at.transactionNumber],
  );
  const row = rows[0];
  return row ? { branchName: row.name, createdAt: new Date(row.created_at) } : null;
}
