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
