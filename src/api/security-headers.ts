import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";

/** A CSP source allowing exactly one inline `<style>` text, by its SHA-256. */
function styleHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/** What both pages allow: their own origin only, nothing framing them, no plugin, no `<base>`. */
function pagePolicy(styleSources: string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "script-src-attr 'none'",
    `style-src ${["'self'", ...styleSources].join(" ")}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join("; ");
}

/**
 * The console (console/dist): every script and style is a file of its own build (vite with
 * `assetsInlineLimit: 0`), so nothing inline at all; its API calls go to this service.
 */
export const CONSOLE_POLICY = pagePolicy([]);

/**
 * The API reference at /docs (@fastify/swagger-ui): its page loads its scripts from files
 * (`swagger-initializer.js` included), and its `style={…}` props go through the CSSOM, which
 * `style-src` does not govern. One thing is inline: the top bar's logo, an SVG holding a `<style>`
 * element (swagger-ui-standalone-preset.js), allowed by its hash rather than by 'unsafe-inline'.
 * If an upgrade of swagger-ui changes it, the browser test of /docs reports the violation.
 * `data:` images are swagger-ui's CSS icons.
 */
export const DOCS_POLICY = pagePolicy([styleHash(".logo_small_svg__cls-2{fill:#fff}.logo_small_svg__cls-3{fill:#85ea2d}")]);

/** Every other answer is data (JSON, Prometheus text), never a document to render or frame. */
export const DATA_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

function policyOf(url: string): string {
  const path = url.split("?", 1)[0]!;
  if (under(path, "/console")) return CONSOLE_POLICY;
  if (under(path, "/docs")) return DOCS_POLICY;
  return DATA_POLICY;
}

/**
 * Headers every answer carries, errors, 404s and static files included: answers under /v1 hold
 * card summaries, keys and webhook secrets, so no browser or proxy stores any (`no-store`),
 * nothing is sniffed into another type, nothing is framed and no referrer leaves. Set in the root
 * scope's onSend, which runs for every reply of every scope after its handler (and
 * @fastify/static) set their own headers, so these win.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook("onSend", async (request, reply, payload) => {
    reply.headers({
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "content-security-policy": policyOf(request.url),
    });
    return payload;
  });
}
