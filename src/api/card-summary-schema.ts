import { z } from "zod";
import { cardBrands } from "../domain/cards.ts";

/** What the API shows of a card, on a transaction and on a payment method: never its number or CVC. */
export const cardSummarySchema = z.object({
  brand: z.enum(cardBrands),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  fingerprint: z
    .string()
    .optional()
    .describe("A keyed hash of the whole number, `fp_<key id>_…`: the same card under the same key has the same one. Absent on a transaction paid with a payment method (the method has it)."),
});
