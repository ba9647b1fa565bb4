import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { ApiProblem } from "./problems.ts";

/** Where `npm run build:console` writes the console (console/dist). */
export const CONSOLE_DIST = fileURLToPath(new URL("../../console/dist/", import.meta.url));

/**
 * The web console for operators and auditors at /console: static files built from console/, which
 * read everything through the public /v1 API with the key the person signed in with. Without a
 * build, /console answers 503 saying how to make one.
 */
export async function registerConsole(app: FastifyInstance, root = CONSOLE_DIST): Promise<void> {
  await app.register(async (scope) => {
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
      // Its headers (a Content-Security-Policy allowing nothing inline and nothing from elsewhere,
      // no-store like every answer) are security-headers.ts's.
      cacheControl: false,
    });
  });
}
