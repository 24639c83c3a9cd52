import { type Verification, VerificationSchema } from "../../src/db/entities/index.js";
import type { NewVerification } from "../../src/engine/records.js";
import type { TestDatabase } from "./database.js";

let sequence = 0;

/** A confirmed Telebirr verification unless overridden; written straight to the database. */
export async function insertVerification(
  db: TestDatabase,
  branchId: number,
  overrides: Partial<Omit<Verification, "branch">> = {},
): Promise<Verification> {
  const em = db.orm.em.fork();
  const verification = em.create(VerificationSchema, {
    ...newVerification(branchId),
    sourceLabel: "test key",
    bankAnswer: null,
    ...overrides,
  });
  await em.flush();
  return verification;
}

/** A confirmed Telebirr record as the engine writes it (src/engine/records.ts), with a fresh reference. */
export function newVerification(branchId: number, overrides: Partial<NewVerification> = {}): NewVerification {
  sequence += 1;
  const transactionNumber = `DFR${String(sequence).padStart(7, "0")}`;
  return {
    branch: branchId,
    bank: "telebirr",
    transactionNumber,
    accountNumber: null,
    success: true,
    exists: true,
    message: null,
    status: "completed",
    transactionType: "Send Money to Registered Customer",
    amount: 1100,
    currency: "ETB",
    transactionDate: "2026-11-20T10:15:00+03:00",
    payerName: "Abebe Kebede",
    payerAccount: "2519****2872",
    receiverName: "Sara Tadesse",
    receiverAccount: "2519****4025",
    description: null,
    sourceUrl: null,
    receiptToken: null,
    sandbox: false,
    verificationMethod: "official",
    sourceType: "api",
    sourceLabel: "till 1",
    requestRef: null,
    bankAnswer: { reference: transactionNumber },
    createdAt: new Date(),
    deletedAt: null,
    ...overrides,
  };
}
