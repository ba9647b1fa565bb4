import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { Operation } from "../port.ts";
import { cardBehaviour } from "./cards.ts";
import { newAuthorizationCode, newReference } from "./references.ts";

/** The simulated processors' memory: every transaction received, by processor and our transaction id. */

export interface SimulatedRequest {
  processor: Processor;
  operation: Operation;
  transactionId: string;
  /** Follow-ups: ids the parent may be known by, ours or the processor's reference. */
  parentIds?: readonly string[];
  amount: number;
  currency: string;
  cardNumber?: string;
}

export interface SimulatedAnswer {
  code: string;
  message: string;
  authorizationCode?: string;
  reference: string;
}

interface Recorded {
  operation: Operation;
  answer: SimulatedAnswer;
  voided: boolean;
}

const messages: Record<string, string> = {
  "00": "Approved",
  "05": "Do not honor",
  "12": "Invalid transaction",
  "14": "Invalid card number",
  "25": "Unable to locate original transaction",
  "51": "Insufficient funds",
  "54": "Expired card",
  N7: "CVV2 mismatch",
  "96": "System malfunction",
};

const allowedParents: Record<Operation, readonly Operation[]> = {
  authorization: [],
  sale: [],
  capture: ["authorization"],
  refund: ["sale", "capture"],
  void: ["authorization", "sale", "capture"],
};

export type Ledger = ReturnType<typeof createLedger>;

export function createLedger() {
  const byTransactionId = new Map<string, Recorded>();
  const byReference = new Map<string, Recorded>();
  const key = (processor: Processor, id: string) => `${processor}:${id}`;

  function findParent(processor: Processor, ids: readonly string[]): Recorded | undefined {
    for (const id of ids) {
      const found = byReference.get(key(processor, id)) ?? byTransactionId.get(key(processor, id));
      if (found) return found;
    }
    return undefined;
  }

  function decide(request: SimulatedRequest): { code: string; hold: boolean; parent?: Recorded } {
    if (request.operation === "authorization" || request.operation === "sale") {
      return cardBehaviour(request.cardNumber ?? "");
    }
    const parent = findParent(request.processor, request.parentIds ?? []);
    if (!parent) return { code: "25", hold: false };
    const usable =
      allowedParents[request.operation].includes(parent.operation) && parent.answer.code === "00" && !parent.voided;
    return { code: usable ? "00" : "12", hold: false, parent };
  }

  return {
    /** The answer to an operation, and whether to hold it back. A repeated transaction id gets its first answer. */
    process(request: SimulatedRequest): { answer: SimulatedAnswer; hold: boolean } {
      const seen = byTransactionId.get(key(request.processor, request.transactionId));
      if (seen) return { answer: seen.answer, hold: false };

      const { code, hold, parent } = decide(request);
      const answer: SimulatedAnswer = {
        code,
        message: messages[code] ?? "Error",
        reference: newReference(request.processor),
        ...(code === "00" ? { authorizationCode: newAuthorizationCode() } : {}),
      };
      const recorded: Recorded = { operation: request.operation, answer, voided: false };
      byTransactionId.set(key(request.processor, request.transactionId), recorded);
      byReference.set(key(request.processor, answer.reference), recorded);
      if (request.operation === "void" && code === "00" && parent) parent.voided = true;
      return { answer, hold };
    },

    find(processor: Processor, transactionId: string): SimulatedAnswer | undefined {
      return byTransactionId.get(key(processor, transactionId))?.answer;
    },
  };
}
