import type { DeclineCode, ProcessorOutcome } from "./port.ts";

/** ISO 8583-style response codes, shared by every connector. */

export const APPROVED = "00";

const declines: Record<string, { declineCode: DeclineCode; message: string }> = {
  "05": { declineCode: "card_declined", message: "Do not honor" },
  "51": { declineCode: "insufficient_funds", message: "Insufficient funds" },
  "54": { declineCode: "expired_card", message: "Expired card" },
  N7: { declineCode: "incorrect_cvc", message: "CVC mismatch" },
};

/** What a processor said, in its own words, once a connector has picked the fields out. */
export interface ProcessorAnswer {
  code: string;
  message?: string | undefined;
  authorizationCode?: string | undefined;
  reference?: string | undefined;
}

const withReference = (reference: string | undefined) => (reference === undefined ? {} : { reference });

export function outcomeOf(answer: ProcessorAnswer): ProcessorOutcome {
  const { code, message, authorizationCode, reference } = answer;
  if (code === APPROVED) {
    // Money may have moved: an approval we cannot record in full is not a failure.
    if (!authorizationCode || !reference) {
      return { kind: "unknown", message: "The processor approved without an authorization code or reference." };
    }
    return { kind: "approved", code: APPROVED, message: message ?? "Approved", authorizationCode, reference };
  }
  const decline = declines[code];
  if (decline) {
    const { declineCode } = decline;
    return { kind: "declined", code, message: message ?? decline.message, declineCode, ...withReference(reference) };
  }
  // 96 and every code we do not know.
  const reason = "processor_error";
  return { kind: "failed", code, message: message ?? "Processor error", reason, ...withReference(reference) };
}

export const processorError = (code: string, message: string): ProcessorOutcome => ({
  kind: "failed",
  code,
  message,
  reason: "processor_error",
});

export const authenticationFailed = (code: string, message: string): ProcessorOutcome => ({
  kind: "failed",
  code,
  message,
  reason: "processor_authentication_failed",
});
