import { isCardNumberFormat, passesLuhn } from "../../domain/cards.ts";

/** The simulator's test cards (API.md): what a card number does to an authorization or a sale. */

export interface CardBehaviour {
  code: string;
  /** Answer later than any connector waits, as a processor that is slow to respond. */
  hold: boolean;
  /** How many inquiries about it answer "not found" before the processor admits to it. */
  notFoundInquiries: number;
}

const answered = (code: string): CardBehaviour => ({ code, hold: false, notFoundInquiries: 0 });

const behaviours: Record<string, CardBehaviour> = {
  "4000000000000002": answered("05"),
  "4000000000009995": answered("51"),
  "4000000000000069": answered("54"),
  "4000000000000127": answered("N7"),
  "4000000000000119": answered("96"),
  // Approved all the same: asked later, the processor reports it approved.
  "4000000000000408": { code: "00", hold: true, notFoundInquiries: 0 },
  // Approved too, but the processor's search lags: the first two inquiries do not find it.
  "4000000000000424": { code: "00", hold: true, notFoundInquiries: 2 },
};

/** Every other number that passes Luhn is approved, 4242424242424242 and friends included. */
export function cardBehaviour(number: string): CardBehaviour {
  return behaviours[number] ?? answered(isCardNumberFormat(number) && passesLuhn(number) ? "00" : "14");
}
