import type { Context, Next } from "koa";

/**
 * Headers for a JSON API that no browser should render, frame, sniff or cache: responses may carry
 * payment details.
 */
const HEADERS = Object.entries({
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Strict-Transport-Security": "max-age=31536000",
  "Cache-Control": "no-store",
});

export async function securityHeaders(ctx: Context, next: Next): Promise<void> {
  // Set on the response itself: Koa's `ctx.set(object)` makes three arrays per header on every request.
  for (const [name, value] of HEADERS) ctx.res.setHeader(name, value);
  await next();
}
