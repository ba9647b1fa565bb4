import type { SettlementTotals } from "../domain/settlements/totals.ts";
import type { UnusableCredentials } from "./credentials.ts";
import type { HttpResult } from "./http.ts";
import type { BatchCloseOutcome, InquiryOutcome, ProcessorOutcome } from "./port.ts";
import { APPROVED, authenticationFailed, outcomeOf, type ProcessorAnswer, processorError } from "./response-codes.ts";

/** How to read one processor's bodies. */
export interface AnswerReader {
  /** The answer in a 2xx body; `undefined` when the body is not one. */
  answer(body: unknown): ProcessorAnswer | undefined;
  /**
   * Whether a 404 body is the processor's own "no such transaction", not a 404 from a wrong URL
   * or a proxy, which would otherwise pass for proof that the processor never saw it.
   */
  notFound(body: unknown): boolean;
}

/** The outcome of a submitted operation, from whatever HTTP gave back. */
export function submitOutcome(result: HttpResult, read: AnswerReader): ProcessorOutcome {
  switch (result.kind) {
    case "not_sent":
      // The connection was never made: the processor cannot have acted, so this is a plain failure.
      return processorError("connection_failed", `The processor could not be reached (${result.code}).`);
    case "no_answer":
      return { kind: "unknown", message: `The processor gave no answer (${result.code}).` };
    case "answered":
      return answeredOutcome(result.status, result.body, read);
  }
}

function answeredOutcome(status: number, body: unknown, read: AnswerReader): ProcessorOutcome {
  if (status === 401 || status === 403) {
    return authenticationFailed(`http_${status}`, "The processor rejected the host configuration's credentials.");
  }
  // The request got in: a 5xx (a gateway timing out, a crash half way) may come after the
  // processor passed it on to the issuer, so only an inquiry can tell what happened.
  if (status >= 500) return { kind: "unknown", message: `The processor answered HTTP ${status}.` };
  // Any other refusal of the message proves nothing was done.
  if (status < 200 || status >= 300) {
    return processorError(`http_${status}`, `The processor answered HTTP ${status}.`);
  }
  const answer = read.answer(body);
  // An answer we cannot read may still be an approval.
  if (!answer) return { kind: "unknown", message: "The processor's answer could not be read." };
  return outcomeOf(answer);
}

/**
 * The outcome of an inquiry. Anything but a readable record or a clear "not found" leaves the
 * transaction as unknown as it was: a failed inquiry says nothing about the transaction.
 */
export function inquiryOutcome(result: HttpResult, read: AnswerReader): InquiryOutcome {
  if (result.kind !== "answered") {
    return { kind: "unknown", message: `The processor could not be asked (${result.code}).` };
  }
  if (result.status === 404 && read.notFound(result.body)) return { kind: "not_found" };
  if (result.status < 200 || result.status >= 300) {
    return { kind: "unknown", message: `The processor's status inquiry answered HTTP ${result.status}.` };
  }
  const answer = read.answer(result.body);
  if (!answer) return { kind: "unknown", message: "The processor's status answer could not be read." };
  return outcomeOf(answer);
}

/** What a processor said to a batch close, once a connector has picked the fields out. */
export interface BatchAnswer {
  code: string;
  message?: string | undefined;
  /** In minor units; absent when the processor did not count the batch. */
  totals?: SettlementTotals[] | undefined;
  /** Our ids of the transactions it settled in the batch; absent when it did not count it. */
  transactionIds?: string[] | undefined;
}

/**
 * The outcome of a batch close. Anything that may have reached the processor without a readable
 * answer is `unknown`: closing again under the same settlement id tells what it counted.
 */
export function batchCloseOutcome(result: HttpResult, read: (body: unknown) => BatchAnswer | undefined): BatchCloseOutcome {
  if (result.kind !== "answered") {
    return { kind: "unknown", message: `The processor could not be reached or gave no answer (${result.code}).` };
  }
  const { status, body } = result;
  if (status === 401 || status === 403) {
    return { kind: "refused", message: "The processor rejected the host configuration's credentials." };
  }
  if (status >= 400 && status < 500) return { kind: "refused", message: `The processor answered HTTP ${status}.` };
  if (status < 200 || status >= 300) return { kind: "unknown", message: `The processor answered HTTP ${status}.` };
  const answer = read(body);
  if (!answer) return { kind: "unknown", message: "The processor's batch close answer could not be read." };
  if (answer.code !== APPROVED) {
    return { kind: "refused", message: answer.message ?? `The processor refused the batch close (${answer.code}).` };
  }
  if (!answer.totals || !answer.transactionIds) {
    return { kind: "unknown", message: "The processor closed the batch without its totals and what it settled." };
  }
  return { kind: "closed", totals: answer.totals, transactionIds: answer.transactionIds };
}

/** The host configuration's credentials are absent or cannot be sent (`CredentialsReader`): nothing was sent. */
export const unusableCredentials = {
  submit: ({ field, problem }: UnusableCredentials): ProcessorOutcome =>
    authenticationFailed("credentials_unusable", `The host configuration's ${field} ${problem}: nothing was sent to the processor.`),
  inquiry: ({ field, problem }: UnusableCredentials): InquiryOutcome => ({
    kind: "unknown",
    message: `The host configuration's ${field} ${problem}: the processor could not be asked.`,
  }),
  batchClose: ({ field, problem }: UnusableCredentials): BatchCloseOutcome => ({
    kind: "refused",
    message: `The host configuration's ${field} ${problem}: nothing was sent to the processor.`,
  }),
};
