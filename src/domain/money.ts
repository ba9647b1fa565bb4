import { z } from "zod";

/** Money is an integer count of the currency's minor unit (`1099` USD = $10.99, `500` JPY = ¥500). */

/**
 * The largest amount one transaction may carry: 10^12 minor units (10 billion USD, 1 billion KWD,
 * 1 trillion JPY), far above any card payment in any currency in use. It keeps amounts and their
 * sums exact: one payment's captures and refunds add up to at most a few times this, and even
 * thousands of maximal amounts summed for a daily limit stay below 2^53 (about 9 * 10^15).
 */
export const MAX_AMOUNT = 1_000_000_000_000;

export const isValidAmount = (amount: number): boolean =>
  Number.isSafeInteger(amount) && amount > 0 && amount <= MAX_AMOUNT;

/**
 * ISO 4217 (list one, with the 2025 XCG) minor units: the digits processors count amounts in.
 * Written out rather than taken from `Intl`, whose digits are CLDR's display digits (HUF and IDR
 * are shown without decimals but have two) and change with the ICU data of the Node version.
 * Codes without a minor unit (gold, SDR, test and "no currency" codes) are left out: nobody pays
 * by card in them. Withdrawn codes are left out too.
 */
const codesByExponent: ReadonlyArray<readonly [number, string]> = [
  [0, "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"],
  [
    2,
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD " +
      "CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL " +
      "GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD " +
      "LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN " +
      "PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB " +
      "TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG",
  ],
  [3, "BHD IQD JOD KWD LYD OMR TND"],
  [4, "CLF UYW"],
];

const exponents: ReadonlyMap<string, number> = new Map(
  codesByExponent.flatMap(([exponent, codes]) => codes.split(" ").map((code) => [code, exponent] as const)),
);

/** Every currency the ledger accepts, with its ISO 4217 minor unit. */
export const knownCurrencies: readonly string[] = [...exponents.keys()].sort();

/** An ISO 4217 alphabetic code, uppercase, that has a minor unit. */
export const isKnownCurrency = (code: string): boolean => exponents.has(code);

/** Digits after the decimal point: 2 for USD, 0 for JPY, 3 for KWD. Throws a RangeError for an unknown code. */
export function minorUnitExponent(currency: string): number {
  const exponent = exponents.get(currency);
  if (exponent === undefined) throw new RangeError(`Unknown currency: ${currency}`);
  return exponent;
}

export const currencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: "must be 3 uppercase letters", abort: true })
  .refine(isKnownCurrency, "must be a known ISO 4217 currency code");

export const amountSchema = z
  .number()
  .int("must be an integer number of minor units")
  .positive("must be greater than 0")
  .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`);
