import type { MikroORM } from "@mikro-orm/postgresql";
import type { BankAdapters } from "../banks/registry.js";
import { QuotaExceededError, ServiceUnavailableError, ValidationError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Metrics } from "../metrics/registry.js";
import type { BankGateway } from "./bank-gateway.js";
import { createLeaders } from "./collapse.js";
import { boundLookup } from "./deadline.js";
import { banksForReference, describeClaim, describeLink, firstReceiptLink } from "./describe.js";
import { judge } from "./judge.js";
import { lookupAsRead } from "./misread.js";
import { countFailure, countOutcome, logLookupFailure } from "./observe.js";
import { quotaMonth } from "./quota.js";
import { createRecorder, isSameRequest } from "./recording.js";
import { precheck } from "./records.js";
import { resolveRequest } from "./resolve.js";
import type { VerificationEngine } from "./types.js";

export interface EngineDependencies {
  orm: MikroORM;
  adapters: BankAdapters;
  /** The real banks (through BANK_ORIGIN_OVERRIDES and proxies when configured). */
  live: BankGateway;
  /** The bank simulator, for sandbox keys. */
  sandbox: BankGateway;
  logger: Logger;
  /** Verification outcomes and quota rejections are counted here when given. */
  metrics?: Metrics | undefined;
  /** VERIFY_DEADLINE_MS: the most a verification may take from its arrival; default 25 s. */
  deadlineMs?: number | undefined;
  now?: () => Date;
}

const DEFAULT_DEADLINE_MS = 25_000;

/**
 * The orchestrator: resolve the input (resolve.ts), check duplicates and quota, ask the bank within the
 * deadline (deadline.ts, the gateway), judge the answer (judge.ts) and record it (recording.ts).
 */
export function createVerificationEngine(deps: EngineDependencies): VerificationEngine {
  const { orm, adapters, logger, metrics } = deps;
  const now = deps.now ?? (() => new Date());
  const deadlineMs = deps.deadlineMs ?? DEFAULT_DEADLINE_MS;
  // Each verification in flight listens to it until its lookup is done (deadline.ts).
  const stopping = new AbortController();
  const leaders = createLeaders();
  const fork = () => orm.em.fork();
  // The hot path's statements are plain (precheck, the record's insert): they need a pool, not a unit of
  // work. One fork serves them all and never holds an entity; a fork per verification would keep ~4 KB
  // through the bank's wait. What works with entities (a saved account, a duplicate, a recording hook) forks.
  const plainStatements = orm.em.fork();
  const recorder = createRecorder(orm, plainStatements, logger, now);

  const engine: VerificationEngine = {
    async verify(caller, input, options = {}) {
      const { resolved, missing } = await resolveRequest(fork, adapters, caller, input);
      if (missing) throw ValidationError.field(missing.field, missing.message);
      const { bank, target } = resolved;
      const deadline = (options.startedAt ?? Date.now()) + deadlineMs;
      const bounds = boundLookup(bank, deadline, [options.signal, stopping.signal]);
      const request = { caller, resolved, hook: options.whileRecording };
      const key = JSON.stringify([
        caller.sandbox,
        caller.branchId,
        bank,
        target.transactionNumber,
        target.account,
        target.token,
      ]);
      try {
        const outcome = await leaders.run(
          key,
          bounds.signal,
          async (shared, answered) => {
            const month = quotaMonth(now());
            const check = await precheck(
              plainStatements,
              caller,
              bank,
              target.transactionNumber,
              target.token,
              month,
            );
            if (check.existingId !== null) {
              return isSameRequest(check.existingRequestRef, caller)
                ? recorder.replay(check.existingId)
                : recorder.duplicate(request, check.existingId);
            }
            if (!caller.sandbox && check.exhausted) throw new QuotaExceededError();
            const gateway = caller.sandbox ? deps.sandbox : deps.live;
            const answer =
              shared ??
              (await bounds.waitingForBank(
                lookupAsRead(gateway, adapters[bank], resolved, bounds, logger).catch(
                  logLookupFailure(logger, bank, target.transactionNumber),
                ),
              ));
            // An answer that came after the deadline or after the client left is thrown away, unrecorded.
            if (bounds.signal.aborted) throw bounds.signal.reason;
            answered(answer);
            return recorder.answer(request, answer, judge(answer, resolved, check.savedAccounts), month);
          },
          bounds.waitingForBank,
        );
        countOutcome(metrics, bank, caller.sandbox, outcome.kind);
        return outcome;
      } catch (error) {
        countFailure(metrics, bank, caller.sandbox, error);
        throw error;
      } finally {
        bounds.dispose();
      }
    },
    async prepare(caller, input) {
      const { resolved, missing } = await resolveRequest(fork, adapters, caller, input);
      // An account the caller gave that the bank cannot use is wrong, not missing: say so as verify() would.
      const given = input.accountNumber !== undefined || input.bankAccountId !== undefined;
      if (missing && given) throw ValidationError.field(missing.field, missing.message);
      return { bank: resolved.bank, missing: missing ? "account_number" : null };
    },
    interrupt: () => stopping.abort(new ServiceUnavailableError()),
    deadlineMs,
    parseReceiptUrl: (raw) => describeLink(raw, adapters),
    findReceiptLink: (links) => firstReceiptLink(links, adapters),
    describeReceipt: (claim) => describeClaim(claim, adapters),
    banksForReference: (raw) => banksForReference(raw, adapters),
    async close() {
      await Promise.all([deps.live.close(), deps.sandbox.close()]);
    },
  };

  return engine;
}
