import { Writable } from "node:stream";
import { format, inspect } from "node:util";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { REDACTED, Secret } from "../../src/domain/secret.ts";

const number = "4242424242424242";
const cvc = "987";
const card = () => ({ number: new Secret(number), expMonth: 12, expYear: 2030, cvc: new Secret(cvc) });

/** Fails naming where the number or the CVC showed. */
function expectNothingOf(printed: string) {
  expect(printed).not.toContain(number);
  expect(printed).not.toContain(cvc);
}

/** What a pino logger writes, line by line. */
function capturedLogger(make: (destination: Writable) => pino.Logger) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: make(destination), text: () => lines.join("") };
}

describe("Secret", () => {
  it("gives its value to expose() only", () => {
    expect(new Secret(number).expose()).toBe(number);
    expect(new Secret({ password: "hunter2" }).expose()).toEqual({ password: "hunter2" });
    expect(new Secret(number).map((value) => value.slice(-4)).expose()).toBe("4242");
  });

  it("prints as [redacted] in JSON, String(), template strings and concatenation", () => {
    const secret = new Secret(number);
    expect(JSON.stringify(secret)).toBe(`"${REDACTED}"`);
    expect(JSON.stringify({ card: card() })).toBe(`{"card":{"number":"${REDACTED}","expMonth":12,"expYear":2030,"cvc":"${REDACTED}"}}`);
    expect(JSON.stringify([secret, [secret]])).toBe(`["${REDACTED}",["${REDACTED}"]]`);
    expect(String(secret)).toBe(REDACTED);
    expect(`${secret}`).toBe(REDACTED);
    expect("" + secret).toBe(REDACTED);
    expect(secret.toString()).toBe(REDACTED);
    expect(format("%s %j %o %O", secret, secret, secret, secret)).toBe(`${REDACTED} "${REDACTED}" ${REDACTED} ${REDACTED}`);
  });

  it("prints as [redacted] in util.inspect at every depth, nested in objects, arrays, maps and errors", () => {
    const deep = { a: { b: { c: { d: { card: card() } } } }, list: [[card()]], map: new Map([["k", new Secret(cvc)]]) };
    for (const options of [{}, { depth: Infinity }, { depth: 0 }, { showHidden: true, depth: Infinity }, { colors: true, depth: null }]) {
      expectNothingOf(inspect(deep, options));
    }
    expect(inspect(new Secret(number))).toBe(REDACTED);
    expect(inspect({ number: new Secret(number) })).toBe(`{ number: ${REDACTED} }`);
    const error = Object.assign(new Error("declined"), { card: card() });
    expectNothingOf(inspect(error, { depth: Infinity }));
    // Without custom inspection, a private field still does not show.
    expectNothingOf(inspect(deep, { customInspect: false, showHidden: true, depth: Infinity }));
  });

  it("shows nothing to Object.keys, entries, spreads, assign and for-in", () => {
    const secret = new Secret(number);
    expect(Object.keys(secret)).toEqual([]);
    expect(Object.entries(secret)).toEqual([]);
    expect(Object.getOwnPropertyNames(secret)).toEqual([]);
    expect(Reflect.ownKeys(secret)).toEqual([]);
    expect({ ...secret }).toEqual({});
    expect(Object.assign({}, secret)).toEqual({});
    const seen: string[] = [];
    for (const key in secret) seen.push(key);
    expect(seen).toEqual([]);
    expectNothingOf(JSON.stringify(Object.values({ ...card() })));
  });

  it("is cloned by structuredClone as an empty object, which exposes nothing", () => {
    const cloned: unknown = structuredClone({ card: card() });
    expect(cloned).toEqual({ card: { number: {}, expMonth: 12, expYear: 2030, cvc: {} } });
    expect((cloned as { card: { number: object } }).card.number).not.toBeInstanceOf(Secret);
    expectNothingOf(JSON.stringify(cloned));
  });

  it("is never written by pino, with or without the service's redaction paths and serializers", () => {
    const plain = capturedLogger((destination) => pino({}, destination));
    const service = capturedLogger((destination) => createLogger("info", destination));
    const serialized = capturedLogger((destination) =>
      pino({ serializers: { req: (value: unknown) => value, payment: (value: unknown) => ({ ...(value as object) }) } }, destination),
    );
    for (const { logger } of [plain, service, serialized]) {
      logger.info({ card: card(), payment: { card: card(), secret: new Secret(number) }, req: { body: { card: card() } } }, "paying");
      logger.info({ list: [new Secret(number), { nested: [new Secret(cvc)] }] }, "a list");
      logger.info("interpolated %s and %o", new Secret(number), new Secret(cvc));
      logger.error({ err: Object.assign(new Error("failed"), { card: card() }) }, "an error");
      logger.info(`a message with ${new Secret(number)}`);
    }
    for (const { text } of [plain, service, serialized]) {
      expect(text()).toContain(REDACTED);
      expectNothingOf(text());
    }
  });
});
