import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankName } from "../../src/banks/catalogue.js";
import { BANK_CODES } from "../../src/banks/codes.js";
import { QuotaUsageSchema } from "../../src/db/entities/index.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { type Simulator, simulatedBank, startBanks } from "../support/simulator.js";

let api: TestApi;
let sim: Simulator;
let tenant: Tenant;
// A loopback listener that counts every connection: no refused URL may ever reach it.
let trap: Server;
let trapConnections = 0;
let trapPort = 0;

beforeAll(async () => {
  const started = await startBanks();
  sim = started.sim;
  api = await startTestApi({ banks: started.banks });
  tenant = await createTenant(api.db);
  trap = createServer((socket) => {
    trapConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
  trapPort = (trap.address() as { port: number }).port;
});
afterAll(async () => {
  trap.close();
  await api.close();
  await sim.close();
});

const shareExamples = BANK_CODES.flatMap((code) =>
  simulatedBank(code)
    .examples.filter((example) => example.shareUrl)
    .map((example) => ({ code, example })),
);
const UNSUPPORTED = { message: "The receipt url is not a supported bank receipt link." };

describe("POST /verify/parse-url", () => {
  it.each(shareExamples.map(({ code, example }) => [code, example.shareUrl, example] as const))(
    "reads a %s link without asking the bank: %s",
    async (code, url, example) => {
      sim.resetCounts();
      const response = await api.request("POST", "/verify/parse-url", {
        key: tenant.key,
        json: { receipt_url: url },
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        bank: code,
        bank_name: bankName(code),
        transaction_number: expect.any(String),
        account_number: example.target.account === null ? null : expect.any(String),
        source_url: url,
        receipt_token: example.target.token,
        requires_account_number: false,
        requires_explicit_settlement_account: expect.any(Boolean),
      });
      expect(sim.requestCount(code)).toBe(0);
    },
  );

  it.each([".", ").", ",", "!"])(
    "reads a link pasted with the SMS sentence's %s after it, for every bank",
    async (punctuation) => {
      for (const { code, example } of shareExamples) {
        const url = example.shareUrl ?? "";
        const response = await api.request("POST", "/verify/parse-url", {
          key: tenant.key,
          json: { receipt_url: `${url}${punctuation}` },
        });
        expect(response.status, `${code} ${url}${punctuation}`).toBe(200);
        expect(response.body).toMatchObject({ bank: code, source_url: url });
      }
    },
  );

  it("says which links name the credited account", async () => {
    const read = async (url: string) =>
      (await api.request("POST", "/verify/parse-url", { key: tenant.key, json: { receipt_url: url } })).body;
    expect(await read("https://apps.cbe.com.et:100/?id=FT26140P01YB60536171")).toMatchObject({
      bank: "cbe",
      transaction_number: "FT26140P01YB",
      account_number: "60536171",
      receipt_token: null,
      requires_explicit_settlement_account: false,
    });
    expect(await read("https://cs.bankofabyssinia.com/slip/?trx=FT26083XJRMH26009")).toMatchObject({
      bank: "boa",
      transaction_number: "FT26083XJRMH",
      account_number: "26009",
      requires_explicit_settlement_account: true,
    });
    expect(await read("https://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED")).toMatchObject({
      bank: "telebirr",
      account_number: null,
      requires_account_number: false,
      requires_explicit_settlement_account: true,
    });
  });

  it("uses no quota", async () => {
    const url = shareExamples[0]?.example.shareUrl;
    await api.request("POST", "/verify/parse-url", { key: tenant.key, json: { receipt_url: url } });
    expect(await api.db.orm.em.fork().count(QuotaUsageSchema, { business: tenant.businessId })).toBe(0);
  });

  it("requires receipt_url and a key", async () => {
    const missing = await api.request("POST", "/verify/parse-url", { key: tenant.key, json: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      message: "The given data was invalid.",
      errors: { receipt_url: ["The receipt url field is required."] },
    });
    const anonymous = await api.request("POST", "/verify/parse-url", { json: { receipt_url: "x" } });
    expect(anonymous.status).toBe(401);
  });
});

describe("receipt_url in POST /verify", () => {
  it.each(shareExamples.map(({ code, example }) => [code, example.shareUrl, example] as const))(
    "verifies a %s receipt by its link %s",
    async (code, url, example) => {
      const owner = await createTenant(api.db);
      const response = await api.request("POST", "/verify", { key: owner.key, json: { receipt_url: url } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body).toMatchObject({
        exists: true,
        duplicate: false,
        data: {
          bank: code,
          transaction_number: example.reference,
          source_url: url,
          verification_method: "official_link",
          receipt: { amount: example.receipt.amount, status: example.receipt.status },
        },
      });
    },
  );

  // Older and alternative link forms of docs/banks.md, re-routed to each bank's current lookup.
  it.each([
    ["telebirr", "https://apps.ethiotelecom.et/receipt/DFH51OFIED"],
    ["dashen", "https://receipt.dashensuperapp.com/receipt/822LTWS2622600WJ"],
    ["dashen", "https://api.dashensuperapp.com/receipts/Within-Dashen-Transfer-822LTWS2622600WJ.pdf"],
    ["cbe", "https://apps.cbe.com.et:100/?id=FT26140P01YB60536171"],
    ["cbe", "https://apps.cbe.com.et:100/BranchReceipt/FT26140P01YB&60536171"],
    ["boa", "https://cs.bankofabyssinia.com/api/onlineSlip/getDetails/?id=FT26083XJRMH26009"],
    ["mpesa", "https://m-pesabusiness.safaricom.et/api/receipt/getReceipt?trxNo=UGO4D2CODA"],
    ["amhara", "https://transaction.amharabank.com.et/FT262507XG9T"],
    ["sinqee", "https://receipt.ebirr.com/siinqee/FT262507XG9T"],
  ])("verifies a %s receipt by the alternative link %s", async (code, url) => {
    const owner = await createTenant(api.db);
    const response = await api.request("POST", "/verify", { key: owner.key, json: { receipt_url: url } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ success: true, data: { bank: code, source_url: url } });
  });

  it("answers 404 with the link as source for an unknown receipt", async () => {
    const response = await api.request("POST", "/verify", {
      key: tenant.key,
      json: { receipt_url: "https://transactioninfo.ethiotelecom.et/receipt/ZZZ9ZZZ9ZZ" },
    });
    expect(response.status).toBe(404);
    expect(response.body.data).toMatchObject({
      verification_id: null,
      source_url: "https://transactioninfo.ethiotelecom.et/receipt/ZZZ9ZZZ9ZZ",
      receipt: {},
    });
  });
});

describe("links that are not bank receipt links", () => {
  const hostile = () => [
    `https://127.0.0.1:${trapPort}/receipt/DFH51OFIED`,
    `https://localhost:${trapPort}/`,
    `http://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED`,
    `https://transactioninfo.ethiotelecom.et:${trapPort}/receipt/DFH51OFIED`,
    `https://transactioninfo.ethiotelecom.et@127.0.0.1:${trapPort}/receipt/DFH51OFIED`,
    `https://user:pass@transactioninfo.ethiotelecom.et/receipt/DFH51OFIED`,
    "https://transactioninfo.ethiotelecom.et.evil.example/receipt/DFH51OFIED",
    "https://evil-transactioninfo.ethiotelecom.et/receipt/DFH51OFIED",
    "https://transactioninfo.ethiotelecom.et./receipt/DFH51OFIED",
    "https://example.com/receipt/DFH51OFIED",
    "ftp://transactioninfo.ethiotelecom.et/receipt/DFH51OFIED",
    "javascript:alert(1)",
    "not a url",
    "https://",
    `https://2130706433:${trapPort}/`,
    `https://[::1]:${trapPort}/`,
    "https://cs.bankofabyssinia.com/cs/?trx=CFT26083XJRMH",
    `https://awashpay.awashbank.com:${trapPort}/-2KDL95Z0NR-4U61O6`,
  ];

  it("answers 400 and opens no connection", async () => {
    for (const url of hostile()) {
      for (const path of ["/verify", "/verify/parse-url"]) {
        const response = await api.request("POST", path, { key: tenant.key, json: { receipt_url: url } });
        expect(response.status, `${path} ${url}`).toBe(400);
        expect(response.body).toEqual(UNSUPPORTED);
      }
    }
    expect(trapConnections).toBe(0);
  });
});
