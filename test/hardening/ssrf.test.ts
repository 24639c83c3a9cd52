import net, { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BANK_CODES } from "../../src/banks/codes.js";
import { createTenant, startTestApi, type Tenant, type TestApi } from "../support/api.js";
import { type Simulator, simulatedBank, startBanks } from "../support/simulator.js";

/*
 * Server-side request forgery: a receipt_url is the one input that names a place the service connects to.
 * Every outgoing connection of this process is watched (net.Socket.prototype.connect, which undici, pg and
 * fetch all go through): loopback connections pass, so a trap server can count what reaches it, and any
 * other address is refused before DNS and recorded. The only connections allowed are the test's own calls
 * to the API, the API's database, and the bank simulator standing in for the bank origins.
 */

let api: TestApi;
let sim: Simulator;
let tenant: Tenant;
let trap: Server;
let trapConnections = 0;
let T = 0; // the trap's port

interface Connection {
  host: string;
  port: number;
}
const connections: Connection[] = [];
const refused: Connection[] = [];
const originalConnect = net.Socket.prototype.connect;
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost", "::ffff:127.0.0.1"]);

/** Records every connection; lets loopback through and refuses everything else before any lookup. */
function watchConnections(): void {
  net.Socket.prototype.connect = function watched(this: net.Socket, ...args: unknown[]) {
    const target = connectTarget(args);
    if (target) {
      connections.push(target);
      if (!LOOPBACK.has(target.host)) {
        refused.push(target);
        process.nextTick(() => this.destroy(new Error(`test refused a connection to ${target.host}`)));
        return this;
      }
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
}

function connectTarget(args: unknown[]): Connection | null {
  const [first, second] = args;
  // Internal calls pass [options, callback] as one normalized array.
  const options = Array.isArray(first) ? first[0] : first;
  if (typeof options === "object" && options !== null) {
    const { host, port, path } = options as { host?: string; port?: number | string; path?: string };
    if (path) return null;
    return { host: host ?? "localhost", port: Number(port) };
  }
  if (typeof options === "number" || (typeof options === "string" && /^\d+$/.test(options))) {
    return { host: typeof second === "string" ? second : "localhost", port: Number(options) };
  }
  return null;
}

beforeAll(async () => {
  watchConnections();
  trap = createServer((socket) => {
    trapConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
  T = (trap.address() as { port: number }).port;
  const started = await startBanks();
  sim = started.sim;
  api = await startTestApi({ banks: started.banks });
  tenant = await createTenant(api.db, { quota: 10_000 });
});
afterAll(async () => {
  net.Socket.prototype.connect = originalConnect;
  trap?.close();
  await api?.close();
  await sim?.close();
});

/** host:port pairs this process may connect to: the API (the test's own calls), its database, the simulator. */
function allowedTargets(): Set<string> {
  const database = new URL(inject("adminDatabaseUrl"));
  const apiUrl = new URL(api.url);
  const simUrl = new URL(sim.url);
  return new Set([
    `${apiUrl.hostname}:${apiUrl.port}`,
    `${simUrl.hostname}:${simUrl.port}`,
    `${database.hostname}:${database.port || "5432"}`,
  ]);
}

const UNSUPPORTED = { message: "The receipt url is not a supported bank receipt link." };
const TELEBIRR = "transactioninfo.ethiotelecom.et";
const BOA = "cs.bankofabyssinia.com";

/** Receipt URLs that must be refused before any connection. `${T}` is the trap's port. */
function hostileUrls(): string[] {
  const ref = "receipt/DFH51OFIED";
  const urls = [
    // IP literals, in every notation the WHATWG parser folds to an address.
    `https://127.0.0.1:${T}/${ref}`,
    `https://2130706433:${T}/${ref}`,
    `https://0x7f000001:${T}/${ref}`,
    `https://0x7f.0x0.0x0.0x1:${T}/${ref}`,
    `https://0177.0.0.1:${T}/${ref}`,
    `https://017700000001:${T}/${ref}`,
    `https://127.1:${T}/${ref}`,
    `https://127.0.0.1.:${T}/${ref}`,
    `https://%31%32%37.0.0.1:${T}/${ref}`,
    `https://0:${T}/${ref}`,
    `https://[::1]:${T}/${ref}`,
    `https://[::ffff:127.0.0.1]:${T}/${ref}`,
    `https://[::ffff:7f00:1]:${T}/${ref}`,
    `https://[0:0:0:0:0:ffff:127.0.0.1]:${T}/${ref}`,
    "https://169.254.169.254/latest/meta-data/",
    "https://[fd00:ec2::254]/latest/meta-data/",
    "https://10.0.0.1/receipt/DFH51OFIED",
    "https://192.168.1.1/receipt/DFH51OFIED",
    `https://localhost:${T}/${ref}`,
    `https://localhost./${ref}`,
    `https://127.0.0.1.nip.io:${T}/${ref}`,
    // Userinfo: the host is what follows the last @.
    `https://${BOA}@127.0.0.1:${T}/slip/?trx=FT26083XJRMH26009`,
    `https://${BOA}:443@127.0.0.1:${T}/slip/?trx=FT26083XJRMH26009`,
    `https://${TELEBIRR}@127.0.0.1:${T}/${ref}`,
    `https://user:pass@${TELEBIRR}/${ref}`,
    `https://${TELEBIRR}@${TELEBIRR}/${ref}`,
    `https://${TELEBIRR}%40127.0.0.1:${T}/${ref}`,
    `https://127.0.0.1:${T}\\@${TELEBIRR}/${ref}`,
    `https://127.0.0.1:${T}#@${TELEBIRR}/${ref}`,
    `https://127.0.0.1:${T}?@${TELEBIRR}/${ref}`,
    // Lookalike and suffix hosts.
    `https://${TELEBIRR}.127.0.0.1.nip.io:${T}/${ref}`,
    `https://${TELEBIRR}.evil.example/${ref}`,
    `https://evil-${TELEBIRR}/${ref}`,
    `https://x${TELEBIRR}/${ref}`,
    `https://transactioninfo-ethiotelecom.et/${ref}`,
    `https://${TELEBIRR.replace(".et", ".com")}/${ref}`,
    `https://ethiotelecom.et/${ref}`,
    `https://transactioninfo.ethiotelec0m.et/${ref}`,
    `https://transactіonіnfo.ethiotelecom.et/${ref}`, // Cyrillic і
    `https://${BOA}.evil.example/slip/?trx=FT26083XJRMH26009`,
    "https://bankofabyssinia.com/slip/?trx=FT26083XJRMH26009",
    "https://mbreciept.cbe.com.et.evil.example/v2-hfHCxGvIhvqVMTB7hylL",
    `https://${TELEBIRR}\n.evil.example/${ref}`,
    // Ports other than the bank's.
    `https://${TELEBIRR}:${T}/${ref}`,
    `https://${TELEBIRR}:80/${ref}`,
    `https://${TELEBIRR}:8225/${ref}`,
    `https://${TELEBIRR}:65536/${ref}`,
    `https://awashpay.awashbank.com:${T}/-2KDL95Z0NR-4U61O6`,
    "https://awashpay.awashbank.com/-2KDL95Z0NR-4U61O6",
    `https://apps.cbe.com.et:${T}/?id=FT26140P01YB60536171`,
    "https://apps.cbe.com.et/?id=FT26140P01YB60536171",
    // Schemes.
    `http://${TELEBIRR}/${ref}`,
    `http://127.0.0.1:${T}/${ref}`,
    `ftp://${TELEBIRR}/${ref}`,
    "file:///etc/passwd",
    `gopher://127.0.0.1:${T}/_GET%20/`,
    `ws://${TELEBIRR}/${ref}`,
    `wss://${TELEBIRR}/${ref}`,
    "data:text/html,<script>alert(1)</script>",
    "javascript:alert(1)",
    `https:/127.0.0.1:${T}/${ref}`,
    `//${TELEBIRR}/${ref}`,
    `  https://127.0.0.1:${T}/${ref}  `,
    // Percent-encoding and trailing dots.
    `https://127.0.0.1%3A${T}/${ref}`,
    `https://${TELEBIRR}%00.evil.example/${ref}`,
    `https://${TELEBIRR}./${ref}`,
    `https://${BOA}./slip/?trx=FT26083XJRMH26009`,
    `https://${TELEBIRR}../${ref}`,
    // Not a URL at all.
    "",
    "not a url",
    "https://",
    `https://${TELEBIRR}`,
  ];
  // Every bank origin, as userinfo in front of the trap and as a prefix of a foreign host.
  for (const code of BANK_CODES) {
    for (const origin of simulatedBank(code).origins) {
      const host = origin.replace(/:443$/, "");
      urls.push(`https://${host}@127.0.0.1:${T}/`);
      urls.push(`https://${host.split(":")[0]}.127.0.0.1.nip.io:${T}/`);
    }
  }
  return urls;
}

/** Spellings of a real bank origin that the URL standard normalises to it: they may only reach the simulator. */
const BANK_SPELLINGS = [
  `HTTPS://${TELEBIRR.toUpperCase()}/receipt/DFH51OFIED`,
  `https:${TELEBIRR}/receipt/DFH51OFIED`,
  `https://${TELEBIRR}:443/receipt/DFH51OFIED`,
  `https://${TELEBIRR}:0443/receipt/DFH51OFIED`,
  `https://transactioninfo%2eethiotelecom%2eet/receipt/DFH51OFIED`,
  "https://ｔransactioninfo.ethiotelecom.et/receipt/DFH51OFIED",
  "https://transactioninfo。ethiotelecom。et/receipt/DFH51OFIED",
  `https://${TELEBIRR}/receipt/..%2F..%2F127.0.0.1:%{T}`,
  `https://${TELEBIRR}/receipt/%2e%2e/%2e%2e/admin`,
  `https://${TELEBIRR}\\@127.0.0.1:{T}/receipt/DFH51OFIED`,
];

describe("receipt_url never makes the service connect anywhere but a bank origin", () => {
  it("the watch sees and refuses a connection to a non-loopback host (self-check)", async () => {
    await fetch("https://watch-self-check.invalid/").catch(() => undefined);
    expect(refused).toEqual([{ host: "watch-self-check.invalid", port: 443 }]);
    refused.length = 0;
    connections.length = 0;
  });

  it("refuses at least 50 hostile links on both endpoints with a 400 (or a 422 for an empty one)", async () => {
    const urls = hostileUrls();
    expect(urls.length).toBeGreaterThanOrEqual(50);
    const accepted: string[] = [];
    for (const url of urls) {
      for (const path of ["/verify", "/verify/parse-url"]) {
        const response = await api.request("POST", path, { key: tenant.key, json: { receipt_url: url } });
        if (response.status === 422) {
          // Only a blank link is a validation error (a required field); every other refusal is the 400.
          expect(url.trim(), `${path} ${JSON.stringify(url)}`).toBe("");
          continue;
        }
        if (response.status !== 400) accepted.push(`${path} ${JSON.stringify(url)} → ${response.status}`);
        else expect(response.body).toEqual(UNSUPPORTED);
      }
    }
    expect(accepted).toEqual([]);
    console.info(`SSRF: ${urls.length} hostile receipt URLs refused on 2 endpoints`);
    expect(trapConnections).toBe(0);
    expect(refused).toEqual([]);
  });

  it("lets spellings of a bank's own origin reach only the simulator", async () => {
    sim.resetCounts();
    for (const spelling of BANK_SPELLINGS) {
      const url = spelling.replaceAll("{T}", String(T));
      for (const path of ["/verify/parse-url", "/verify"]) {
        const response = await api.request("POST", path, { key: tenant.key, json: { receipt_url: url } });
        // Accepted and looked up at the (simulated) bank, or refused as not a receipt link of it.
        expect([200, 400, 404], `${path} ${url} → ${JSON.stringify(response.body)}`).toContain(
          response.status,
        );
        if (response.status === 200 && path === "/verify/parse-url") {
          expect(response.body.bank).toBe("telebirr");
        }
      }
    }
    expect(sim.requestCount("telebirr")).toBeGreaterThan(0);
    expect(trapConnections).toBe(0);
    expect(refused).toEqual([]);
  });

  it("does not follow a bank origin that redirects elsewhere (503, nothing consumed)", async () => {
    const owner = await createTenant(api.db, { quota: 5 });
    const targets = [
      `http://127.0.0.1:${T}/steal`,
      `https://127.0.0.1:${T}/steal`,
      "https://169.254.169.254/latest/meta-data/",
      `https://${BOA}/api/onlineSlip/getDetails/?id=FT26083XJRMH26009`,
      "/relative/elsewhere",
    ];
    try {
      for (const location of targets) {
        sim.setMode("telebirr", { kind: "redirect", location });
        for (const json of [
          { receipt_url: `https://${TELEBIRR}/receipt/DFH51OFIED` },
          { bank: "telebirr", transaction_number: "DFH51OFIED" },
        ]) {
          sim.resetCounts();
          const response = await api.request("POST", "/verify", { key: owner.key, json });
          expect(response.status, location).toBe(503);
          expect(response.body).toEqual({ message: "Telebirr is not responding. Please try again later." });
          expect(sim.requestCount("telebirr")).toBeGreaterThan(0);
          expect(sim.requestCount("boa")).toBe(0);
        }
      }
    } finally {
      sim.setMode("telebirr", { kind: "normal" });
    }
    const history = await api.request("GET", "/verifications", { key: owner.key });
    expect(history.body.verifications).toEqual([]);
    expect(trapConnections).toBe(0);
    expect(refused).toEqual([]);
  });

  it("made no connection but to the API, its database and the bank simulator", () => {
    const allowed = allowedTargets();
    const others = connections
      .map(({ host, port }) => `${host}:${port}`)
      .filter((target) => !allowed.has(target));
    expect(others).toEqual([]);
    // The watch really saw traffic: the simulator was reached through it.
    expect(connections.some(({ port }) => port === Number(new URL(sim.url).port))).toBe(true);
  });
});
