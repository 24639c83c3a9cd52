import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Bootstrapped, bootstrapIfEmpty } from "../../src/admin/bootstrap.js";
import { createBranch } from "../../src/admin/businesses.js";
import { firstRunBanner } from "../../src/admin/first-run-banner.js";
import { createApiKey } from "../../src/auth/api-keys.js";
import { createTestDatabase, type TestDatabase } from "../support/database.js";
import { type RunningServiceProcess, startService } from "../support/service-process.js";
import { type Simulator, startBanks } from "../support/simulator.js";

// Every `curl` in README.md and docs/api.md, run as a reader would paste it, against the built service.
//
// The convention the pages follow (CONTRIBUTING.md, "Documentation"):
// - an example is a fenced `sh` block that holds `curl`; it uses $BIRRCHECK_URL and $BIRRCHECK_KEY (the
//   sandbox key the first-run banner exports) and, where the page says so, $BIRRCHECK_ADMIN_KEY;
// - the next fenced block is its answer, an `http` block: the status line, any headers that matter, a blank
//   line and the body. A JSON body is compared field by field with what came back: fields the page leaves
//   out are not checked, ids and times are only required to be there, "…" stands for any value and a last
//   array element "…" for any further elements. A text body is compared line by line, "…" inside a line
//   standing for any text and a line "…" alone for any further lines.
// Each page's examples run in order in one shell environment of their own, so an example may rely on the
// ones above it on its page (a duplicate after a confirmation), as a reader's would.

const ROOT = path.resolve(import.meta.dirname, "../..");
const PAGES = ["README.md", "docs/api.md"] as const;
const VOLATILE_KEYS = new Set([
  "id",
  "verification_id",
  "existing_verification_id",
  "verified_at",
  "created_at",
]);

interface Expected {
  status: number;
  headers: [string, string][];
  body: string;
}

interface Example {
  page: string;
  line: number;
  command: string;
  expected: Expected | null;
}

interface Fence {
  lang: string;
  line: number;
  text: string;
}

function fences(markdown: string): Fence[] {
  const found: Fence[] = [];
  const lines = markdown.split("\n");
  for (let at = 0; at < lines.length; at++) {
    const open = /^```(\S*)/.exec(lines[at] ?? "");
    if (!open) continue;
    const start = at;
    const body: string[] = [];
    for (at++; at < lines.length && !(lines[at] ?? "").startsWith("```"); at++) body.push(lines[at] ?? "");
    found.push({ lang: open[1] ?? "", line: start + 1, text: body.join("\n") });
  }
  return found;
}

function parseExpected(text: string): Expected {
  const [head = "", ...rest] = text.split("\n");
  const status = /^HTTP\/[\d.]+ (\d{3})\b/.exec(head);
  if (!status) throw new Error(`an answer block must start with its status line, not "${head}"`);
  const blank = rest.indexOf("");
  const headerLines = blank === -1 ? rest : rest.slice(0, blank);
  return {
    status: Number(status[1]),
    headers: headerLines.map((line) => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
    body: blank === -1 ? "" : rest.slice(blank + 1).join("\n"),
  };
}

function examplesOf(page: string): Example[] {
  const blocks = fences(readFileSync(path.join(ROOT, page), "utf8"));
  return blocks.flatMap((block, index) => {
    if (!["sh", "bash", "shell"].includes(block.lang) || !/\bcurl\b/.test(block.text)) return [];
    const next = blocks[index + 1];
    return [
      {
        page,
        line: block.line,
        command: block.text,
        expected: next?.lang === "http" ? parseExpected(next.text) : null,
      },
    ];
  });
}

/** "…" inside a line stands for any text. */
function linePattern(expected: string): RegExp {
  const parts = expected.split("…").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`, "s");
}

/** Where `actual` differs from what the page shows, as "path: why" lines (none when it matches). */
function differences(expected: unknown, actual: unknown, at = "body"): string[] {
  if (expected === "…") return [];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: expected an array, got ${JSON.stringify(actual)}`];
    const open = expected.at(-1) === "…";
    const shown = open ? expected.slice(0, -1) : expected;
    if (open ? actual.length < shown.length : actual.length !== shown.length) {
      return [`${at}: expected ${shown.length}${open ? " or more" : ""} elements, got ${actual.length}`];
    }
    return shown.flatMap((item, i) => differences(item, actual[i], `${at}[${i}]`));
  }
  if (expected !== null && typeof expected === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) {
      return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    }
    return Object.entries(expected).flatMap(([key, value]) => {
      if (!Object.hasOwn(actual, key)) return [`${at}.${key}: missing`];
      if (VOLATILE_KEYS.has(key)) return [];
      return differences(value, (actual as Record<string, unknown>)[key], `${at}.${key}`);
    });
  }
  if (typeof expected === "string" && typeof actual === "string" && expected.includes("…")) {
    return linePattern(expected).test(actual) ? [] : [`${at}: ${JSON.stringify(actual)} is not ${expected}`];
  }
  return expected === actual
    ? []
    : [`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

function textDifferences(expected: string, actual: string): string[] {
  const want = expected.replace(/\n+$/, "").split("\n");
  const got = actual
    .replace(/^\uFEFF/, "")
    .replace(/\r/g, "")
    .replace(/\n+$/, "")
    .split("\n");
  const open = want.at(-1) === "…";
  const shown = open ? want.slice(0, -1) : want;
  if (open ? got.length < shown.length : got.length !== shown.length) {
    return [`expected ${shown.length}${open ? " or more" : ""} lines, got ${got.length}:\n${got.join("\n")}`];
  }
  return shown.flatMap((line, i) =>
    linePattern(line).test(got[i] ?? "") ? [] : [`line ${i + 1}: ${JSON.stringify(got[i])} is not ${line}`],
  );
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function bash(script: string, env: Record<string, string>, cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-c", script],
      { cwd, env: { PATH: process.env.PATH ?? "", HOME: cwd, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The headers of the last response, as curl dumped them: status and lower-cased names. */
function lastResponse(dump: string): { status: number; headers: Map<string, string> } {
  const blocks = dump.replace(/\r/g, "").trim().split(/\n\n+/);
  const [statusLine = "", ...lines] = (blocks.at(-1) ?? "").split("\n");
  const headers = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { status: Number(/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine)?.[1] ?? 0), headers };
}

let db: TestDatabase;
let banks: Simulator;
let service: RunningServiceProcess;
let bootstrapped: Bootstrapped;
let workDir: string;
const keys = new Map<string, string>();

beforeAll(async () => {
  db = await createTestDatabase();
  const first = await bootstrapIfEmpty(db.orm.em.fork());
  if (!first) throw new Error("a fresh database must be bootstrapped");
  bootstrapped = first;
  keys.set("README.md", first.sandboxKey);
  // docs/api.md's examples start from a branch of their own, as they would for a reader who starts there.
  const em = db.orm.em.fork();
  const branch = await createBranch(em, first.businessId, "API examples");
  keys.set(
    "docs/api.md",
    (await createApiKey(em, branch.id, "manager", { test: true, label: "Sandbox key" })).key,
  );
  // Any example that reached past the sandbox would find the simulator, never a real bank.
  ({ sim: banks } = await startBanks());
  service = await startService({ databaseUrl: db.url, bankOverrides: banks.overrides });
  workDir = await mkdtemp(path.join(tmpdir(), "birrcheck-examples-"));
}, 180_000);

afterAll(async () => {
  await service?.stop();
  await banks?.close();
  await db?.drop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe("the first-run banner", () => {
  it("verifies a sandbox receipt when its lines are pasted into a shell", { timeout: 60_000 }, async () => {
    const banner = firstRunBanner(service.url, bootstrapped);
    const lines = banner.split("\n").map((line) => line.trim());
    const script = lines
      .filter((line) => line.startsWith("export BIRRCHECK_") || line.startsWith("curl "))
      .join("\n");
    expect(script).toMatch(/curl /);
    const run = await bash(script, {}, workDir);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      success: true,
      duplicate: false,
      data: { bank: "telebirr" },
    });
  });
});

for (const page of PAGES) {
  describe(`${page}'s curl examples`, () => {
    const examples = examplesOf(page);

    it("has examples, each followed by the answer it gets", () => {
      expect(examples.length).toBeGreaterThan(0);
      expect(examples.filter((e) => !e.expected).map((e) => `${page}:${e.line}`)).toEqual([]);
    });

    for (const example of examples) {
      it(`${page}:${example.line} answers as the page shows`, { timeout: 60_000 }, async () => {
        const expected = example.expected;
        if (!expected) throw new Error(`${page}:${example.line} has no answer block after it`);
        const dump = path.join(workDir, "headers.txt");
        await rm(dump, { force: true });
        const run = await bash(
          // curl's own output is untouched: the status and headers go to a file the test reads.
          `set -eo pipefail\ncurl() { command curl --dump-header "${dump}" "$@"; }\n${example.command}`,
          {
            BIRRCHECK_URL: service.url,
            BIRRCHECK_KEY: keys.get(page) ?? "",
            BIRRCHECK_ADMIN_KEY: bootstrapped.key,
          },
          workDir,
        );
        expect(run.code, `${example.command}\n${run.stderr}`).toBe(0);
        const response = lastResponse(await readFile(dump, "utf8"));
        const problems: string[] = [];
        if (response.status !== expected.status) {
          problems.push(`status: expected ${expected.status}, got ${response.status}`);
        }
        for (const [name, value] of expected.headers) {
          const actual = response.headers.get(name);
          if (actual === undefined || !linePattern(value).test(actual)) {
            problems.push(`header ${name}: expected ${value}, got ${actual ?? "none"}`);
          }
        }
        const body = expected.body.trim();
        if (body.startsWith("{") || body.startsWith("[")) {
          let actual: unknown;
          try {
            actual = JSON.parse(run.stdout);
          } catch {
            problems.push(`the output is not JSON: ${run.stdout}`);
          }
          if (actual !== undefined) problems.push(...differences(JSON.parse(body), actual));
        } else if (body) {
          problems.push(...textDifferences(body, run.stdout));
        }
        expect(problems, `${page}:${example.line}\n${example.command}\n→ ${run.stdout}`).toEqual([]);
      });
    }
  });
}
