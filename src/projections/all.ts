import { clientsProjection } from "./clients/clients-projection.ts";
import { hostConfigurationsProjection } from "./host-configurations/host-configurations-projection.ts";
import { journalProjection } from "./journal/journal-projection.ts";
import { paymentMethodsProjection } from "./payment-methods/payment-methods-projection.ts";
import { settlementsProjection } from "./settlements/settlements-projection.ts";
import { transactionsProjection } from "./transactions/transactions-projection.ts";
import { webhooksProjection } from "./webhooks/webhooks-projection.ts";

/** Every read model the service keeps up to date. */
export const projections = [
  clientsProjection,
  hostConfigurationsProjection,
  transactionsProjection,
  settlementsProjection,
  webhooksProjection,
  paymentMethodsProjection,
  journalProjection,
];
