import { UniqueConstraintViolationException } from "@mikro-orm/core";
import type { EntityManager, MikroORM } from "@mikro-orm/postgresql";
import type { LookupOutcome } from "../banks/types.js";
import { ConfirmedReceiptSchema, VerificationSchema } from "../db/entities/index.js";
import { pickReceiptColumns, recordFromEntity, type VerificationRecord } from "../db/verification-record.js";
import { QuotaExceededError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Judgement } from "./judge.js";
import { createRecordWriter } from "./record-writer.js";
import { insertVerification, type NewVerification } from "./records.js";
import type { Resolved } from "./resolve.js";
import {
  OUTCOME_MESSAGES,
  type RecordingHook,
  type VerificationOutcome,
  type VerifyCaller,
} from "./types.js";

/** Writes what a verification came to into the branch's history. */
export interface Recorder {
  /** The bank's answer as judged, with one unit of quota (sandbox aside); a concurrent confirmation → duplicate. */
  answer(
    request: RecordRequest,
    outcome: LookupOutcome,
    verdict: Judgement,
    month: string,
  ): Promise<VerificationOutcome>;
  /** An attempt to use an already confirmed receipt: recorded (who tried, when), no quota, no bank call. */
  duplicate(request: RecordRequest, existingId: number): Promise<VerificationOutcome>;
  /** The request's own confirmation, recorded before (it was delivered again): its outcome, nothing written. */
  replay(existingId: number): Promise<VerificationOutcome>;
}

/** Whether a record was written by this very request (named, and delivered again). */
export function isSameRequest(recordedRef: string | null | undefined, caller: VerifyCaller): boolean {
  return caller.requestRef !== undefined && recordedRef === caller.requestRef;
}

/** Who asked for what, and what to run in the record's transaction. */
export interface RecordRequest {
  caller: VerifyCaller;
  resolved: Resolved;
  hook: RecordingHook | undefined;
}

/**
 * `statements` runs plain statements only (see `plainStatements` in verify.ts); a record written with a hook,
 * or through entities, gets a fork of its own.
 */
export function createRecorder(
  orm: MikroORM,
  statements: EntityManager,
  logger: Logger,
  now: () => Date,
): Recorder {
  const writer = createRecordWriter(statements);

  async function answer(
    request: RecordRequest,
    outcome: LookupOutcome,
    verdict: Judgement,
    month: string,
  ): Promise<VerificationOutcome> {
    const { caller, resolved } = request;
    const transactionNumber =
      outcome.kind === "found" ? outcome.reference : resolved.target.transactionNumber;
    try {
      return await recording(request.hook ? orm.em.fork() : statements, request.hook, async (tx) => {
        const quota = caller.sandbox ? null : { businessId: caller.businessId, month };
        // With a hook the record is written in the hook's transaction; without, it may share a statement
        // with the business's other records (record-writer.ts).
        const insert = request.hook
          ? (record: NewVerification) => insertVerification(tx, record, quota)
          : (record: NewVerification) => writer.insert(record, quota);
        const record = await insert({
          ...base(request),
          transactionNumber,
          success: verdict.kind === "confirmed",
          exists: outcome.kind === "found",
          message: verdict.message,
          ...verdict.columns,
          bankAnswer:
            outcome.kind === "found" ? { reference: outcome.reference, receipt: outcome.receipt } : null,
        });
        if (!record) throw new QuotaExceededError();
        logger.info(
          {
            bank: resolved.bank,
            outcome: verdict.kind,
            verificationId: record.id,
            branchId: caller.branchId,
          },
          "verification",
        );
        return verdict.kind === "confirmed"
          ? { kind: "confirmed", record, receiverNotSaved: verdict.receiverNotSaved }
          : { kind: verdict.kind, record };
      });
    } catch (error) {
      // Another request confirmed the same receipt between our check and our write: its claim decided.
      if (!(error instanceof UniqueConstraintViolationException)) throw error;
      const fresh = orm.em.fork();
      const claim = await fresh.findOne(ConfirmedReceiptSchema, {
        branch: caller.branchId,
        bank: resolved.bank,
        transactionNumber,
        sandbox: caller.sandbox,
      });
      if (!claim) throw error;
      // By id alone: a JavaScript Date holds milliseconds, created_at may hold microseconds.
      const existing = await fresh.findOneOrFail(VerificationSchema, { id: claim.verificationId });
      // The same request delivered twice at once, in two processes: the other one recorded it.
      if (isSameRequest(existing.requestRef, caller)) return confirmedBefore(recordFromEntity(existing));
      return duplicateOf(fresh, request, recordFromEntity(existing));
    }
  }

  async function replay(existingId: number): Promise<VerificationOutcome> {
    const existing = await orm.em.fork().findOneOrFail(VerificationSchema, { id: existingId });
    return confirmedBefore(recordFromEntity(existing));
  }

  function confirmedBefore(record: VerificationRecord): VerificationOutcome {
    logger.info({ bank: record.bank, outcome: "replayed", verificationId: record.id }, "verification");
    // Whether the receiver is among the saved accounts was told with the first answer.
    return { kind: "confirmed", record, receiverNotSaved: false };
  }

  async function duplicate(request: RecordRequest, existingId: number) {
    const em = orm.em.fork();
    const existing = recordFromEntity(await em.findOneOrFail(VerificationSchema, { id: existingId }));
    return duplicateOf(em, request, existing);
  }

  function duplicateOf(
    em: EntityManager,
    request: RecordRequest,
    existing: VerificationRecord,
  ): Promise<VerificationOutcome> {
    return recording(em, request.hook, async (tx) => {
      const entity = tx.create(VerificationSchema, {
        ...base(request),
        transactionNumber: existing.transactionNumber,
        success: false,
        exists: true,
        message: OUTCOME_MESSAGES.duplicate,
        ...pickReceiptColumns(existing),
        bankAnswer: null,
      });
      await tx.flush();
      const record = recordFromEntity(entity);
      logger.info(
        { bank: record.bank, outcome: "duplicate", verificationId: record.id, existingId: existing.id },
        "verification",
      );
      return { kind: "duplicate", record, existing };
    });
  }

  /** A record's fields that say who asked how. */
  function base({ caller, resolved }: RecordRequest) {
    return {
      branch: caller.branchId,
      bank: resolved.bank,
      accountNumber: resolved.accountNumber,
      sourceUrl: resolved.sourceUrl,
      receiptToken: resolved.target.token,
      verificationMethod: resolved.method,
      sourceType: caller.source.type,
      sourceLabel: caller.source.label,
      requestRef: caller.requestRef ?? null,
      sandbox: caller.sandbox,
      createdAt: now(),
      deletedAt: null,
    };
  }

  return { answer, duplicate, replay };
}

/**
 * Writes a record through `write`; with a hook, in one transaction with it (one statement otherwise, the hot
 * path's single round trip).
 */
function recording(
  em: EntityManager,
  hook: RecordingHook | undefined,
  write: (em: EntityManager) => Promise<VerificationOutcome>,
): Promise<VerificationOutcome> {
  if (!hook) return write(em);
  return em.transactional(async (tx) => {
    const outcome = await write(tx);
    await hook(tx, outcome);
    return outcome;
  });
}
