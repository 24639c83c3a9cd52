import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager } from "@mikro-orm/postgresql";
import type { VerificationRecord } from "../db/verification-record.js";
import {
  insertVerification,
  insertVerificationsTogether,
  type NewVerification,
  type QuotaUnit,
} from "./records.js";

/** Records that take one business's quota units, written together at most this many to a statement. */
const MAX_TOGETHER = 20;

interface Waiting {
  record: NewVerification;
  quota: QuotaUnit;
  settle(written: Promise<VerificationRecord | null>): void;
}

/**
 * Writes records as insertVerification does, but those that take a unit of the same business's quota while
 * one of them is being written wait for it and then go together, in one statement.
 *
 * Why: a unit is taken under the business's row in quota_usage, which PostgreSQL keeps locked until the
 * statement's commit, and a commit waits for its WAL flush, so one business's records written alone go one
 * flush after another (docs/performance.md).
 * Together, they take all their units and are inserted by one statement (insertVerificationsTogether), so
 * the row is locked for one statement and one flush. When fewer units are left than records, or one of them
 * hits confirmed_receipts' primary key (a receipt confirmed by another request), the statement writes
 * nothing and each record is written alone, as it would have been: the quota stays exact. Any other error (the connection,
 * the commit) is each record's error, never retried, since the records may have been written.
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
    const [first] = batch;
    if (!first) return;
    if (batch.length === 1) return settled(first, insertVerification(em, first.record, first.quota));
    let records: VerificationRecord[] | null;
    try {
      records = await insertVerificationsTogether(
        em,
        batch.map((waiting) => waiting.record),
        first.quota,
      );
    } catch (error) {
      if (!(error instanceof UniqueConstraintViolationException)) {
        for (const waiting of batch) waiting.settle(Promise.reject(error));
        return;
      }
      records = null;
    }
    if (records) {
      for (const [n, waiting] of batch.entries()) waiting.settle(Promise.resolve(records[n] ?? null));
      return;
    }
    // Fewer units left than records, or one of them is a receipt confirmed meanwhile: each alone.
    await Promise.all(
      batch.map((waiting) => settled(waiting, insertVerification(em, waiting.record, waiting.quota))),
    );
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
