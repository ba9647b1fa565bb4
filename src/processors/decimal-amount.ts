/** Minor units to and from a decimal string ("1099" USD is "10.99"), for processors that want one. */

export function currencyExponent(currency: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

// String arithmetic: dividing by 10^n in floating point loses cents on large amounts.
export function toDecimalAmount(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, "0");
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** `undefined` unless `text` has exactly the currency's number of decimals. */
export function fromDecimalAmount(text: string, currency: string): number | undefined {
  const exponent = currencyExponent(currency);
  const pattern = exponent === 0 ? /^[0-9]+$/ : new RegExp(`^[0-9]+\\.[0-9]{${exponent}}$`);
  if (!pattern.test(text)) return undefined;
  const minor = Number(text.replace(".", ""));
  return Number.isSafeInteger(minor) ? minor : undefined;
}
