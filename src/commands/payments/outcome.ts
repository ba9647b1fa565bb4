import type { Outcome } from "../../domain/payments/index.ts";
import type { ProcessorOutcome } from "../../processors/port.ts";

/** The processor's answer as the payment records it; `null` when there was none (stays pending). */
export function outcomeToRecord(answer: ProcessorOutcome): Outcome | null {
  switch (answer.kind) {
    case "approved":
      return {
        status: "approved",
        processorResponse: {
          code: answer.code,
          message: answer.message,
          authorizationCode: answer.authorizationCode,
          reference: answer.reference,
        },
      };
    case "declined":
      return {
        status: "declined",
        declineCode: answer.declineCode,
        processorResponse: { code: answer.code, message: answer.message, authorizationCode: null, reference: answer.reference ?? null },
      };
    case "failed":
      return {
        status: "failed",
        reason: answer.reason,
        processorResponse: { code: answer.code, message: answer.message, authorizationCode: null, reference: answer.reference ?? null },
      };
    case "unknown":
      return null;
  }
}
