import type { CurrencyLimit } from "../../domain/limits/limits.ts";

/** A client's host configuration as the read model lists it: what choosing one for a payment needs. */
export interface HostConfigurationCandidate {
  host_configuration_id: string;
  processor: string;
  enabled: boolean;
  version: number;
  is_default: boolean;
}

/** What a client's payments are decided with, as the read models have it now. */
export interface PaymentSettings {
  limits: CurrencyLimit[];
  hostConfigurations: HostConfigurationCandidate[];
}

/**
 * A client's limits and host configurations, read across the client's and its configurations'
 * streams: the read side implements it (src/projections), and the service gives it at start.
 * None known: no limits and no configurations.
 */
export type PaymentSettingsOf = (clientId: string) => Promise<PaymentSettings>;
