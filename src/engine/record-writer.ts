import type { EntityManager } from "@mikro-orm/postgresql";
import { plainTransaction } from "../db/plain-query.js";
import type { VerificationRecord } from "../db/verification-record.js";
import {
  insertVerification,
  insertVerificationWith,
  type NewVerification,
  type QuotaUnit,
} from "./records.js";

/** Records that take one business's quota units, written together at most this many to a transaction. */
const MAX_TOGETHER = 20;

interface Waiting {
  record: NewVerification;
  quota: QuotaUnit;
  settle(written: Promise<VerificationRecord | null>): void;
}

/**
 * Writes records as insertVerification does, but those that take a unit of the same business's quota while
 * one of them is being written wait for it and then go together, in one transaction.
 *
 * Why: the unit is taken under the business's row in quota_usage, which PostgreSQL keeps locked until the
 * statement's commit, and a commit waits for its WAL flush (~0.5 ms on the bench's VM), so one business's
 * records were written one flush after another: ~240 ms of a burst of 1,000 (README, "Performance"). Each
 * record still takes its unit with its own statement, under the same lock, so the quota is as exact as
 * before; the records of a batch share one flush. A statement that fails (a receipt confirmed by another
 * request hits the unique index) rolls the whole batch back, and then each record is written alone, as it
 * would have been; an error of the connection or of the commit is each record's error, never retried,
 * since the batch may have been written.
 */
export function createRecordWriter(em: EntityManager) {
  /** Per business and month with a write in flight: the records waiting for it. */
  const waitingFor = new Map<string, Waiting[]>();

  async function writeInTurn(key: string): Promise<void> {
    for (;;) {
      const waiting = waitingFor.get(key) ?? [];
      if (waiting.length === 0) {
        waitingFor.delete(key);
        return;
      }
      await writeTogether(waiting.splice(0, MAX_TOGETHER));
    }
  }

  async function writeTogether(batch: Waiting[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch as [Waiting];
      return settled(only, insertVerification(em, only.record, only.quota));
    }
    let statementFailed = false;
    const written = plainTransaction(em, async (query) => {
      const records: (VerificationRecord | null)[] = [];
      try {
        for (const { record, quota } of batch)
          records.push(await insertVerificationWith(query, em, record, quota));
      } catch (error) {
        statementFailed = true;
        throw error;
      }
      return records;
    });
    try {
      const records = await written;
      for (const [n, waiting] of batch.entries()) waiting.settle(Promise.resolve(records[n] ?? null));
    } catch (error) {
      if (!statementFailed) {
        for (const waiting of batch) waiting.settle(Promise.reject(error));
        return;
      }
      await Promise.all(
        batch.map((waiting) => settled(waiting, insertVerification(em, waiting.record, waiting.quota))),
      );
    }
  }

  return {
    /** The record written, or null when the month's quota is used up (see insertVerification). */
    async insert(record: NewVerification, quota: QuotaUnit | null): Promise<VerificationRecord | null> {
      if (!quota) return insertVerification(em, record, null);
      const key = `${quota.businessId}:${quota.month}`;
      const waiting = waitingFor.get(key);
      if (waiting) {
        return new Promise((resolve, reject) =>
          waiting.push({ record, quota, settle: (written) => void written.then(resolve, reject) }),
        );
      }
      waitingFor.set(key, []);
      try {
        return await insertVerification(em, record, quota);
      } finally {
        void writeInTurn(key);
      }
    },
  };
}

/** Settles `waiting` with `written` once it is; never rejects. */
async function settled(waiting: Waiting, written: Promise<VerificationRecord | null>): Promise<void> {
  waiting.settle(written);
  await written.catch(() => undefined);
}
