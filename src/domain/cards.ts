import { z } from "zod";
import { Secret } from "./secret.ts";

/** Card checks and the card data we may keep: never the full number, never the CVC. */

export const cardBrands = ["visa", "mastercard", "amex", "discover", "unknown"] as const;
export type CardBrand = (typeof cardBrands)[number];

/**
 * What a transaction or a payment method keeps of a card: never the BIN beside a fingerprint (the
 * two together leave about 10^5 candidates). The fingerprint is a keyed hash of the number under a
 * key of the master keys' rank, made outside the domain; a transaction paid with a stored card has
 * none (its payment method keeps it, under that method's own key).
 */
export type SafeCard = {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  fingerprint?: string;
};

/**
 * A card summary as events and stored states hold it, including those written before the BIN was
 * dropped (stored events are never rewritten): what may be served of it. A card paid through a
 * payment method loses its fingerprint too.
 */
export function cardSummaryOf(
  stored: SafeCard & { bin?: string },
  { paidWithMethod }: { paidWithMethod: boolean },
): SafeCard {
  const { brand, last4, expMonth, expYear, fingerprint } = stored;
  return { brand, last4, expMonth, expYear, ...(fingerprint !== undefined && !paidWithMethod && { fingerprint }) };
}

export const isCardNumberFormat = (number: string): boolean => /^[0-9]{12,19}$/.test(number);

/** The Luhn (mod 10) check digit test. Expects digits only. */
export function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const prefixIn = (number: string, length: number, from: number, to: number) => {
  const prefix = Number(number.slice(0, length));
  return number.length >= length && prefix >= from && prefix <= to;
};

export function cardBrand(number: string): CardBrand {
  if (number.startsWith("4")) return "visa";
  if (prefixIn(number, 2, 51, 55) || prefixIn(number, 4, 2221, 2720)) return "mastercard";
  if (prefixIn(number, 2, 34, 34) || prefixIn(number, 2, 37, 37)) return "amex";
  if (number.startsWith("6011") || prefixIn(number, 3, 644, 649) || number.startsWith("65")) return "discover";
  return "unknown";
}

/** A card is good through the last moment of its expiry month, in UTC. */
export function isExpired(expMonth: number, expYear: number, now: Date): boolean {
  // Date.UTC takes 0-based months, so `expMonth` is the month after expiry; 12 rolls into January.
  return now.getTime() >= Date.UTC(expYear, expMonth, 1);
}

export const cvcLength = (brand: CardBrand): number => (brand === "amex" ? 4 : 3);

export const isValidCvc = (cvc: string, brand: CardBrand): boolean =>
  new RegExp(`^[0-9]{${cvcLength(brand)}}$`).test(cvc);

/** What may be kept of a number: its brand and last four digits. */
export function brandAndLast4(number: Secret<string>): { brand: CardBrand; last4: string } {
  const digits = number.expose();
  return { brand: cardBrand(digits), last4: digits.slice(-4) };
}

/** The summary of a card sent inline (with its fingerprint) or stored (without: it is kept under the payment method's key). */
export function safeCard(number: Secret<string>, expMonth: number, expYear: number, fingerprint?: string): SafeCard {
  return {
    ...brandAndLast4(number),
    expMonth,
    expYear,
    ...(fingerprint !== undefined && { fingerprint }),
  };
}

const expiryInRange = (expMonth: number, expYear: number) =>
  Number.isInteger(expMonth) &&
  expMonth >= 1 &&
  expMonth <= 12 &&
  Number.isInteger(expYear) &&
  expYear >= 1000 &&
  expYear <= 9999;

const cardNumberSchema = z
  .string()
  .regex(/^[0-9]{12,19}$/, { message: "must be 12 to 19 digits", abort: true })
  .refine(passesLuhn, "is not a valid card number (Luhn check failed)");

const storedCardFields = {
  number: cardNumberSchema,
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int().min(1000, "must be a 4-digit year").max(9999, "must be a 4-digit year"),
  holderName: z
    .string()
    .max(100)
    .regex(/^\P{C}*$/u, "must contain only printable characters")
    .refine((value) => value.trim() !== "", "must not be empty or blank")
    .optional(),
};

/**
 * The request's `card` object. Expiry is checked here too, against `now` (a clock passed in, so
 * the domain never reads one); issue paths are relative (`number`), so nested under `card` in a
 * request body they read `card.number`. Once valid, the number and the CVC are secrets.
 */
export const cardSchema = (now: () => Date) =>
  z
    .strictObject({ ...storedCardFields, cvc: z.string().optional() })
    .superRefine((card, ctx) => {
      const brand = cardBrand(card.number);
      if (card.cvc !== undefined && !isValidCvc(card.cvc, brand)) {
        ctx.addIssue({ code: "custom", path: ["cvc"], message: `must be ${cvcLength(brand)} digits` });
      }
      checkExpiry(card, now, ctx);
    })
    .transform(({ number, cvc, ...card }) => ({
      ...card,
      number: new Secret(number),
      ...(cvc !== undefined && { cvc: new Secret(cvc) }),
    }));

/** A card to keep in the vault: as `cardSchema`, but never a CVC (it may only accompany a payment). */
export const storedCardSchema = (now: () => Date) =>
  z
    .strictObject(storedCardFields)
    .superRefine((card, ctx) => checkExpiry(card, now, ctx))
    .transform(({ number, ...card }) => ({ ...card, number: new Secret(number) }));

function checkExpiry(card: { expMonth: number; expYear: number }, now: () => Date, ctx: z.RefinementCtx): void {
  // Refinements still run after an out-of-range month or year; the expiry means nothing then.
  if (!expiryInRange(card.expMonth, card.expYear)) return;
  const today = now();
  if (isExpired(card.expMonth, card.expYear, today)) {
    const path = card.expYear < today.getUTCFullYear() ? "expYear" : "expMonth";
    ctx.addIssue({ code: "custom", path: [path], message: "the card has expired" });
  }
}

export type CardInput = z.infer<ReturnType<typeof cardSchema>>;
