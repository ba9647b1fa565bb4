import { code as isoCurrency } from "currency-codes";
import { describe, expect, it } from "vitest";
import {
  amountSchema,
  currencySchema,
  isKnownCurrency,
  isValidAmount,
  knownCurrencies,
  MAX_AMOUNT,
  minorUnitExponent,
} from "../../src/domain/money.ts";

describe("currencies", () => {
  it.each(["USD", "EUR", "JPY", "KWD", "GBP", "CHF", "XOF"])("knows %s", (code) => {
    expect(isKnownCurrency(code)).toBe(true);
    expect(currencySchema.safeParse(code).success).toBe(true);
  });

  // XXX, XDR, XAU have no minor unit; HRK and SLL are withdrawn.
  it.each(["usd", "Usd", "US", "USDD", "ABC", "XXX", "XDR", "XAU", "HRK", "SLL", "", "12$"])("refuses %j", (code) => {
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
    ["COP", 2],
    ["PKR", 2],
    ["CLF", 4],
  ])("takes the ISO 4217 exponent of %s: %i", (code, exponent) => {
    expect(minorUnitExponent(code)).toBe(exponent);
  });

  it("takes every known currency's exponent from ISO 4217 as an independent source (currency-codes) gives it", () => {
    // currency-codes' data (2024-06-25) predates the Caribbean guilder (XCG, 2025), two decimals.
    const newerThanTheSource = ["XCG"];
    expect(knownCurrencies.filter((code) => !isoCurrency(code))).toEqual(newerThanTheSource);
    for (const code of knownCurrencies.filter((known) => !newerThanTheSource.includes(known))) {
      expect({ code, exponent: minorUnitExponent(code) }).toEqual({ code, exponent: isoCurrency(code)?.digits });
    }
    expect(minorUnitExponent("XCG")).toBe(2);
  });

  it("knows the currencies people pay in, whatever Intl's data says", () => {
    expect(knownCurrencies.length).toBeGreaterThan(160);
    expect(knownCurrencies).toEqual(expect.arrayContaining(["USD", "EUR", "HUF", "IDR", "COP", "PKR", "IQD", "CLF"]));
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
