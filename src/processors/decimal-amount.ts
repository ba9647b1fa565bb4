import { isKnownCurrency, minorUnitExponent } from "../domain/money.ts";

/** Minor units as a decimal string in the currency's ISO 4217 decimals ("1099" USD is "10.99", "1000" HUF "10.00"). */
// String arithmetic: dividing by 10^n in floating point loses cents on large amounts.
export function toDecimalAmount(minor: number, currency: string): string {
  const exponent = minorUnitExponent(currency);
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, "0");
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/**
 * A processor's decimal string back in minor units ("-10.99" USD is -1099); `undefined` unless it
 * has exactly the currency's ISO 4217 decimals, so a misread amount never passes for a total.
 */
export function minorUnitsOfDecimal(text: string, currency: string): number | undefined {
  if (!isKnownCurrency(currency)) return undefined;
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (!match || (match[3] ?? "").length !== minorUnitExponent(currency)) return undefined;
  const magnitude = Number(`${match[2]}${match[3] ?? ""}`);
  if (!Number.isSafeInteger(magnitude)) return undefined;
  return match[1] === "-" && magnitude !== 0 ? -magnitude : magnitude;
}
