import { isCardNumberFormat, passesLuhn } from "../../domain/cards.ts";

/** The simulator's test cards (API.md): what a card number does to an authorization or a sale. */

export interface CardBehaviour {
  code: string;
  /** Answer later than any connector waits, as a processor that is slow to respond. */
  hold: boolean;
}

const behaviours: Record<string, CardBehaviour> = {
  "4000000000000002": { code: "05", hold: false },
  "4000000000009995": { code: "51", hold: false },
  "4000000000000069": { code: "54", hold: false },
  "4000000000000127": { code: "N7", hold: false },
  "4000000000000119": { code: "96", hold: false },
  // Approved all the same: asked later, the processor reports it approved.
  "4000000000000408": { code: "00", hold: true },
};

/** Every other number that passes Luhn is approved, 4242424242424242 and friends included. */
export function cardBehaviour(number: string): CardBehaviour {
  return behaviours[number] ?? { code: isCardNumberFormat(number) && passesLuhn(number) ? "00" : "14", hold: false };
}
