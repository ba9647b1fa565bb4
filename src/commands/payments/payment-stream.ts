import { type PaymentCommand, type PaymentEvent, paymentDecider, type PaymentFailure, type PaymentState, paymentStreamId } from "../../domain/payments/index.ts";
import type { EventStore, ReadStreamOptions, RecordedEvent } from "../../eventstore/port.ts";
import { narrowEvents, type Recorded, readEvents } from "../../eventstore/typed-read.ts";
import { fold } from "../../domain/decider.ts";
import type { CommandContext } from "../context.ts";
import type { BatchedOptions } from "../execute-batched.ts";
import { type EventMetadata, type Execution, type KnownStream, readStream } from "../execute.ts";

/** A payment's stream folded: its state and last event (none while it is empty). */
export function readPayment(context: Pick<CommandContext, "store">, paymentId: string): Promise<KnownStream<PaymentState>> {
  return readStream(context.store, paymentDecider, paymentStreamId(paymentId), false);
}

/** A payment's events, typed. */
export function readPaymentEvents(store: Pick<EventStore, "readStream">, paymentId: string, options?: ReadStreamOptions): Promise<Recorded<PaymentEvent>[]> {
  return readEvents(store, paymentDecider.isEvent, paymentStreamId(paymentId), options);
}

/** A payment's stream as `EventStore.readStreams` returned it, folded. */
export function knownPayment(paymentId: string, history: readonly RecordedEvent[]): KnownStream<PaymentState> {
  const events = narrowEvents(paymentDecider.isEvent, paymentStreamId(paymentId), history);
  return { state: fold(paymentDecider, events), tip: events.at(-1) };
}

export interface PaymentExecution extends BatchedOptions<PaymentState> {
  /** Recorded with the events besides the context's. */
  metadata?: EventMetadata;
}

/**
 * Decides the command on the payment's stream and appends its events with the context's metadata,
 * grouped with the commands racing it in this service (`GroupCommits`).
 */
export function executePayment(
  context: Pick<CommandContext, "metadata" | "registries">,
  paymentId: string,
  command: PaymentCommand,
  { metadata, ...options }: PaymentExecution = {},
): Promise<Execution<PaymentState, PaymentEvent, PaymentFailure>> {
  const recorded = metadata ? { ...context.metadata, ...metadata } : context.metadata;
  return context.registries.groupCommits.execute(paymentDecider, paymentStreamId(paymentId), command, recorded, options);
}
