import { code as isoCurrency } from "currency-codes";

/**
 * A decimal amount ("10.00" HUF) in minor units (1000), as the simulated processor_c reads it:
 * with its own ISO 4217 table (the currency-codes package), never the ledger's, so that a
 * connector sending the wrong number of decimals is refused instead of agreed with.
 * `undefined` unless `text` has exactly the currency's number of decimals.
 */
export function minorUnitsOf(text: string, currency: string): number | undefined {
  const decimals = isoCurrency(currency)?.digits;
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (decimals === undefined || !match || (match[2] ?? "").length !== decimals) return undefined;
  const minor = Number(`${match[1]}${match[2] ?? ""}`);
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** Minor units as the simulated processor_c writes a total: its own ISO 4217 decimals, "-" when negative. */
export function decimalAmountOf(minor: number, currency: string): string {
  const decimals = isoCurrency(currency)?.digits;
  // Every amount it recorded was read with the same table (`minorUnitsOf`).
  if (decimals === undefined) throw new RangeError(`The simulated processor_c does not know ${currency}.`);
  const sign = minor < 0 ? "-" : "";
  const digits = String(Math.abs(minor)).padStart(decimals + 1, "0");
  if (decimals === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
