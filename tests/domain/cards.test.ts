import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Secret } from "../../src/domain/secret.ts";
import {
  cardBrand,
  cardSummaryOf,
  cardSchema,
  isCardNumberFormat,
  isExpired,
  isValidCvc,
  passesLuhn,
  safeCard,
  storedCardSchema,
} from "../../src/domain/cards.ts";

const now = new Date("2026-03-15T12:00:00.000Z");
const request = z.strictObject({ card: cardSchema(() => now) });

/** The issue paths and messages of a request with this card, `[]` when it passes. */
function issues(card: Record<string, unknown>) {
  const result = request.safeParse({ card });
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
}

const valid = { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123", holderName: "Jane Doe" };

describe("test cards from API.md", () => {
  it.each([
    ["4242424242424242", "visa"],
    ["5555555555554444", "mastercard"],
    ["378282246310005", "amex"],
    ["4000000000000002", "visa"],
    ["4000000000009995", "visa"],
    ["4000000000000069", "visa"],
    ["4000000000000127", "visa"],
    ["4000000000000119", "visa"],
    ["4000000000000408", "visa"],
  ])("%s passes Luhn and is %s", (number, brand) => {
    expect(isCardNumberFormat(number)).toBe(true);
    expect(passesLuhn(number)).toBe(true);
    expect(cardBrand(number)).toBe(brand);
    expect(issues({ ...valid, number, cvc: brand === "amex" ? "1234" : "123" })).toEqual([]);
  });
});

describe("brands", () => {
  it.each([
    ["4111111111111111", "visa"],
    ["5105105105105100", "mastercard"],
    ["2221000000000009", "mastercard"],
    ["2720990000000007", "mastercard"],
    ["2220990000000008", "unknown"],
    ["2721000000000004", "unknown"],
    ["371449635398431", "amex"],
    ["341111111111111", "amex"],
    ["6011111111111117", "discover"],
    ["6445644564456445", "discover"],
    ["6500000000000002", "discover"],
    ["6430000000000000", "unknown"],
    ["3530111333300000", "unknown"],
  ])("%s is %s", (number, brand) => {
    expect(cardBrand(number)).toBe(brand);
  });
});

describe("card numbers", () => {
  it("refuses a bad check digit", () => {
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(issues({ ...valid, number: "4242424242424241" })).toEqual(["card.number"]);
  });

  it.each(["42424242424", "42424242424242424242", "4242 4242 4242 4242", "4242a24242424242", ""])(
    "refuses %j",
    (number) => {
      expect(isCardNumberFormat(number)).toBe(false);
      expect(issues({ ...valid, number })).toEqual(["card.number"]);
    },
  );

  it("takes 12 to 19 digits", () => {
    expect(isCardNumberFormat("424242424242")).toBe(true);
    expect(isCardNumberFormat("4242424242424242424")).toBe(true);
  });
});

describe("expiry", () => {
  it("is good through the end of its month, in UTC", () => {
    expect(isExpired(3, 2026, new Date("2026-03-31T23:59:59.999Z"))).toBe(false);
    expect(isExpired(3, 2026, new Date("2026-04-01T00:00:00.000Z"))).toBe(true);
    expect(isExpired(12, 2026, new Date("2026-12-31T23:59:59.999Z"))).toBe(false);
    expect(isExpired(12, 2026, new Date("2027-01-01T00:00:00.000Z"))).toBe(true);
  });

  it("accepts a card valid this month", () => {
    expect(issues({ ...valid, expMonth: 3, expYear: 2026 })).toEqual([]);
  });

  it("refuses a card that expired last month", () => {
    expect(issues({ ...valid, expMonth: 2, expYear: 2026 })).toEqual(["card.expMonth"]);
  });

  it("refuses a card that expired last year on its year", () => {
    expect(issues({ ...valid, expMonth: 12, expYear: 2025 })).toEqual(["card.expYear"]);
  });

  it("asks the clock on every parse", () => {
    let today = new Date("2026-03-31T23:00:00.000Z");
    const schema = cardSchema(() => today);
    const card = { ...valid, expMonth: 3, expYear: 2026 };
    expect(schema.safeParse(card).success).toBe(true);
    today = new Date("2026-04-01T00:00:00.000Z");
    expect(schema.safeParse(card).success).toBe(false);
  });

  it.each([
    [{ expMonth: 0 }, "card.expMonth"],
    [{ expMonth: 13 }, "card.expMonth"],
    [{ expMonth: 1.5 }, "card.expMonth"],
    [{ expYear: 30 }, "card.expYear"],
    [{ expYear: 20300 }, "card.expYear"],
    [{ expYear: "2030" }, "card.expYear"],
  ])("refuses %j", (change, path) => {
    expect(issues({ ...valid, ...change })).toEqual([path]);
  });
});

describe("CVC", () => {
  it("is 3 digits, 4 for amex", () => {
    expect(isValidCvc("123", "visa")).toBe(true);
    expect(isValidCvc("1234", "visa")).toBe(false);
    expect(isValidCvc("1234", "amex")).toBe(true);
    expect(isValidCvc("123", "amex")).toBe(false);
    expect(isValidCvc("12a", "mastercard")).toBe(false);
  });

  it("wants 4 digits on an amex card", () => {
    const amex = { ...valid, number: "378282246310005" };
    expect(issues({ ...amex, cvc: "1234" })).toEqual([]);
    expect(issues({ ...amex, cvc: "123" })).toEqual(["card.cvc"]);
  });

  it("wants 3 digits on other cards", () => {
    expect(issues({ ...valid, cvc: "1234" })).toEqual(["card.cvc"]);
    expect(issues({ ...valid, cvc: "" })).toEqual(["card.cvc"]);
  });

  it("is optional", () => {
    const { cvc: _cvc, ...withoutCvc } = valid;
    expect(issues(withoutCvc)).toEqual([]);
  });
});

describe("the card object", () => {
  it("passes a complete card through, its number and CVC held as secrets from here on", () => {
    const { number, cvc, ...rest } = request.parse({ card: valid }).card;
    expect(rest).toEqual({ expMonth: 12, expYear: 2030, holderName: "Jane Doe" });
    expect(number).toBeInstanceOf(Secret);
    expect([number.expose(), cvc?.expose()]).toEqual([valid.number, valid.cvc]);
    expect(JSON.stringify(request.parse({ card: valid }))).toBe(
      '{"card":{"expMonth":12,"expYear":2030,"holderName":"Jane Doe","number":"[redacted]","cvc":"[redacted]"}}',
    );
  });

  it("to store: its number a secret too", () => {
    const { cvc: _cvc, ...stored } = valid;
    const parsed = storedCardSchema(() => now).parse(stored);
    expect(parsed.number.expose()).toBe(valid.number);
    expect(JSON.stringify(parsed)).not.toContain(valid.number);
  });

  it("needs the number and expiry", () => {
    expect(issues({ cvc: "123" })).toEqual(["card.number", "card.expMonth", "card.expYear"]);
  });

  it("refuses unknown fields", () => {
    expect(issues({ ...valid, pin: "1234" })).toEqual(["card"]);
  });

  it.each(["", " ", "a".repeat(101), "Jane\u0000Doe", "Jane\nDoe"])("refuses holder name %j", (holderName) => {
    expect(issues({ ...valid, holderName })).toEqual(["card.holderName"]);
  });

  it.each(["José Ñúñez", "O'Brien-Smith", "a".repeat(100), "李小龙"])("accepts holder name %j", (holderName) => {
    expect(issues({ ...valid, holderName })).toEqual([]);
  });
});

describe("safeCard", () => {
  it("keeps brand, last four, expiry and fingerprint only: never the BIN beside a fingerprint", () => {
    expect(safeCard(new Secret("378282246310005"), 12, 2030, "fp_1")).toEqual({ brand: "amex", last4: "0005", expMonth: 12, expYear: 2030, fingerprint: "fp_1" });
  });

  it("a stored card's summary has no fingerprint (its payment method keeps it)", () => {
    expect(safeCard(new Secret("378282246310005"), 12, 2030)).toEqual({ brand: "amex", last4: "0005", expMonth: 12, expYear: 2030 });
  });
});

describe("cardSummaryOf", () => {
  const written = { brand: "visa", bin: "424242", last4: "4242", expMonth: 12, expYear: 2030, fingerprint: "fp_1_x" } as const;

  it("drops the BIN that events of earlier releases hold", () => {
    expect(cardSummaryOf(written, { paidWithMethod: false })).toEqual({ brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, fingerprint: "fp_1_x" });
  });

  it("drops the fingerprint of a card paid through a payment method", () => {
    expect(cardSummaryOf(written, { paidWithMethod: true })).toEqual({ brand: "visa", last4: "4242", expMonth: 12, expYear: 2030 });
  });

  it("never holds the number", () => {
    expect(JSON.stringify(safeCard(new Secret("4242424242424242"), 1, 2030, "fp"))).not.toContain("4242424242424242");
  });
});
