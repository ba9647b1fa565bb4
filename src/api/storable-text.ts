import type { FastifyInstance } from "fastify";
import { ApiProblem, type FieldError } from "./problems.ts";

/**
 * NUL and unpaired surrogates: JSON carries them, but PostgreSQL cannot store them and RFC 8785
 * (the hash chain's canonical JSON) refuses them, so they must never get past the edge.
 */
// eslint-disable-next-line no-control-regex -- NUL is what it looks for
const UNSTORABLE = /[\u0000\p{Cs}]/u;
const UNSTORABLE_EVERYWHERE = new RegExp(UNSTORABLE.source, "gu");
const MESSAGE = "must not contain NUL or unpaired surrogates";
/** Enough to show what is wrong; the answer to a hostile body stays small. */
const MAX_ERRORS = 20;

interface PathNode {
  key: string;
  parent: PathNode | undefined;
}

/** `card.number`, `limits.0.currency`; bad characters of a key are shown as U+FFFD. */
function pathOf(node: PathNode | undefined): string {
  const keys: string[] = [];
  for (let at = node; at; at = at.parent) keys.unshift(at.key.replace(UNSTORABLE_EVERYWHERE, "\uFFFD"));
  return keys.join(".");
}

/**
 * Every key and string, at any depth, that holds unstorable text. Walked with a stack of its own,
 * so a deeply nested body cannot overflow the call stack.
 */
function unstorableText(root: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const pending: { value: unknown; path: PathNode | undefined }[] = [{ value: root, path: undefined }];
  for (let next = pending.pop(); next && errors.length < MAX_ERRORS; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string") {
      if (UNSTORABLE.test(value)) errors.push({ path: pathOf(path), message: MESSAGE });
    } else if (typeof value === "object" && value !== null) {
      // Reversed onto the stack, so fields are reported in the order they were sent.
      for (const [key, item] of Object.entries(value).reverse()) {
        const child = { key, parent: path };
        if (UNSTORABLE.test(key)) errors.push({ path: pathOf(child), message: `key ${MESSAGE}` });
        pending.push({ value: item, path: child });
      }
    }
  }
  return errors.slice(0, MAX_ERRORS);
}

/** Refuses unstorable text in the body, query string or path of every route, before it validates. */
export function registerStorableText(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    const parts = { body: request.body, querystring: request.query, params: request.params };
    for (const [part, value] of Object.entries(parts)) {
      const errors = unstorableText(value);
      if (errors.length > 0) throw new ApiProblem("validation_error", `The ${part} is invalid.`, { errors });
    }
  });
}
