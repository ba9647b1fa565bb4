/** What a secret prints as, wherever it is printed. */
export const REDACTED = "[redacted]";

/**
 * A value that never prints itself (as Hyperswitch's `masking::Secret`): JSON (pino's lines,
 * answers), `String()`, template strings and `util.inspect` (`console.log`, vitest's diffs) all
 * show `[redacted]`. Its content is read with `expose()`, only where it is sent or sealed.
 *
 * The value lives in a private field, so `Object.keys`, spreads, `Object.assign` and
 * `structuredClone` (which keeps own enumerable properties only, and no prototype) see nothing
 * of it: a clone is an empty object, which cannot be exposed either. A Secret that crosses to a
 * worker or into a database must be exposed on purpose first.
 */
export class Secret<T> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
  }

  /** The content itself: only where it is written into what is sent to its one recipient. */
  expose(): T {
    return this.#value;
  }

  /** A secret made of this one's content, without exposing it to the caller's scope. */
  map<U>(transform: (value: T) => U): Secret<U> {
    return new Secret(transform(this.#value));
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [Symbol.toPrimitive](): string {
    return REDACTED;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return REDACTED;
  }
}
