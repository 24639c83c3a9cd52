import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCS_CSP } from "../../api/routes/docs.js";
import { startTestApi, type TestApi } from "../support/api.js";
import { type DocumentedOperation, type OpenApiDocument, operationsOf } from "../support/openapi.js";

const SCREENSHOT = fileURLToPath(new URL("../../test-output/docs-page.png", import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/**
 * Chromium starts in ~0.3 s and renders the page in ~2 s when idle; generous, since other suites may keep
 * both cores busy while it parses the 1.7 MB bundle.
 */
const BROWSER_TIMEOUT_MS = 90_000;

let api: TestApi;
let browser: Browser;
beforeAll(async () => {
  [api, browser] = await Promise.all([
    startTestApi(),
    chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      timeout: BROWSER_TIMEOUT_MS,
      // The network is closed here: without these Chromium keeps dialling Google's services.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    }),
  ]);
}, BROWSER_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe("GET /docs over HTTP", () => {
  it("serves the page with its own policy, at /docs and /docs/", async () => {
    for (const route of ["/docs", "/docs/"]) {
      const response = await fetch(`${api.url}${route}`);
      expect(response.status, route).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("content-security-policy")).toBe(DOCS_CSP);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      const html = await response.text();
      expect(html).toContain('<div id="swagger-ui"></div>');
      // No third-party host anywhere in the page.
      expect(html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    }
  });

  it.each([
    ["swagger-ui.css", "text/css; charset=utf-8"],
    ["swagger-ui-bundle.js", "text/javascript; charset=utf-8"],
    ["init.js", "text/javascript; charset=utf-8"],
  ])("serves /docs/%s as %s, cacheable and revalidated by ETag", async (name, type) => {
    const response = await fetch(`${api.url}/docs/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(type);
    expect(response.headers.get("cache-control")).toMatch(/^public, max-age=\d+$/);
    const etag = response.headers.get("etag");
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);

    // fetch() adds "Cache-Control: no-cache" to a conditional request, which forbids a 304; a browser
    // revalidating sends max-age=0.
    const again = await fetch(`${api.url}/docs/${name}`, {
      headers: { "if-none-match": etag ?? "", "cache-control": "max-age=0" },
    });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("answers the JSON 404 for anything outside the whitelist", async () => {
    for (const route of [
      "/docs/whatever",
      "/docs/index.html",
      "/docs/swagger-initializer.js",
      "/docs/swagger-ui-bundle.js.map",
      "/docs/package.json",
      "/docs/..%2Fpackage.json",
      "/docs/swagger-ui.css/x",
    ]) {
      const response = await fetch(`${api.url}${route}`);
      expect(response.status, route).toBe(404);
      expect(await response.json(), route).toEqual({ message: "Not found." });
      expect(response.headers.get("content-security-policy"), route).not.toBe(DOCS_CSP);
    }
  });

  it("leaves the JSON API its strict policy and no caching", async () => {
    for (const route of ["/api/v1/openapi.json", "/api/v1/banks", "/healthz"]) {
      const response = await fetch(`${api.url}${route}`);
      expect(response.status, route).toBe(200);
      const policy = response.headers.get("content-security-policy");
      expect(policy, route).toMatch(/^default-src 'none'/);
      expect(policy, route).not.toMatch(/script-src|style-src|connect-src|img-src/);
      expect(response.headers.get("cache-control"), route).toBe("no-store");
    }
  });
});

/** What a page did that it should not have: requests elsewhere or failed, console errors, CSP reports. */
interface PageWatch {
  requests: string[];
  problems: string[];
  violations(): Promise<unknown>;
}

// A string, not a function: vitest's transform can add helpers to a function's source that the page lacks.
const RECORD_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener("securitypolicyviolation", (event) => {
    window.__cspViolations.push(event.effectiveDirective + " " + event.blockedURI);
  });
`;

async function watch(page: Page): Promise<PageWatch> {
  const requests: string[] = [];
  const problems: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("requestfailed", (request) =>
    problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.addInitScript(RECORD_VIOLATIONS);
  return { requests, problems, violations: () => page.evaluate("window.__cspViolations") };
}

async function renderedOperation(block: Locator): Promise<string> {
  const method = (await block.locator(".opblock-summary-method").innerText()).trim().toUpperCase();
  // Deprecated operations have another class on the path; data-path is on both.
  return `${method} ${await block.locator("[data-path]").first().getAttribute("data-path")}`;
}

describe("GET /docs in Chromium", () => {
  it(
    "renders every documented operation and details an expanded one, from this origin only",
    async () => {
      // Read from the server, as the page reads it.
      const document = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
      const operations = operationsOf(document);
      expect(operations.length, "the document has no operations to show").toBeGreaterThan(0);
      const byName = new Map(operations.map((operation) => [operation.name, operation]));

      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      page.setDefaultTimeout(BROWSER_TIMEOUT_MS / 2);
      const seen = await watch(page);
      await page.goto(`${api.url}/docs`, { waitUntil: "load" });
      await page.locator(".swagger-ui .info .title").getByText(document.info.title).waitFor();
      await page.locator(".opblock").first().waitFor();
      expect(await page.locator(".swagger-ui .errors-wrapper").count()).toBe(0);

      // An operation with several tags is shown under each, so compare the sets.
      const rendered = await Promise.all((await page.locator(".opblock").all()).map(renderedOperation));
      expect([...new Set(rendered)].sort()).toEqual(operations.map((operation) => operation.name).sort());

      const first = page.locator(".opblock").first();
      const shown = byName.get(await renderedOperation(first));
      if (!shown) throw new Error("the first block is no documented operation");
      await first.locator(".opblock-summary-control").click();
      await expectDetails(first, shown);

      await mkdir(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      const origin = new URL(api.url).origin;
      const elsewhere = seen.requests.filter(
        (url) => !url.startsWith("data:") && new URL(url).origin !== origin,
      );
      expect(elsewhere).toEqual([]);
      expect(seen.requests).toContain(`${origin}/api/v1/openapi.json`);
      expect(seen.problems).toEqual([]);
      expect(await seen.violations()).toEqual([]);
      await page.close();
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    "is held to its policy by the browser: an injected inline script does not run",
    async () => {
      const page = await browser.newPage();
      page.setDefaultTimeout(BROWSER_TIMEOUT_MS / 2);
      const seen = await watch(page);
      await page.goto(`${api.url}/docs`, { waitUntil: "domcontentloaded" });
      const ran = await page.evaluate(`(() => {
        const script = document.createElement("script");
        script.textContent = "window.__inlineRan = true";
        document.head.append(script);
        return window.__inlineRan === true;
      })()`);
      expect(ran).toBe(false);
      // The same listener the first test relies on does see a violation.
      await expect.poll(() => seen.violations()).toEqual(["script-src-elem inline"]);
      await page.close();
    },
    BROWSER_TIMEOUT_MS,
  );
});

/** The expanded block shows the operation's documented responses, parameters and request body. */
async function expectDetails(block: Locator, { operation }: DocumentedOperation): Promise<void> {
  await block.locator(".opblock-body").waitFor();
  for (const code of Object.keys(operation.responses)) {
    await block.locator(`.responses-table tr.response[data-code="${code}"]`).first().waitFor();
  }
  for (const { name } of operation.parameters ?? []) {
    await block.locator(`tr[data-param-name="${name}"]`).first().waitFor();
  }
  if (operation.requestBody) await block.locator(".opblock-section-request-body").waitFor();
}
