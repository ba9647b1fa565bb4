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

// ISO 4217 lists no minor unit for these special drawing rights units: nobody pays by card in them.
const notPayable = new Set(["XDR", "XSU"]);

const knownCurrencies: ReadonlySet<string> = new Set(
  Intl.supportedValuesOf("currency").filter((code) => !notPayable.has(code)),
);

/**
 * Intl takes its digits from CLDR, which gives the digits people display, not the ISO 4217
 * minor unit that processors count in (HUF and IDR are shown without decimals but have two).
 * These are the codes where the two differ.
 */
const isoExponentWhereCldrDiffers: ReadonlyMap<string, number> = new Map([
  ["AFN", 2],
  ["ALL", 2],
  ["COP", 2],
  ["HUF", 2],
  ["IDR", 2],
  ["IQD", 3],
  ["IRR", 2],
  ["KPW", 2],
  ["LAK", 2],
  ["LBP", 2],
  ["MGA", 2],
  ["MMK", 2],
  ["PKR", 2],
  ["SLL", 2],
  ["SOS", 2],
  ["SYP", 2],
  ["YER", 2],
]);

const formats = new Map<string, Intl.NumberFormat>();
/** Building a NumberFormat is costly and every payment checks its currency: keep one per code. */
function currencyFormat(currency: string): Intl.NumberFormat {
  let format = formats.get(currency);
  if (!format) formats.set(currency, (format = new Intl.NumberFormat("en", { style: "currency", currency })));
  return format;
}

/** An ISO 4217 alphabetic code, uppercase, that Intl knows. */
export function isKnownCurrency(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code) || !knownCurrencies.has(code)) return false;
  try {
    currencyFormat(code);
    return true;
  } catch {
    return false;
  }
}

/** Digits after the decimal point: 2 for USD, 0 for JPY, 3 for KWD. Throws a RangeError for an unknown code. */
export function minorUnitExponent(currency: string): number {
  if (!isKnownCurrency(currency)) throw new RangeError(`Unknown currency: ${currency}`);
  return (
    isoExponentWhereCldrDiffers.get(currency) ?? currencyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2
  );
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
