import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Router } from "@koa/router";
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

interface DocsFiles {
  page: StaticFile;
  /** Keyed by the file name under /docs/: the whole whitelist. */
  assets: Map<string, StaticFile>;
}

let files: DocsFiles | undefined;

/** Read on first use and kept for the process: every app instance (tests start many) shares one copy. */
function docsFiles(): DocsFiles {
  if (files) return files;
  const swaggerUi = path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
  const ours = (name: string) => new URL(`../docs/${name}`, import.meta.url);
  files = {
    page: staticFile(ours("index.html"), "text/html; charset=utf-8"),
    assets: new Map([
      ["swagger-ui.css", staticFile(path.join(swaggerUi, "swagger-ui.css"), "text/css; charset=utf-8")],
      [
        "swagger-ui-bundle.js",
        staticFile(path.join(swaggerUi, "swagger-ui-bundle.js"), "text/javascript; charset=utf-8"),
      ],
      ["init.js", staticFile(ours("init.js"), "text/javascript; charset=utf-8")],
    ]),
  };
  return files;
}

function staticFile(location: string | URL, type: string): StaticFile {
  const body = readFileSync(location);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  return { body, type, etag };
}

/**
 * GET /docs: the API reference (Swagger UI over /api/v1/openapi.json), every asset served from here out of
 * swagger-ui-dist, no CDN. Any other /docs/ path is left unhandled, so it gets the app's JSON 404.
 */
export function docsRoutes(): Router<ApiState> {
  const router = new Router<ApiState>();
  const { page, assets } = docsFiles();

  router.get(["/docs", "/docs/"], (ctx) => {
    ctx.set("Content-Security-Policy", DOCS_CSP);
    ctx.type = page.type;
    ctx.body = page.body;
  });

  for (const [name, asset] of assets) {
    router.get(`/docs/${name}`, (ctx) => {
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
