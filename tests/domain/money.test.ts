import { describe, expect, it } from "vitest";
import {
  amountSchema,
  currencySchema,
  isKnownCurrency,
  isValidAmount,
  MAX_AMOUNT,
  minorUnitExponent,
} from "../../src/domain/money.ts";

describe("currencies", () => {
  it.each(["USD", "EUR", "JPY", "KWD", "GBP", "CHF", "XOF"])("knows %s", (code) => {
    expect(isKnownCurrency(code)).toBe(true);
    expect(currencySchema.safeParse(code).success).toBe(true);
  });

  it.each(["usd", "Usd", "US", "USDD", "ABC", "XXX", "XDR", "", "12$"])("refuses %j", (code) => {
    expect(isKnownCurrency(code)).toBe(false);
    expect(currencySchema.safeParse(code).success).toBe(false);
  });

  it("explains a malformed code once", () => {
    const result = currencySchema.safeParse("usd");
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(["must be 3 uppercase letters"]);
  });

  it.each([
    ["USD", 2],
    ["EUR", 2],
    ["JPY", 0],
    ["KRW", 0],
    ["CLP", 0],
    ["KWD", 3],
    ["BHD", 3],
    // CLDR shows these without decimals; ISO 4217 (what processors count in) gives them decimals.
    ["HUF", 2],
    ["IDR", 2],
    ["IQD", 3],
  ])("takes the ISO 4217 exponent of %s: %i", (code, exponent) => {
    expect(minorUnitExponent(code)).toBe(exponent);
  });

  it("has an exponent for every known currency", () => {
    for (const code of Intl.supportedValuesOf("currency").filter(isKnownCurrency)) {
      expect([0, 2, 3]).toContain(minorUnitExponent(code));
    }
  });

  it("refuses an exponent for an unknown code", () => {
    expect(() => minorUnitExponent("ABC")).toThrow(RangeError);
  });
});

describe("amounts", () => {
  it.each([1, 1099, MAX_AMOUNT])("accepts %i", (amount) => {
    expect(isValidAmount(amount)).toBe(true);
    expect(amountSchema.safeParse(amount).success).toBe(true);
  });

  it.each([0, -1, 10.5, MAX_AMOUNT + 1, Number.MAX_SAFE_INTEGER + 2, Number.NaN, Number.POSITIVE_INFINITY])(
    "refuses %d",
    (amount) => {
      expect(isValidAmount(amount)).toBe(false);
      expect(amountSchema.safeParse(amount).success).toBe(false);
    },
  );

  it("refuses amounts that are not numbers", () => {
    expect(amountSchema.safeParse("1099").success).toBe(false);
  });
});
