import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTCOME_MESSAGES } from "../../src/engine/types.js";
import { EXPORT_COLUMNS, exportVerifications } from "../../src/history/export.js";
import { createKey, createTenant, startTestApi, type TestApi } from "../support/api.js";
import { insertVerification } from "../support/factories.js";

// GET /api/v1/verifications/export (docs/api.md §4.14): the CSV read back with a parser of the test's own,
// never the service's encoder, so an encoding mistake cannot cancel itself out.

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const HEADER = EXPORT_COLUMNS.join(",");
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

interface CsvResponse {
  status: number;
  headers: Headers;
  /** The body decoded with its byte-order mark kept. */
  text: string;
  /** Data records as column → value, for 200s. */
  rows: Record<string, string>[];
}

async function download(key: string | null, query = ""): Promise<CsvResponse> {
  const response = await fetch(`${api.url}/api/v1/verifications/export${query}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
    await response.arrayBuffer(),
  );
  if (response.status !== 200) return { status: response.status, headers: response.headers, text, rows: [] };
  const [header, ...records] = parseCsv(text.replace(/^\uFEFF/, ""));
  return {
    status: response.status,
    headers: response.headers,
    text,
    rows: records.map((record) =>
      Object.fromEntries((header ?? []).map((name, i) => [name, record[i] ?? ""])),
    ),
  };
}

/** A strict RFC 4180 reader: CRLF records, quoted fields with doubled quotes, anything else is an error. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char !== '"') field += char;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"') {
      if (field !== "" || wasQuoted) throw new Error(`a quote inside an unquoted field at ${i}`);
      quoted = true;
      wasQuoted = true;
    } else if (char === ",") {
      record.push(field);
      field = "";
      wasQuoted = false;
    } else if (char === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      wasQuoted = false;
      i++;
    } else if (char === "\r" || char === "\n") {
      throw new Error(`a bare line break outside quotes at ${i}`);
    } else {
      if (wasQuoted) throw new Error(`text after a closing quote at ${i}`);
      field += char;
    }
  }
  if (quoted || field !== "" || record.length > 0) throw new Error("the last record has no CRLF");
  for (const r of records)
    if (r.length !== EXPORT_COLUMNS.length) throw new Error(`${r.length} fields: ${r}`);
  return records;
}

const ids = (response: CsvResponse) => response.rows.map((row) => Number(row.id));

/** A branch with a key of each role. */
async function branch() {
  const { branchId, key: admin } = await createTenant(api.db);
  return {
    branchId,
    admin,
    manager: await createKey(api.db, branchId, "manager"),
    cashier: await createKey(api.db, branchId, "cashier"),
  };
}

describe("GET /verifications/export", () => {
  it("gives managers and admins a UTF-8 CSV with a byte-order mark, the header and the rows", async () => {
    const { branchId, admin, manager } = await branch();
    const row = await insertVerification(api.db, branchId, {
      createdAt: new Date("2026-11-25T11:02:07.654Z"),
      amount: 20475.5,
    });
    for (const key of [manager, admin]) {
      const response = await download(key, "?format=csv");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      const today = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 10);
      expect(response.headers.get("content-disposition")).toBe(
        `attachment; filename="verifications-${branchId}-${today}.csv"`,
      );
      expect(response.text).toBe(
        `\uFEFF${HEADER}\r\n` +
          `${row.id},2026-11-25T14:02:07+03:00,telebirr,${row.transactionNumber},confirmed,20475.50,ETB,` +
          "Abebe Kebede,Sara Tadesse,2519****4025,api,test key,\r\n",
      );
    }
  });

  it("has exactly the issue's columns", () => {
    expect(HEADER).toBe(
      "id,created_at,bank,transaction_number,status,amount,currency,payer_name,receiver_name," +
        "receiver_account,source_type,source_label,duplicate_of",
    );
  });

  it("answers an empty branch with the header alone, and format is optional", async () => {
    const { manager } = await branch();
    const response = await download(manager);
    expect(response.status).toBe(200);
    expect(response.text).toBe(`\uFEFF${HEADER}\r\n`);
  });

  it("refuses cashier keys (403) and answers 401 without a key", async () => {
    const { branchId, cashier } = await branch();
    await insertVerification(api.db, branchId);
    const refused = await download(cashier, "?format=csv");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toMatch(/^application\/json/);
    expect(JSON.parse(refused.text)).toEqual({ message: "This action is unauthorized." });
    const anonymous = await download(null);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text)).toEqual({ message: "Unauthenticated." });
  });

  it.each([
    ["?format=xml", { format: ["The selected format is invalid."] }],
    ["?format=", { format: ["The selected format is invalid."] }],
    ["?format=CSV", { format: ["The selected format is invalid."] }],
    ["?format=csv&format=json", { format: ["The selected format is invalid."] }],
    ["?limit=0", { limit: ["The limit must be at least 1."] }],
    ["?limit=ten", { limit: ["The limit must be an integer."] }],
    ["?period=2d", { period: ["The selected period is invalid."] }],
    ["?success=yes", { success: ["The success field must be true or false."] }],
  ])("rejects %s with 422", async (query, errors) => {
    const { manager } = await branch();
    const response = await download(manager, query);
    expect(response.status).toBe(422);
    expect(JSON.parse(response.text)).toEqual({ message: "The given data was invalid.", errors });
  });

  it("applies period, success and limit as GET /verifications does, with no cap on limit", async () => {
    const { branchId, manager } = await branch();
    const recentOk = await insertVerification(api.db, branchId, { createdAt: daysAgo(3) });
    const recentFailed = await insertVerification(api.db, branchId, {
      createdAt: daysAgo(5),
      success: false,
      exists: false,
    });
    const monthOld = await insertVerification(api.db, branchId, { createdAt: daysAgo(20) });
    const yearOld = await insertVerification(api.db, branchId, { createdAt: daysAgo(300) });
    const exported = async (query: string) => ids(await download(manager, query));

    expect(await exported("")).toEqual([recentOk.id, recentFailed.id, monthOld.id, yearOld.id]);
    expect(await exported("?limit=2")).toEqual([recentOk.id, recentFailed.id]);
    expect(await exported("?limit=501")).toHaveLength(4);
    expect(await exported("?period=7d")).toEqual([recentOk.id, recentFailed.id]);
    expect(await exported("?period=30d")).toEqual([recentOk.id, recentFailed.id, monthOld.id]);
    expect(await exported("?success=true")).toEqual([recentOk.id, monthOld.id, yearOld.id]);
    expect(await exported("?success=0")).toEqual([recentFailed.id]);
    expect(await exported("?format=csv&success=1&period=15d&limit=5")).toEqual([recentOk.id]);
  });

  it("leaves out deleted records and other branches' records", async () => {
    const { branchId, manager } = await branch();
    const other = await branch();
    const kept = await insertVerification(api.db, branchId);
    await insertVerification(api.db, branchId, { deletedAt: new Date() });
    await insertVerification(api.db, other.branchId);
    expect(ids(await download(manager))).toEqual([kept.id]);
  });

  it("gives each row its outcome, empty cells for missing values, and a duplicate's original", async () => {
    const { branchId, manager } = await branch();
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 25, 9, minutes));
    const original = await insertVerification(api.db, branchId, { createdAt: at(0), amount: 1500 });
    // The same reference confirmed in the sandbox is another receipt: not the duplicate's original.
    await insertVerification(api.db, branchId, {
      createdAt: at(1),
      transactionNumber: original.transactionNumber,
      sandbox: true,
    });
    const duplicate = await insertVerification(api.db, branchId, {
      createdAt: at(2),
      transactionNumber: original.transactionNumber,
      success: false,
      message: OUTCOME_MESSAGES.duplicate,
    });
    const notFound = await insertVerification(api.db, branchId, {
      createdAt: at(3),
      success: false,
      exists: false,
      message: OUTCOME_MESSAGES.not_found,
      status: null,
      amount: null,
      currency: null,
      payerName: null,
      receiverName: null,
      receiverAccount: null,
    });
    const wrongAccount = await insertVerification(api.db, branchId, {
      createdAt: at(4),
      success: false,
      message: OUTCOME_MESSAGES.wrong_account,
    });
    const pending = await insertVerification(api.db, branchId, {
      createdAt: at(5),
      success: false,
      status: "pending",
      message: "The transaction is not completed.",
    });
    const rows = new Map((await download(manager)).rows.map((row) => [Number(row.id), row]));

    expect(rows.get(original.id)).toMatchObject({ status: "confirmed", amount: "1500.00", duplicate_of: "" });
    expect(rows.get(duplicate.id)).toMatchObject({ status: "duplicate", duplicate_of: String(original.id) });
    expect(rows.get(notFound.id)).toEqual({
      id: String(notFound.id),
      created_at: "2026-11-25T12:03:00+03:00",
      bank: "telebirr",
      transaction_number: notFound.transactionNumber,
      status: "not_found",
      amount: "",
      currency: "",
      payer_name: "",
      receiver_name: "",
      receiver_account: "",
      source_type: "api",
      source_label: "test key",
      duplicate_of: "",
    });
    expect(rows.get(wrongAccount.id)).toMatchObject({ status: "wrong_account", duplicate_of: "" });
    expect(rows.get(pending.id)).toMatchObject({ status: "not_completed", duplicate_of: "" });
  });

  it("round-trips commas, quotes, line breaks and Amharic through the CSV", async () => {
    const { branchId, manager } = await branch();
    const payer = 'Kebede, "Abe"\r\nTesfaye\nline';
    const receiver = "አበበ ከበደ ሆቴል";
    const label = 'ካሳ 1, "ቆጣሪ"';
    const row = await insertVerification(api.db, branchId, {
      payerName: payer,
      receiverName: receiver,
      sourceLabel: label,
    });
    const response = await download(manager);
    expect(response.text.startsWith("\uFEFF")).toBe(true);
    expect(response.text.indexOf("\uFEFF", 1)).toBe(-1);
    expect(response.rows).toEqual([expect.objectContaining({ id: String(row.id) })]);
    expect(response.rows[0]).toMatchObject({
      payer_name: payer,
      receiver_name: receiver,
      source_label: label,
    });
  });

  it("prefixes cells that a spreadsheet would evaluate, and keeps plain references", async () => {
    const { branchId, manager } = await branch();
    const cases: [string, string][] = [
      ['=HYPERLINK("http://x","y")', '\'=HYPERLINK("http://x","y")'],
      ["+251911000000", "'+251911000000"],
      ["@SUM(A1:A9)", "'@SUM(A1:A9)"],
      ["-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"],
      ["\tTab", "'\tTab"],
      ["-2KDL95Z0NR-4U61O6", "-2KDL95Z0NR-4U61O6"],
      ["Abebe = Kebede", "Abebe = Kebede"],
    ];
    for (const [payerName] of cases) await insertVerification(api.db, branchId, { payerName });
    const awash = await insertVerification(api.db, branchId, {
      bank: "awash",
      transactionNumber: "-E41AE0D86FFA-21XYYW",
      sourceLabel: "=1+1",
    });
    const response = await download(manager);
    const payers = response.rows.map((row) => row.payer_name).reverse();
    expect(payers.slice(0, cases.length)).toEqual(cases.map(([, shown]) => shown));
    expect(response.rows[0]).toMatchObject({
      id: String(awash.id),
      bank: "awash",
      transaction_number: "-E41AE0D86FFA-21XYYW",
      source_label: "'=1+1",
    });
  });

  it("streams every row newest first across batches", async () => {
    const { branchId, manager } = await branch();
    // 4,500 rows over two 2,000-row batch boundaries, many sharing a created_at (ordered by id then).
    await api.db.orm.em.fork().execute(
      `insert into verifications (branch_id, bank, transaction_number, success, "exists", verification_method,
         source_type, source_label, created_at)
       select ?, 'telebirr', 'BATCH' || g, true, true, 'official', 'api', 'bulk',
         timestamptz '2026-11-01 00:00:00+00' + (g % 1500) * interval '1.000001 second'
       from generate_series(1, 4500) g`,
      [branchId],
    );
    const expected: { id: number }[] = await api.db.orm.em
      .fork()
      .execute("select id from verifications where branch_id = ? order by created_at desc, id desc", [
        branchId,
      ]);
    const response = await download(manager);
    expect(ids(response)).toEqual(expected.map((row) => row.id));
    expect((await download(manager, "?limit=2001")).rows).toHaveLength(2001);
  });
});

describe("a database failure while streaming", () => {
  it("cuts the response short (no complete-looking file) and logs the error", async () => {
    // Its own service and database: the failure is a table renamed away under the export.
    const fragile = await startTestApi();
    try {
      const { branchId, key } = await createTenant(fragile.db);
      // ~40 MB of CSV (2 KB a row): far more than the socket buffers hold, so later batches are
      // still to be read from the database when the table goes.
      await fragile.db.orm.em.fork().execute(
        `insert into verifications (branch_id, bank, transaction_number, success, "exists", verification_method,
           source_type, source_label, payer_name, created_at)
         select ?, 'telebirr', 'BIG' || g, true, true, 'official', 'api', 'bulk', repeat('አ', 700),
           timestamptz '2026-11-01 00:00:00+00' + g * interval '1 second'
         from generate_series(1, 20000) g`,
        [branchId],
      );
      const response = await fetch(`${fragile.url}/api/v1/verifications/export`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(response.status).toBe(200);
      const reader = response.body?.getReader();
      if (!reader) throw new Error("no body");
      const first = await reader.read();
      expect(first.done).toBe(false);
      await fragile.db.orm.em.fork().execute("alter table verifications rename to verifications_gone");
      let bytes = first.value?.byteLength ?? 0;
      const drain = async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          bytes += value.byteLength;
        }
      };
      await expect(drain()).rejects.toThrow();
      expect(bytes).toBeLessThan(30_000_000);
      const logged = fragile.logs.filter((line) =>
        line.includes("verification export failed while streaming"),
      );
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain("verifications");
    } finally {
      await fragile.db.orm.em
        .fork()
        .execute("alter table if exists verifications_gone rename to verifications")
        .catch(() => undefined);
      await fragile.close();
    }
  });
});

describe("exportVerifications", () => {
  /** The ids of an export read back from its chunks. */
  async function exportedIds(...args: Parameters<typeof exportVerifications>): Promise<number[]> {
    let text = "";
    let chunks = 0;
    for await (const chunk of exportVerifications(...args)) {
      text += chunk;
      chunks++;
    }
    const [header, ...records] = parseCsv(text.replace(/^\uFEFF/, ""));
    expect(header).toEqual([...EXPORT_COLUMNS]);
    expect(chunks).toBeGreaterThan(0);
    return records.map((record) => Number(record[0]));
  }

  it("pages by (created_at, id) to the microsecond, in batches of any size", async () => {
    const { branchId } = await createTenant(api.db);
    // Rows within one millisecond (a JavaScript Date would merge them), ties included, out of id order.
    await api.db.orm.em.fork().execute(
      `insert into verifications (branch_id, bank, transaction_number, success, "exists", verification_method,
         source_type, source_label, created_at)
       select ?, 'telebirr', 'MICRO' || g, g % 3 = 0, true, 'official', 'api', 'bulk',
         timestamptz '2026-11-01 10:00:00.123000+00' + ((g * 7) % 5) * interval '1 microsecond'
       from generate_series(1, 17) g`,
      [branchId],
    );
    const expected: { id: number }[] = await api.db.orm.em
      .fork()
      .execute("select id from verifications where branch_id = ? order by created_at desc, id desc", [
        branchId,
      ]);
    const all = expected.map((row) => row.id);
    const em = api.db.orm.em;
    for (const batchSize of [1, 3, 17, 100]) {
      expect(await exportedIds(em, branchId, {}, { batchSize })).toEqual(all);
    }
    expect(await exportedIds(em, branchId, { limit: 7 }, { batchSize: 3 })).toEqual(all.slice(0, 7));
    expect(await exportedIds(em, branchId, { limit: 6 }, { batchSize: 3 })).toEqual(all.slice(0, 6));
    const confirmed = await exportedIds(em, branchId, { success: true }, { batchSize: 3 });
    expect(confirmed).toHaveLength(5);
  });

  it("starts with the header once the first batch is read, then hands on chunks of about chunkChars", async () => {
    const { branchId } = await createTenant(api.db);
    for (let i = 0; i < 7; i++) await insertVerification(api.db, branchId);
    const read = async (chunkChars: number) => {
      const chunks: string[] = [];
      for await (const chunk of exportVerifications(
        api.db.orm.em,
        branchId,
        {},
        { batchSize: 3, chunkChars },
      )) {
        chunks.push(chunk);
      }
      return chunks;
    };
    // A chunk is handed on as soon as it reaches the size: with 1 character, the header and one line each.
    const small = await read(1);
    expect(small).toHaveLength(7);
    expect(small[0]?.startsWith(`\uFEFF${HEADER}\r\n`)).toBe(true);
    expect(small.map((chunk) => chunk.split("\r\n").length - 1)).toEqual([2, 1, 1, 1, 1, 1, 1]);
    // With room for everything, one chunk.
    const large = await read(1_000_000);
    expect(large).toEqual([small.join("")]);
  });

  it("answers an empty branch with the header alone", async () => {
    const { branchId } = await createTenant(api.db);
    const chunks: string[] = [];
    for await (const chunk of exportVerifications(api.db.orm.em, branchId, {})) chunks.push(chunk);
    expect(chunks).toEqual([`\uFEFF${HEADER}\r\n`]);
  });
});
