import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BankUnavailableError, ReceiptFormatError } from "../../src/banks/errors.js";
import { type BankHttpClient, createBankHttpClient, parseOriginOverrides } from "../../src/banks/http.js";
import { lookupAtBank } from "../../src/banks/lookup.js";
import { RECEIPT_PARSERS } from "../../src/banks/receipt-parsers.js";
import { createBankAdapters } from "../../src/banks/registry.js";
import type {
  BankAdapter,
  BankNetwork,
  LookupOutcome,
  LookupTarget,
  ShareLink,
} from "../../src/banks/types.js";
import { parseReceiptUrl } from "../../src/engine/receipt-url.js";
import { type Simulator, startSimulator } from "../../src/simulator/server.js";
import type { SimulatedBank } from "../../src/simulator/types.js";

export interface BankContractOptions {
  /** Builds the adapter under test; `network` carries short timeouts and zero backoff. */
  adapter: (network: Partial<BankNetwork>) => BankAdapter;
  bank: SimulatedBank;
  /** Share URLs (every form docs/banks.md lists) and what parseShareUrl must return for each. */
  shareUrls: { url: string; expected: ShareLink }[];
  /** URLs that must not be recognised, on top of the generic hostile ones built here. */
  foreignUrls?: string[];
  /** Whether the bank's receipt-text reader knows these links (a made-up adapter's it does not). Default true. */
  readByTextReader?: boolean;
  /** Inputs validate() must reject. */
  invalidTargets?: LookupTarget[];
}

const TEST_NETWORK: Partial<BankNetwork> = { timeoutMs: 1500, connectTimeoutMs: 1000, backoffMs: 0 };
const noSleep = async (): Promise<void> => {};

/**
 * The behaviour every bank adapter must show against its simulated bank on loopback.
 * Targets go through normalizeReference/normalizeAccount before validate and lookup, as the engine does.
 */
export function describeBankContract(options: BankContractOptions): void {
  const { bank } = options;

  describe(`bank contract: ${bank.code}`, () => {
    let sim: Simulator;
    let client: BankHttpClient;
    let adapter: BankAdapter;

    beforeAll(async () => {
      sim = await startSimulator([bank]);
      client = createBankHttpClient({ originOverrides: parseOriginOverrides(sim.overrides) });
      adapter = options.adapter(TEST_NETWORK);
    });
    afterEach(() => {
      sim.setMode(bank.code, { kind: "normal" });
      sim.resetCounts();
    });
    afterAll(async () => {
      await client?.close();
      await sim?.close();
    });

    const prepare = (target: LookupTarget): LookupTarget => ({
      transactionNumber: adapter.normalizeReference(target.transactionNumber),
      account: target.account === null ? null : adapter.normalizeAccount(target.account),
      token: target.token,
    });
    const lookup = (target: LookupTarget): Promise<LookupOutcome> =>
      lookupAtBank(adapter, prepare(target), client, { sleep: noSleep });
    const first = () => {
      const example = bank.examples[0];
      if (!example) throw new Error(`${bank.code}: the simulated bank has no examples`);
      return example;
    };

    it("describes itself consistently", () => {
      expect(adapter.code).toBe(bank.code);
      expect(bank.examples.length).toBeGreaterThan(0);
      for (const origin of adapter.origins) expect(origin).toMatch(/^[a-z0-9.-]+:\d{1,5}$/);
      for (const origin of bank.origins) expect(adapter.origins).toContain(origin);
      for (const origin of adapter.network.insecureTlsOrigins) expect(adapter.origins).toContain(origin);
    });

    bank.examples.forEach((example, index) => {
      it(`finds example ${index} (${example.target.transactionNumber}) by its target`, async () => {
        await expect(lookup(example.target)).resolves.toEqual({
          kind: "found",
          receipt: example.receipt,
          reference: example.reference,
        });
      });

      it(`accepts example ${index} as valid input`, () => {
        expect(adapter.validate(prepare(example.target))).toBeNull();
      });

      const { shareUrl } = example;
      if (shareUrl) {
        it(`finds example ${index} through its share URL ${shareUrl}`, async () => {
          const link = adapter.parseShareUrl(new URL(shareUrl));
          expect(link).not.toBeNull();
          if (!link) return;
          const target = {
            transactionNumber: link.transactionNumber,
            account: link.accountNumber,
            token: link.token,
          };
          // The same reference whichever way the receipt was reached: it is the duplicate-detection key.
          await expect(lookup(target)).resolves.toEqual({
            kind: "found",
            receipt: example.receipt,
            reference: example.reference,
          });
        });
      }
    });

    it("reports an unknown reference as not found", async () => {
      await expect(lookup(bank.notFound)).resolves.toEqual({ kind: "not_found" });
    });

    it("gives up with bank_unavailable after 1 + retries attempts when the bank answers 503", async () => {
      sim.setMode(bank.code, { kind: "error", status: 503 });
      const error = await lookup(first().target).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BankUnavailableError);
      expect((error as BankUnavailableError).reason).toBe("server_error");
      expect(sim.requestCount(bank.code)).toBe(1 + adapter.network.retries);
    });

    it("rejects an unreadable answer with ReceiptFormatError, without retrying", async () => {
      sim.setMode(bank.code, { kind: "garbage" });
      await expect(lookup(first().target)).rejects.toBeInstanceOf(ReceiptFormatError);
      expect(sim.requestCount(bank.code)).toBe(1);
    });

    it("times out on a bank that answers too slowly", async () => {
      sim.setMode(bank.code, { kind: "slow", delayMs: 3000 });
      await expectUnavailable(lookup(first().target), "timeout");
    });

    it("reports a reset connection as a network failure", async () => {
      sim.setMode(bank.code, { kind: "reset" });
      await expectUnavailable(lookup(first().target), "network");
    });

    it("never follows a redirect", async () => {
      sim.setMode(bank.code, { kind: "redirect", location: "https://evil.example/receipt" });
      await expectUnavailable(lookup(first().target), "redirect");
      expect(sim.requestCount(bank.code)).toBe(1);
    });

    // Through the one door a pasted link takes (src/engine/receipt-url.ts), which also trims SMS punctuation.
    for (const { url, expected } of options.shareUrls) {
      it(`parses share URL ${url}`, () => {
        const adapters = { ...createBankAdapters(), [bank.code]: adapter };
        const parsed = parseReceiptUrl(url, adapters);
        expect(parsed.bank).toBe(bank.code);
        expect(parsed.link).toEqual(expected);
      });
    }

    // An SMS bubble (and OCR of its screenshot) breaks a long link wherever the line is full.
    for (const { url, expected } of options.readByTextReader === false ? [] : options.shareUrls) {
      it(`reads share URL ${url} from an SMS that wraps it across lines`, () => {
        const parser = RECEIPT_PARSERS[bank.code];
        const reference = (text: string) => {
          const claim = parser.parse(text);
          const link = claim?.shareUrl ? parseReceiptUrl(claim.shareUrl, createBankAdapters()).link : null;
          return link?.token ?? link?.transactionNumber ?? claim?.transactionNumber;
        };
        const sms = (link: string) =>
          `Dear Customer, your transfer is done. Receipt:\n${link}\nThank you for banking with us.`;
        const whole = reference(sms(url));
        expect(whole, "the link on one line").toBe(expected.token ?? expected.transactionNumber);
        const breaks = wrapPoints(url);
        for (const at of breaks) {
          expect(reference(sms(`${url.slice(0, at)}\n${url.slice(at)}`)), `broken at ${at}`).toBe(whole);
        }
        const [first, second] = [breaks[0] ?? 10, breaks.at(-1) ?? 20];
        if (first < second) {
          const twice = `${url.slice(0, first)}\n${url.slice(first, second)}\n${url.slice(second)}`;
          expect(reference(sms(twice)), "broken twice").toBe(whole);
        }
      });
    }

    it("recognises no foreign or hostile URL", () => {
      const genuine = [
        ...options.shareUrls.map((entry) => entry.url),
        ...bank.examples.flatMap((example) => (example.shareUrl ? [example.shareUrl] : [])),
      ];
      const hostile = [...(options.foreignUrls ?? []), ...hostileVariants(adapter.origins, genuine)];
      for (const url of hostile) {
        expect(adapter.parseShareUrl(new URL(url)), url).toBeNull();
      }
    });

    (options.invalidTargets ?? []).forEach((target, index) => {
      it(`rejects invalid input ${index} (${JSON.stringify(target)})`, () => {
        expect(adapter.validate(prepare(target))).toMatchObject({ message: expect.any(String) });
      });
    });
  });
}

// --- internal helpers ---

async function expectUnavailable(promise: Promise<unknown>, reason: BankUnavailableError["reason"]) {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BankUnavailableError);
  expect((error as BankUnavailableError).reason).toBe(reason);
}

/**
 * Mutations of the bank's own URLs that a careless host check would accept: plain http, userinfo
 * (either side of the @), a suffix or lookalike host, and a port the bank does not use.
 */
function hostileVariants(origins: readonly string[], genuine: readonly string[]): string[] {
  const samples = new Map<string, string>();
  for (const url of genuine) {
    const parsed = new URL(url);
    samples.set(`${parsed.hostname}:${parsed.port || "443"}`, `${parsed.pathname}${parsed.search}`);
  }
  const result: string[] = [];
  for (const origin of origins) {
    const [host = "", port = "443"] = origin.split(":");
    const path = samples.get(origin) ?? [...samples.values()][0] ?? "/receipt/FT26140P01YB";
    const hostPort = port === "443" ? host : `${host}:${port}`;
    const otherPort = origins.includes(`${host}:8444`) ? "9443" : "8444";
    result.push(
      `http://${hostPort}${path}`,
      `https://${host}@evil.example${path}`,
      `https://${hostPort}@evil.example${path}`,
      `https://user@${hostPort}${path}`,
      `https://${host}.evil.example${path}`,
      `https://evil-${host}${path}`,
      `https://${host}:${otherPort}${path}`,
    );
  }
  return [...new Set(result)];
}

/**
 * Where a phone wraps a link that does not fit a line: right after the scheme, inside the host, after a
 * "-" or at a "?", and inside the last path or query segment (a token split in two).
 */
function wrapPoints(url: string): number[] {
  const scheme = url.indexOf("//") + 2;
  const host = url.indexOf(".", scheme) + 1;
  const dash = url.indexOf("-", host) + 1;
  const question = url.indexOf("?");
  const path = url.slice(host);
  const longest = path.split(/[/?=&]/).reduce((a, b) => (b.length > a.length ? b : a), "");
  const inToken = host + path.indexOf(longest) + Math.ceil(longest.length / 2);
  const points = [scheme, host, dash > 0 ? dash : -1, question, inToken];
  return [...new Set(points.filter((at) => at > 0 && at < url.length))].sort((a, b) => a - b);
}
