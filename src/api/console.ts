import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { ApiProblem } from "./problems.ts";

/** Where `npm run build:console` writes the console (console/dist). */
export const CONSOLE_DIST = fileURLToPath(new URL("../../console/dist/", import.meta.url));

/**
 * Nothing inline and nothing from elsewhere: the console's scripts, styles and API calls all come
 * from this service, so an injected `<script>` or `style=` never runs.
 */
const CONSOLE_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/**
 * The web console for operators and auditors at /console: static files built from console/, which
 * read everything through the public /v1 API with the key the person signed in with. Without a
 * build, /console answers 503 saying how to make one.
 */
export async function registerConsole(app: FastifyInstance, root = CONSOLE_DIST): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook("onSend", async (_request, reply, payload) => {
      reply.headers(CONSOLE_HEADERS);
      return payload;
    });
    if (!existsSync(`${root}/index.html`)) {
      const unbuilt = async () => {
        throw new ApiProblem("service_unavailable", "The console is not built: run `npm run build`, then start the service again.");
      };
      scope.get("/console", { schema: { hide: true } }, unbuilt);
      scope.get("/console/*", { schema: { hide: true } }, unbuilt);
      return;
    }
    // The page's own address ends in a slash, where its files live.
    scope.get("/console", { schema: { hide: true } }, (_request, reply) => reply.redirect("/console/", 301));
    await scope.register(fastifyStatic, {
      root,
      prefix: "/console/",
      index: "index.html",
      // The files of the build found at start, each a route of its own: a rebuild is served from the next start.
      wildcard: false,
      // Hashed file names never change; index.html names the current ones, so it is always revalidated.
      setHeaders: (reply, path) => {
        reply.header("cache-control", path.endsWith("index.html") ? "no-cache" : "public, max-age=31536000, immutable");
      },
      cacheControl: false,
    });
  });
}
