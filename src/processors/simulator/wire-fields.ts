import { z } from "zod";

/** Field formats the simulated processors check on the messages they receive. */

export const digits = (length: number) => z.string().regex(new RegExp(`^[0-9]{${length}}$`));
export const digitsBetween = (min: number, max: number) => z.string().regex(new RegExp(`^[0-9]{${min},${max}}$`));
export const alphanumeric = (min: number, max: number) => z.string().regex(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));
export const hex10 = z.string().regex(/^[0-9A-F]{10}$/);
export const reference = z.string().min(1).max(64).regex(/^[\x21-\x7E]+$/);
export const currency = z.string().regex(/^[A-Z]{3}$/);
export const cardNumber = z.string().regex(/^[0-9]{12,19}$/);
export const cvc = z.string().regex(/^[0-9]{3,4}$/);
export const holderName = z.string().min(1).max(100);
/** Minor units; a void may carry zero. */
export const minorAmount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** MMYY or YYMM: four digits either way, checked loosely. */
export const fourDigitExpiry = digits(4);
