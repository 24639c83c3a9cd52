import { describe, expect, it } from "vitest";
import type { Bootstrapped } from "../../src/admin/bootstrap.js";
import { firstRunBanner } from "../../src/admin/first-run-banner.js";
import { firstExample } from "../support/simulator.js";

const bootstrapped: Bootstrapped = {
  businessId: 7,
  branchId: 12,
  key: "chk_LIVEkey0000000000000000000000000000000000000",
  adminKeyId: 30,
  sandboxKey: "chk_test_SANDBOXkey00000000000000000000000000000000",
  sandboxKeyId: 31,
};

describe("firstRunBanner", () => {
  const banner = firstRunBanner("http://127.0.0.1:3000", bootstrapped);
  const lines = banner.split("\n");

  it("names the business and branch ids the admin CLI asks for", () => {
    expect(banner).toMatch(/^ {2}business 7 {2}"Default business" \(monthly quota 1000\)$/m);
    expect(banner).toMatch(/^ {2}branch {3}12 {2}"Main branch"$/m);
    expect(banner).toContain("npm run admin -- key:create --branch 12 --role cashier");
  });

  it("shows both keys once, each marked for what it reaches", () => {
    expect(lines).toContain(`    ${bootstrapped.key}`);
    expect(lines).toContain(`    ${bootstrapped.sandboxKey}`);
    expect(banner).toMatch(/admin key 30 \(live: asks the real banks, uses quota\)/);
    expect(banner).toMatch(/sandbox key 31 "Sandbox key" \(manager; simulated banks, no quota/);
  });

  it("exports the tour's variables with the sandbox key, never the live one", () => {
    expect(lines).toContain("  export BIRRCHECK_URL=http://127.0.0.1:3000");
    expect(lines).toContain(`  export BIRRCHECK_KEY=${bootstrapped.sandboxKey}`);
    expect(banner.match(new RegExp(bootstrapped.key, "g"))).toHaveLength(1);
  });

  it("gives one curl line that verifies the simulator's telebirr example", () => {
    const curls = lines.filter((line) => line.trimStart().startsWith("curl "));
    expect(curls).toHaveLength(1);
    const reference = firstExample("telebirr").target.transactionNumber;
    expect(curls[0]).toContain(`'{"bank":"telebirr","transaction_number":"${reference}"}'`);
    expect(curls[0]).toContain('"$BIRRCHECK_URL/api/v1/verify"');
    expect(curls[0]).toContain('"Authorization: Bearer $BIRRCHECK_KEY"');
  });

  it("links the API reference", () => {
    expect(banner).toContain("API reference: http://127.0.0.1:3000/docs");
  });
});
