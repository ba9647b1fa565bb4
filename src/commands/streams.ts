/**
 * Every stream kind the commands write, each with its handler bound once (`streamHandler`): its
 * decider, how an id names its stream, how it is read, and how a conflict is retried. Commands and
 * jobs write streams through these, never around them.
 */
import { clientDecider, clientStreamId } from "../domain/clients/decider.ts";
import { hostConfigurationDecider, hostConfigurationStreamId } from "../domain/host-configurations/decider.ts";
import { limitUsageDecider, limitUsageStreamId } from "../domain/limits/usage.ts";
import { paymentMethodDecider, paymentMethodStreamId } from "../domain/payment-methods/decider.ts";
import { paymentDecider, paymentStreamId } from "../domain/payments/index.ts";
import { settlementClaimDecider, settlementClaimStreamId } from "../domain/settlements/claim.ts";
import { settlementDecider } from "../domain/settlements/decider.ts";
import { settlementStreamId } from "../domain/settlements/events.ts";
import { webhookEndpointDecider, webhookEndpointStreamId } from "../domain/webhooks/endpoint.ts";
import { hotStreamRevisionConflict, streamRevisionConflict } from "../retry/policies.ts";
import { streamHandler } from "./stream-handler.ts";

/** A payment: its root transaction and every follow-up, written by racing requests and jobs at once. */
export const payments = streamHandler({ decider: paymentDecider, streamId: paymentStreamId, retryPolicy: hotStreamRevisionConflict, groupCommit: true });

/** A client's usage of its limits in a currency on a day, written by every sale of the client. */
export const limitUsage = streamHandler({
  decider: limitUsageDecider,
  streamId: ({ clientId, currency, day }: { clientId: string; currency: string; day: string }) => limitUsageStreamId(clientId, currency, day),
  retryPolicy: hotStreamRevisionConflict,
  groupCommit: true,
  lastEventOnly: true,
});

/** A stored card's payment method, used by racing payments while a deletion may come. */
export const paymentMethods = streamHandler({
  decider: paymentMethodDecider,
  streamId: paymentMethodStreamId,
  retryPolicy: hotStreamRevisionConflict,
  groupCommit: true,
  lastEventOnly: true,
});

export const clients = streamHandler({ decider: clientDecider, streamId: clientStreamId, retryPolicy: streamRevisionConflict });

export const hostConfigurations = streamHandler({ decider: hostConfigurationDecider, streamId: hostConfigurationStreamId, retryPolicy: streamRevisionConflict });

export const webhookEndpoints = streamHandler({
  decider: webhookEndpointDecider,
  streamId: webhookEndpointStreamId,
  retryPolicy: streamRevisionConflict,
  lastEventOnly: true,
});

/** A settlement batch: opened, its candidates in chunks, sealed, then closed or failed. */
export const settlements = streamHandler({ decider: settlementDecider, streamId: settlementStreamId, retryPolicy: streamRevisionConflict });

/** Which batch of a host configuration holds its claim (one batch of it at a time). */
export const settlementClaims = streamHandler({
  decider: settlementClaimDecider,
  streamId: settlementClaimStreamId,
  retryPolicy: streamRevisionConflict,
  lastEventOnly: true,
});
