import { minorUnitExponent } from "../domain/money.ts";

/** Minor units as a decimal string in the currency's ISO 4217 decimals ("1099" USD is "10.99", "1000" HUF "10.00"). */
// String arithmetic: dividing by 10^n in floating point loses cents on large amounts.
export function toDecimalAmount(minor: number, currency: string): string {
  const exponent = minorUnitExponent(currency);
  if (exponent === 0) return String(minor);
  const digits = String(minor).padStart(exponent + 1, "0");
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}
