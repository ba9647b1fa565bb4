import type { CardDetails, Operation, ProcessorRequest } from "./port.ts";

/** Checks of the request's shape shared by connectors; a failure is a caller bug, so it throws. */

/** Expiry dates travel as two-digit months and years. */
export const twoDigits = (value: number) => String(value % 100).padStart(2, "0");

export const isFollowUp = (operation: Operation) => operation !== "authorization" && operation !== "sale";

export function cardOf(request: ProcessorRequest): CardDetails | undefined {
  if (isFollowUp(request.operation)) return undefined;
  if (!request.card) throw new Error(`An ${request.operation} needs a card.`);
  return request.card;
}

/** A follow-up's parent: our id, and the processor's reference from its approval when we have it. */
export interface ParentTransaction {
  transactionId: string;
  reference?: string;
}

export function parentOf(request: ProcessorRequest): ParentTransaction | undefined {
  if (!isFollowUp(request.operation)) return undefined;
  if (!request.parentTransactionId) throw new Error(`A ${request.operation} needs its parent transaction.`);
  return {
    transactionId: request.parentTransactionId,
    ...(request.parentProcessorReference === undefined ? {} : { reference: request.parentProcessorReference }),
  };
}
