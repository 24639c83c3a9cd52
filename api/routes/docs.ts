import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Router } from "@koa/router";
import { projectFile } from "../../src/project-files.js";
import type { ApiState } from "../context.js";

/**
 * The page's own policy in place of the API's `default-src 'none'`: scripts and styles from this origin
 * only (so index.html has no inline script), `data:` images for the icons swagger-ui.css embeds and the
 * empty favicon, fetches to this origin for openapi.json and "Try it out". Framing stays forbidden.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The assets are not fingerprinted, so an hour bounds how long a browser may pair a new page with an old
 * bundle after an upgrade; after that the ETag makes revalidation a 304.
 */
const ASSET_CACHE_CONTROL = "public, max-age=3600";

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

const SWAGGER_UI = () => path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const OURS = (name: string) => () => projectFile("api", "docs", name);

/** What /docs serves, by path under /docs/ ("" is the page): the whole whitelist. */
const FILES = {
  "": { locate: OURS("index.html"), type: "text/html; charset=utf-8" },
  "swagger-ui.css": {
    locate: () => path.join(SWAGGER_UI(), "swagger-ui.css"),
    type: "text/css; charset=utf-8",
  },
  "swagger-ui-bundle.js": {
    locate: () => path.join(SWAGGER_UI(), "swagger-ui-bundle.js"),
    type: "text/javascript; charset=utf-8",
  },
  "init.js": { locate: OURS("init.js"), type: "text/javascript; charset=utf-8" },
} satisfies Record<string, { locate: () => string; type: string }>;
type DocsFile = keyof typeof FILES;

/** Read on first request, not at start-up, and kept for the process (tests start many app instances). */
const loaded = new Map<DocsFile, StaticFile>();
function staticFile(name: DocsFile): StaticFile {
  let file = loaded.get(name);
  if (!file) {
    const { locate, type } = FILES[name];
    const body = readFileSync(locate());
    file = { body, type, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
    loaded.set(name, file);
  }
  return file;
}

/**
 * GET /docs: the API reference (Swagger UI over /api/v1/openapi.json), every asset served from here out of
 * swagger-ui-dist, no CDN. Any other /docs/ path is left unhandled, so it gets the app's JSON 404.
 */
export function docsRoutes(): Router<ApiState> {
  const router = new Router<ApiState>();

  router.get(["/docs", "/docs/"], (ctx) => {
    const page = staticFile("");
    ctx.set("Content-Security-Policy", DOCS_CSP);
    ctx.type = page.type;
    ctx.body = page.body;
  });

  for (const name of ["swagger-ui.css", "swagger-ui-bundle.js", "init.js"] as const) {
    router.get(`/docs/${name}`, (ctx) => {
      const asset = staticFile(name);
      ctx.set("Cache-Control", ASSET_CACHE_CONTROL);
      ctx.etag = asset.etag;
      ctx.type = asset.type;
      // Koa compares If-None-Match with the ETag; the status must be set before the check.
      ctx.status = 200;
      if (ctx.fresh) {
        ctx.status = 304;
        return;
      }
      ctx.body = asset.body;
    });
  }

  return router;
}
