import type { FastifyInstance } from "fastify";

/**
 * JSON is the only body the API reads. An empty body with a JSON content type is read as `{}`
 * (a DELETE, or a POST that takes no fields, sent by a client that always sets the header; a
 * route that needs fields then names the missing ones); everything else goes through
 * fastify's own parser, with its guard against prototype poisoning. Plain text, like any other
 * type, is then refused with 415 rather than handed to a route as a string.
 */
export function registerBodyParsing(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text === "") {
      done(null, {});
      return;
    }
    parseJson(request, text, done);
  });
}
