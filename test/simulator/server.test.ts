import { Agent, request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parseOriginOverrides } from "../../src/banks/http.js";
import { extractPdfText } from "../../src/pdf/text.js";
import { renderPdf } from "../../src/simulator/pdf.js";
import { type Simulator, startSimulator } from "../../src/simulator/server.js";
import type { SimRequest, SimResponse, SimulatedBank } from "../../src/simulator/types.js";
import { waitFor, within } from "../support/wait.js";

const seen: SimRequest[] = [];

function tinyBank(code: "telebirr" | "dashen", origins: string[]): SimulatedBank {
  return {
    code,
    origins,
    examples: [],
    notFound: { transactionNumber: "NOPE000000", account: null, token: null },
    handle(request): SimResponse {
      seen.push(request);
      if (request.path === "/boom") throw new Error("handler bug");
      return { status: 200, headers: { "Content-Type": "application/pdf" }, body: `${code} ${request.path}` };
    },
  };
}

const telebirr = tinyBank("telebirr", ["receipt.fake.test:443"]);
const dashen = tinyBank("dashen", ["dashen.fake.test:443", "old.dashen.fake.test:8225"]);

describe("startSimulator", () => {
  let sim: Simulator;
  const get = (path: string, headers: Record<string, string> = {}) =>
    request(`${sim.url}${path}`, { headers }).then(async (res) => ({
      status: res.statusCode,
      headers: res.headers,
      body: Buffer.from(await res.body.arrayBuffer()),
    }));

  beforeAll(async () => {
    sim = await startSimulator([telebirr, dashen]);
  });
  afterEach(() => {
    sim.setMode("telebirr", { kind: "normal" });
    sim.setMode("dashen", { kind: "normal" });
    sim.resetCounts();
    seen.length = 0;
  });
  afterAll(async () => {
    await sim.close();
  });

  it("listens on loopback and lists an override for every origin of every bank", () => {
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const overrides = parseOriginOverrides(sim.overrides);
    expect([...overrides]).toEqual(
      ["receipt.fake.test:443", "dashen.fake.test:443", "old.dashen.fake.test:8225"].map((origin) => [
        origin,
        `${sim.url}/${origin}`,
      ]),
    );
  });

  it("routes by the first path segment and hands the bank the real origin, path, query and headers", async () => {
    const res = await get("/old.dashen.fake.test:8225/receipt/FT1%262?id=A&x=1", { "X-App-ID": "abc" });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe("dashen /receipt/FT1%262");
    const request = seen[0];
    expect(request).toMatchObject({
      origin: "old.dashen.fake.test:8225",
      method: "GET",
      path: "/receipt/FT1%262",
    });
    expect(request?.query.get("id")).toBe("A");
    expect(request?.query.get("x")).toBe("1");
    expect(request?.headers["x-app-id"]).toBe("abc");

    await get("/receipt.fake.test:443?id=FT123");
    await get("/receipt.fake.test:443/?id=FT456");
    expect(seen.slice(1).map((r) => [r.path, r.query.get("id")])).toEqual([
      ["/", "FT123"],
      ["/", "FT456"],
    ]);
  });

  it("answers 404 for an origin no bank serves, without counting it", async () => {
    for (const path of ["/evil.example:443/receipt/X", "/", "/receipt/X"]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers["content-type"]).toContain("text/plain");
    }
    expect(sim.requestCount("telebirr") + sim.requestCount("dashen")).toBe(0);
  });

  it("counts requests per bank until reset", async () => {
    await get("/receipt.fake.test:443/a");
    await get("/dashen.fake.test:443/a");
    await get("/old.dashen.fake.test:8225/a");
    expect(sim.requestCount("telebirr")).toBe(1);
    expect(sim.requestCount("dashen")).toBe(2);
    sim.resetCounts();
    expect(sim.requestCount("dashen")).toBe(0);
  });

  it("turns a throwing handler into a 500", async () => {
    expect((await get("/receipt.fake.test:443/boom")).status).toBe(500);
  });

  it("answers an error status with a small HTML page in error mode, for that bank only", async () => {
    sim.setMode("telebirr", { kind: "error", status: 503 });
    const res = await get("/receipt.fake.test:443/x");
    expect(res.status).toBe(503);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(seen).toHaveLength(0);
    expect((await get("/dashen.fake.test:443/x")).status).toBe(200);
    expect(sim.requestCount("telebirr")).toBe(1);
  });

  it("answers 200 noise with the bank's own content type in garbage mode", async () => {
    sim.setMode("telebirr", { kind: "garbage" });
    const res = await get("/receipt.fake.test:443/x");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.body.toString()).not.toContain("telebirr");
    expect(res.body.length).toBeGreaterThan(100);
  });

  it("waits before answering normally in slow mode", async () => {
    sim.setMode("telebirr", { kind: "slow", delayMs: 300 });
    const started = Date.now();
    const res = await get("/receipt.fake.test:443/x");
    // Exception, a lower bound: nothing marks a delay from outside, and load can only lengthen it.
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(res.body.toString()).toBe("telebirr /x");
  });

  it("drops the connection in reset mode", async () => {
    sim.setMode("telebirr", { kind: "reset" });
    await expect(get("/receipt.fake.test:443/x")).rejects.toThrow();
  });

  it("streams exactly the requested size in oversize mode", async () => {
    sim.setMode("telebirr", { kind: "oversize", bytes: 300_000 });
    const res = await get("/receipt.fake.test:443/x");
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(300_000);
  });

  it("answers 302 with the given Location in redirect mode", async () => {
    sim.setMode("telebirr", { kind: "redirect", location: "https://evil.example/x" });
    const res = await get("/receipt.fake.test:443/x");
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("https://evil.example/x");
  });
});

describe("simulator lifecycle", () => {
  it("adds the configured latency to every answer", async () => {
    const sim = await startSimulator([telebirr], { latencyMs: 200 });
    try {
      const started = Date.now();
      const res = await request(`${sim.url}/receipt.fake.test:443/x`);
      await res.body.text();
      // Exception, a lower bound: nothing marks a delay from outside, and load can only lengthen it.
      expect(Date.now() - started).toBeGreaterThanOrEqual(180);
    } finally {
      await sim.close();
    }
  });

  it("closes promptly while a client holds an idle keep-alive connection", async () => {
    const sim = await startSimulator([telebirr]);
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    try {
      const res = await request(`${sim.url}/receipt.fake.test:443/x`, { dispatcher: agent });
      await res.body.text();
      // Exception, a bound: the simulator's own keep-alive timeout (3 s) would also end the connection
      // and let close() return, and nothing but time tells the two apart; the bound sits below it.
      await within(sim.close(), "close() beside an idle keep-alive connection", 2_500);
    } finally {
      await agent.close();
    }
  });

  it("closes promptly while a slow answer is pending", async () => {
    const sim = await startSimulator([telebirr]);
    // Longer than any test: a close() that waited for the answer would not return.
    sim.setMode("telebirr", { kind: "slow", delayMs: 600_000 });
    const pending = request(`${sim.url}/receipt.fake.test:443/x`).catch((error: unknown) => error);
    await waitFor(() => sim.requestCount("telebirr") === 1, "the request to reach the simulator");
    await within(sim.close(), "close() while an answer is pending");
    // Dropped, not answered.
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe("renderPdf", () => {
  const draw = (doc: PDFKit.PDFDocument) => {
    doc.fontSize(14).text("Commercial Bank of Ethiopia");
    doc
      .font("Helvetica-Bold")
      .text("Transferred Amount", { continued: true })
      .font("Helvetica")
      .text(" 20,000.00 ETB");
  };

  it("renders a readable PDF, byte for byte the same every time", async () => {
    const first = await renderPdf(draw);
    const second = await renderPdf(draw);
    expect(first.subarray(0, 5).toString()).toBe("%PDF-");
    expect(first.equals(second)).toBe(true);
    const text = await extractPdfText(first);
    expect(text).toContain("Commercial Bank of Ethiopia");
    expect(text).toContain("20,000.00 ETB");
  });

  it("rejects when the drawing throws", async () => {
    await expect(
      renderPdf(() => {
        throw new Error("bad drawing");
      }),
    ).rejects.toThrow("bad drawing");
  });
});
