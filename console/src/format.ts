/**
 * Amounts in the currency's ISO 4217 minor unit, written out by the exponent of the domain's
 * table (never Intl's CLDR display digits): 1099 USD is "10.99 USD", 500 JPY "500 JPY",
 * 1234 KWD "1.234 KWD".
 */
export function formatAmount(amount: number, currency: string): string {
  const exponent = __CURRENCY_EXPONENTS__[currency];
  if (exponent === undefined) return `${amount} ${currency} (minor units)`;
  const digits = Math.abs(amount).toString().padStart(exponent + 1, "0");
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+$)/g, ",");
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : "";
  return `${amount < 0 ? "-" : ""}${whole}${fraction} ${currency}`;
}

/** A timestamp as UTC, to the second, the same on every screen: "2025-01-31 13:04:05 UTC". */
export function formatTime(iso: string | null): string {
  if (!iso) return "-";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** "42 s", "3 min", "2.5 h". */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

export const shortId = (id: string): string => id.slice(-12);

/**
 * An amount typed in the currency's major unit, as the console writes amounts ("10.99",
 * "1,234.5", "500"), in its minor unit (1099, 123450, 500); a sentence saying what is wrong
 * otherwise. Read from the digits, never through a float: "0.29" is 29, not 28.999….
 */
export function parseAmount(text: string, currency: string): { amount: number } | { problem: string } {
  const exponent = __CURRENCY_EXPONENTS__[currency];
  if (exponent === undefined) return { problem: `${currency || "No currency"} is not a currency the ledger knows.` };
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?$/.exec(text.trim());
  const example = formatAmount(1099 * 10 ** Math.max(exponent - 2, 0), currency);
  if (!match) return { problem: `"${text.trim()}" is not an amount in ${currency}: write it as the console shows it, like ${example}.` };
  const [, whole = "", fraction = ""] = match;
  if (fraction.length > exponent) {
    return { problem: `${currency} has ${exponent === 0 ? "no" : exponent} decimal${exponent === 1 ? "" : "s"}: "${text.trim()}" has ${fraction.length}.` };
  }
  const amount = Number(whole.replaceAll(",", "") + fraction.padEnd(exponent, "0"));
  if (!Number.isSafeInteger(amount)) return { problem: `"${text.trim()}" is too large an amount.` };
  return { amount };
}

/** An amount in the currency's major unit without the currency, as an amount field shows it: 1099 USD is "10.99". */
export const majorUnits = (amount: number, currency: string): string => formatAmount(amount, currency).split(" ")[0]!.replaceAll(",", "");
