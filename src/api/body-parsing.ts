import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiProblem } from "./problems.ts";

/**
 * JSON is the only body the API reads. An empty body with a JSON content type is read as `{}`
 * (a DELETE, or a POST that takes no fields, sent by a client that always sets the header; a
 * route that needs fields then names the missing ones); everything else goes through
 * fastify's own parser, with its guard against prototype poisoning. Plain text, like any other
 * type, is then refused with 415 rather than handed to a route as a string. So is a body that is
 * compressed or in another charset than UTF-8: fastify would decode its bytes as UTF-8 regardless.
 */
export function registerBodyParsing(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const refusal = unreadableEncodingOf(request);
    if (refusal) {
      done(refusal, undefined);
      return;
    }
    const text = body.toString();
    if (text === "") {
      done(null, {});
      return;
    }
    parseJson(request, text, done);
  });
}

function unreadableEncodingOf(request: FastifyRequest): ApiProblem | undefined {
  const codings = (request.headers["content-encoding"] ?? "").split(",").map((coding) => coding.trim().toLowerCase());
  if (codings.some((coding) => coding !== "" && coding !== "identity")) {
    return new ApiProblem("unsupported_media_type", "Send the body uncompressed: content-encoding must be identity.");
  }
  const charsets = charsetsOf(request.headers["content-type"] ?? "");
  if (charsets === undefined || charsets.some((charset) => charset !== "utf-8")) {
    return new ApiProblem("unsupported_media_type", "Send JSON encoded as UTF-8: charset must be utf-8.");
  }
  return undefined;
}

/**
 * A parameter of a content type (RFC 9110 §5.6.6), a token name and a token or quoted-string
 * value, or a segment without `=` (which names no charset).
 */
const parameterPattern = /;\s*(?:([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;"\s]*)|[^;"=]*)\s*/y;

/**
 * Every `charset` a content type names, lower-cased and unquoted; undefined when its parameters
 * cannot be read, so their charset cannot be told. They are read in order from the media type on,
 * so a `;charset=` inside another parameter's quoted value is no charset.
 */
function charsetsOf(contentType: string): string[] | undefined {
  const charsets: string[] = [];
  const parametersStart = contentType.indexOf(";");
  parameterPattern.lastIndex = parametersStart === -1 ? contentType.length : parametersStart;
  while (parameterPattern.lastIndex < contentType.length) {
    const match = parameterPattern.exec(contentType);
    if (!match) return undefined;
    const [, name, value = ""] = match;
    if (name?.toLowerCase() === "charset") charsets.push(unquoted(value).toLowerCase());
  }
  return charsets;
}

function unquoted(value: string): string {
  return value.startsWith('"') ? value.slice(1, -1).replaceAll(/\\(.)/g, "$1") : value;
}
