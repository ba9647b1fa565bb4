import { newId } from "../../ids.ts";
import type { PaymentContext } from "./dependencies.ts";
import { followUpRequest } from "./follow-up-request.ts";
import { payments } from "../streams.ts";
import { loadHostConfiguration } from "./host-configuration.ts";
import { sendAndRecord, type TransactionResult } from "./run-transaction.ts";

/** An approved authorization whose time to be captured has run out. */
export interface DueAuthorization {
  transactionId: string;
  paymentId: string;
  clientId: string;
  hostConfigurationId: string;
}

/**
 * Expires the authorization and voids what is left of it at the processor: the expiry and the
 * void's intent are one append, so across instances and restarts only one void is ever sent; a
 * crash before its answer leaves it pending for the resolver. Its host configuration is used
 * even if disabled since: the money it holds must be let go.
 */
export async function expireAuthorization(context: PaymentContext, due: DueAuthorization): Promise<TransactionResult> {
  const hostConfiguration = await loadHostConfiguration(context, due.hostConfigurationId);
  const voidTransactionId = newId();
  const expired = await payments.handle(
    context,
    due.paymentId,
    {
      type: "ExpireAuthorization",
      transactionId: due.transactionId,
      voidTransactionId,
      hostConfigurationVersion: hostConfiguration.view.version,
      now: context.now().toISOString(),
    },
  );
  if (!expired.ok) return expired;
  const request = followUpRequest(expired.state, voidTransactionId, hostConfiguration);
  return sendAndRecord(context, due.paymentId, { transactionId: voidTransactionId, clientId: due.clientId }, request, expired);
}
