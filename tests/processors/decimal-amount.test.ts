import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { knownCurrencies, MAX_AMOUNT } from "../../src/domain/money.ts";
import { minorUnitsOfDecimal, toDecimalAmount } from "../../src/processors/decimal-amount.ts";
import { decimalAmountOf, minorUnitsOf } from "../../src/processors/simulator/decimal-amount.ts";

/**
 * The connector encodes with the ledger's exponent table; the simulated processor decodes with
 * its own ISO 4217 source (currency-codes), so a wrong exponent on either side shows.
 */
describe("decimal amounts", () => {
  it.each([
    [1099, "USD", "10.99"],
    [5, "USD", "0.05"],
    [500, "JPY", "500"],
    [1099, "BHD", "1.099"],
    [1000, "HUF", "10.00"],
    [150000, "IDR", "1500.00"],
    [1000, "IQD", "1.000"],
    [12345, "CLF", "1.2345"],
    [9007199254740991, "USD", "90071992547409.91"],
  ])("%i %s is %s and back", (minor, currency, decimal) => {
    expect(toDecimalAmount(minor, currency)).toBe(decimal);
    expect(minorUnitsOf(decimal, currency)).toBe(minor);
  });

  it("round-trips any amount in every known currency the processor's ISO 4217 source knows", () => {
    const currencies = knownCurrencies.filter((currency) => currency !== "XCG");
    fc.assert(
      fc.property(fc.constantFrom(...currencies), fc.integer({ min: 1, max: MAX_AMOUNT }), (currency, minor) => {
        expect(minorUnitsOf(toDecimalAmount(minor, currency), currency)).toBe(minor);
      }),
      { numRuns: 2_000 },
    );
    for (const currency of currencies) expect(minorUnitsOf(toDecimalAmount(1, currency), currency)).toBe(1);
  });

  it.each([
    ["10.9", "USD"],
    ["10", "USD"],
    ["10.00", "JPY"],
    ["1000", "HUF"],
    ["1.00", "IQD"],
    ["-1.00", "USD"],
    ["1e3", "USD"],
    ["1.00", "XCG"],
  ])("the simulated processor refuses %s %s", (text, currency) => {
    expect(minorUnitsOf(text, currency)).toBeUndefined();
  });
});

/** Batch totals travel the other way: the simulated processor writes them, the connector reads them back. */
describe("decimal totals", () => {
  it.each([
    [1099, "USD", "10.99"],
    [-1099, "USD", "-10.99"],
    [-5, "USD", "-0.05"],
    [0, "USD", "0.00"],
    [500, "JPY", "500"],
    [-500, "JPY", "-500"],
    [1000, "HUF", "10.00"],
    [-1234, "IQD", "-1.234"],
  ])("%i %s is written %s and read back", (minor, currency, decimal) => {
    expect(decimalAmountOf(minor, currency)).toBe(decimal);
    expect(minorUnitsOfDecimal(decimal, currency)).toBe(minor);
  });

  it("round-trips any total, negative ones included, in every known currency", () => {
    const currencies = knownCurrencies.filter((currency) => currency !== "XCG");
    fc.assert(
      fc.property(fc.constantFrom(...currencies), fc.integer({ min: -MAX_AMOUNT, max: MAX_AMOUNT }), (currency, minor) => {
        expect(minorUnitsOfDecimal(decimalAmountOf(minor, currency), currency)).toBe(minor);
      }),
      { numRuns: 1_000 },
    );
  });

  it.each([
    ["10.9", "USD"],
    ["10", "USD"],
    ["10.00", "JPY"],
    ["+1.00", "USD"],
    ["1e3", "USD"],
    ["1.00", "ZZZ"],
  ])("the connector refuses %s %s", (text, currency) => {
    expect(minorUnitsOfDecimal(text, currency)).toBeUndefined();
  });
});
