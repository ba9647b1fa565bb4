import { z } from "zod";
import { cardBrands } from "../domain/cards.ts";

/** What the API shows of a card, on a transaction and on a payment method: never its number or CVC. */
export const cardSummarySchema = z.object({
  brand: z.enum(cardBrands),
  bin: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
  fingerprint: z.string(),
});
