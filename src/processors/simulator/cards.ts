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

export function passesLuhn(number: string): boolean {
  if (!/^[0-9]{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Every other number that passes Luhn is approved, 4242424242424242 and friends included. */
export function cardBehaviour(number: string): CardBehaviour {
  return behaviours[number] ?? { code: passesLuhn(number) ? "00" : "14", hold: false };
}
