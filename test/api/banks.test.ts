import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BANK_CODES } from "../../src/banks/codes.js";
import { startTestApi, type TestApi } from "../support/api.js";

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe("GET /banks", () => {
  it("lists all ten banks without authentication", async () => {
    const response = await api.request("GET", "/banks");
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.banks)).toEqual([...BANK_CODES]);
    for (const entry of Object.values(response.body.banks) as Record<string, unknown>[]) {
      expect(entry).toMatchObject({
        name: expect.any(String),
        requires_account_number: expect.any(Boolean),
        description: expect.any(String),
        example_transaction_number: expect.any(String),
      });
    }
  });

  it("gives the account digits where a bank needs them", async () => {
    const { banks } = (await api.request("GET", "/banks")).body;
    expect(banks.cbe).toMatchObject({ requires_account_number: true, account_digits: 8 });
    expect(banks.boa).toMatchObject({ requires_account_number: true, account_digits: 5 });
    expect(banks.cbebirr).toMatchObject({ requires_account_number: true, account_digits: 12 });
    expect(banks.telebirr.requires_account_number).toBe(false);
    expect(banks.telebirr).not.toHaveProperty("account_digits");
  });

  it("ignores a bad key, since the catalogue is public", async () => {
    const response = await api.request("GET", "/banks", { key: "chk_nonsense" });
    expect(response.status).toBe(200);
  });
});
