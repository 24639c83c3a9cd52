import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VerificationSchema } from "../../src/db/entities/index.js";
import type { VerificationEngine } from "../../src/engine/index.js";
import type { VerifyCaller } from "../../src/engine/types.js";
import { createTenant } from "../support/api.js";
import type { TestDatabase } from "../support/database.js";
import { startTestEngine, type TestEngine } from "../support/engine.js";
import { firstExample } from "../support/simulator.js";

// A request that names itself (VerifyCaller.requestRef: a Telegram message) and is delivered again after
// its confirmation was recorded (a crash before the reply, a webhook retried) gets that confirmation again:
// never "duplicate" of itself, and nothing more is recorded. Another request with the same receipt is a
// duplicate as always.

let testEngine: TestEngine;
let db: TestDatabase;
let engine: VerificationEngine;
beforeAll(async () => {
  testEngine = await startTestEngine();
  ({ db, engine } = testEngine);
});
afterAll(async () => {
  await testEngine?.close();
});

const example = firstExample("telebirr");
const input = { kind: "reference" as const, bank: "telebirr" as const, transactionNumber: example.reference };

async function callerIn(name: string, requestRef?: string): Promise<VerifyCaller> {
  const tenant = await createTenant(db, { name });
  return {
    branchId: tenant.branchId,
    businessId: tenant.businessId,
    sandbox: true,
    source: { type: "telegram", label: "Almaz" },
    ...(requestRef ? { requestRef } : {}),
  };
}

const records = (branchId: number) => db.orm.em.fork().find(VerificationSchema, { branch: branchId });

describe("a request delivered again", () => {
  it("gets its own confirmation again, and nothing more is recorded", async () => {
    const caller = await callerIn("redelivered", "telegram:42:7");
    const first = await engine.verify(caller, input);
    expect(first.kind).toBe("confirmed");
    const again = await engine.verify(caller, input);
    expect(again).toMatchObject({ kind: "confirmed", record: { id: first.record.id, success: true } });
    expect(await records(caller.branchId)).toHaveLength(1);
  });

  it("another request with the same receipt is still a duplicate", async () => {
    const caller = await callerIn("two messages", "telegram:42:8");
    const first = await engine.verify(caller, input);
    const other = await engine.verify({ ...caller, requestRef: "telegram:42:9" }, input);
    expect(other).toMatchObject({ kind: "duplicate", existing: { id: first.record.id } });
    const unnamed = await engine.verify({ ...caller, requestRef: undefined }, input);
    expect(unnamed.kind).toBe("duplicate");
    expect(await records(caller.branchId)).toHaveLength(3);
  });

  it("a request without a name is a duplicate of an earlier one without a name", async () => {
    const caller = await callerIn("unnamed");
    await engine.verify(caller, input);
    expect((await engine.verify(caller, input)).kind).toBe("duplicate");
  });
});
