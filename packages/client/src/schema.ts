// Generated from the service's OpenAPI document by `npm run client:generate`: do not edit.

export interface paths {
    "/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Links to the API, its reference, health, metrics and the console */
        get: operations["getServiceIndex"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Links to the API's reference and its main resources
         * @description Every other operation under `/v1` needs `Authorization: Bearer <api key>`.
         */
        get: operations["getApiIndex"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: every read model table and the event store answer
         * @description 503 while one does not: a load balancer sends this instance no traffic meanwhile.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit/checkpoint-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The checkpoint public keys, for anyone: no API key
         * @description The same list as `GET /v1/audit/checkpoint-keys`, published for auditors who hold no API key: every public key that signs or signed the service's chain checkpoints, oldest first (a rotated key stays). Public keys only, never a secret. Empty while checkpoints are off (CHECKPOINT_INTERVAL_SECONDS unset).
         */
        get: operations["getPublishedCheckpointKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description The service's metrics in the Prometheus text format, or in OpenMetrics to `Accept: application/openmetrics-text` (Prometheus asks for it by default): with tracing on, the latency histograms' buckets carry exemplars, the trace and span of an observation. Reading them costs the database nothing: the gauges that need it are read at a fixed interval (`database_gauges_age_seconds` says how long ago). When the service runs with `METRICS_TOKEN`, the request must carry `Authorization: Bearer <METRICS_TOKEN>`; otherwise 401 `invalid_credentials`.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who the calling key is: the admin, or a client and which of its keys
         * @description A client key learns its client id here, to read its own client (`GET /v1/clients/{clientId}`: limits and today's usage).
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Clients, newest first
         * @description **Who may call:** the admin key.
         */
        get: operations["listClients"];
        put?: never;
        /**
         * Create a client
         * @description **Who may call:** the admin key.
         */
        post: operations["createClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{clientId}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A client's API keys, newest first, revoked ones included (never the keys themselves)
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key for a client
         * @description The key is shown only in this answer: store it now. A replay of this request answers `key: null`. `name` is optional (1 to 100 printable characters, trimmed; null when none).
         *
         *     **Who may call:** the admin key.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a client
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getClient"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{clientId}/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace a client's transaction limits (per currency; absent fields are unlimited; UTC days)
         * @description Authorizations and sales count toward the limits; a declined, failed or voided one gives its amount back. Limits hold exactly under concurrency: of many simultaneous requests, those that fit are approved and the rest get 402 `limit_exceeded`.
         *
         *     **Who may call:** the admin key.
         */
        put: operations["replaceClientLimits"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clients/{clientId}/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key at once
         * @description The key stops working at once, on every instance.
         *
         *     **Who may call:** the admin key.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_a": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List processor_a host configurations, newest first
         * @description Client keys see their own; admin keys may name a client with `clientId`.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listProcessorAHostConfigurations"];
        put?: never;
        /**
         * Create a processor_a host configuration
         * @description | processor | merchant (? optional) | settings (besides settlementTime, timeZone) | credentials |
         *     |---|---|---|---|
         *     | processor_a | `merchantNumber` 12 digits; `acquirerBin` 6 digits; `amexSeNumber`? 10 digits | `agentBank` 6 digits; `agentChain` 6 digits; `storeNumber` 4 digits; `terminalNumber` 4 digits; `terminalId` 8 digits; `mcc` 4 digits; `mvv`? 10 hex (0-9A-F); `industryCode`? one of D F G R | none |
         *     | processor_b | `merchantId` 1-16 alphanumeric; `groupId` 5-13 alphanumeric; `tppId` 6 alphanumeric; `amexSeNumber`? 1-15 alphanumeric | `terminalId` 1-8 alphanumeric; `mcc` 4 digits; `mvv`? 1-10 digits | `datawireId` 20 digits |
         *     | processor_c | `platformBin` `000001` or `000002`; `merchantId` 6 digits when the BIN is `000001`, 12 when `000002`; `amexSeNumber`? 10 digits | `terminalId` 3 digits (default `001`); `clientNumber`? 4 digits; `storeNumber`? 4 digits | `username`, `password` |
         *     | processor_d | `acquirerBin` 6 digits; `merchantId` 1-15 alphanumeric; `acquiringInstitutionId`? 1-11 digits; `amexSeNumber`? 10 digits | `terminalId` 8-16 alphanumeric; `terminalNumber`? 4 digits; `mcc`? 4 digits; `mvv`? 10 hex | `secretApiKey` |
         *
         *     `settlementTime` is `HH:MM` (24 h) in the IANA `timeZone`: the configuration's settlement batch closes then, every day.
         *     `customProperties`: at most 50 string pairs, keys `^[a-z][a-z0-9_]{0,63}$`, values up to 500 characters. Identifiers are
         *     strings (leading zeros matter). Credentials are write-only: encrypted at rest, never returned (`credentials: { "configured": true }`
         *     stands in their place) and never logged.
         *
         *     **Who may call:** the admin key.
         */
        post: operations["createProcessorAHostConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_a/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a processor_a host configuration
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getProcessorAHostConfiguration"];
        /**
         * Replace a processor_a host configuration (credentials left out are kept)
         * @description A full replacement; `credentials` left out keeps the stored ones. Send the `etag` you read as `If-Match`
         *     to refuse the change (412 `version_conflict`) when someone changed the configuration since.
         *
         *     | processor | merchant (? optional) | settings (besides settlementTime, timeZone) | credentials |
         *     |---|---|---|---|
         *     | processor_a | `merchantNumber` 12 digits; `acquirerBin` 6 digits; `amexSeNumber`? 10 digits | `agentBank` 6 digits; `agentChain` 6 digits; `storeNumber` 4 digits; `terminalNumber` 4 digits; `terminalId` 8 digits; `mcc` 4 digits; `mvv`? 10 hex (0-9A-F); `industryCode`? one of D F G R | none |
         *     | processor_b | `merchantId` 1-16 alphanumeric; `groupId` 5-13 alphanumeric; `tppId` 6 alphanumeric; `amexSeNumber`? 1-15 alphanumeric | `terminalId` 1-8 alphanumeric; `mcc` 4 digits; `mvv`? 1-10 digits | `datawireId` 20 digits |
         *     | processor_c | `platformBin` `000001` or `000002`; `merchantId` 6 digits when the BIN is `000001`, 12 when `000002`; `amexSeNumber`? 10 digits | `terminalId` 3 digits (default `001`); `clientNumber`? 4 digits; `storeNumber`? 4 digits | `username`, `password` |
         *     | processor_d | `acquirerBin` 6 digits; `merchantId` 1-15 alphanumeric; `acquiringInstitutionId`? 1-11 digits; `amexSeNumber`? 10 digits | `terminalId` 8-16 alphanumeric; `terminalNumber`? 4 digits; `mcc`? 4 digits; `mvv`? 10 hex | `secretApiKey` |
         *
         *     `settlementTime` is `HH:MM` (24 h) in the IANA `timeZone`: the configuration's settlement batch closes then, every day.
         *     `customProperties`: at most 50 string pairs, keys `^[a-z][a-z0-9_]{0,63}$`, values up to 500 characters. Identifiers are
         *     strings (leading zeros matter). Credentials are write-only: encrypted at rest, never returned (`credentials: { "configured": true }`
         *     stands in their place) and never logged.
         *
         *     **Who may call:** the admin key.
         */
        put: operations["replaceProcessorAHostConfiguration"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_a/{id}/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Make a processor_a host configuration its client's default for processor_a
         * @description Payments of the client that name no hostConfigurationId run on the default. No body. Choosing the current default again changes nothing. A disabled configuration cannot be chosen: 422 `host_configuration_disabled`.
         *
         *     With one enabled configuration for a processor, payments that name no `hostConfigurationId` use it; with several, they use the default, and answer 422 `host_configuration_ambiguous` while none is chosen.
         *
         *     **Who may call:** the admin key.
         */
        put: operations["setDefaultProcessorAHostConfiguration"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_a/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every version of a processor_a host configuration, oldest first
         * @description Versions are the configuration's own history: whether it is the default is its client's choice, not part of a version.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listProcessorAHostConfigurationVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_b": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List processor_b host configurations, newest first
         * @description Client keys see their own; admin keys may name a client with `clientId`.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listProcessorBHostConfigurations"];
        put?: never;
        /**
         * Create a processor_b host configuration
         * @description | processor | merchant (? optional) | settings (besides settlementTime, timeZone) | credentials |
         *     |---|---|---|---|
         *     | processor_a | `merchantNumber` 12 digits; `acquirerBin` 6 digits; `amexSeNumber`? 10 digits | `agentBank` 6 digits; `agentChain` 6 digits; `storeNumber` 4 digits; `terminalNumber` 4 digits; `terminalId` 8 digits; `mcc` 4 digits; `mvv`? 10 hex (0-9A-F); `industryCode`? one of D F G R | none |
         *     | processor_b | `merchantId` 1-16 alphanumeric; `groupId` 5-13 alphanumeric; `tppId` 6 alphanumeric; `amexSeNumber`? 1-15 alphanumeric | `terminalId` 1-8 alphanumeric; `mcc` 4 digits; `mvv`? 1-10 digits | `datawireId` 20 digits |
         *     | processor_c | `platformBin` `000001` or `000002`; `merchantId` 6 digits when the BIN is `000001`, 12 when `000002`; `amexSeNumber`? 10 digits | `terminalId` 3 digits (default `001`); `clientNumber`? 4 digits; `storeNumber`? 4 digits | `username`, `password` |
         *     | processor_d | `acquirerBin` 6 digits; `merchantId` 1-15 alphanumeric; `acquiringInstitutionId`? 1-11 digits; `amexSeNumber`? 10 digits | `terminalId` 8-16 alphanumeric; `terminalNumber`? 4 digits; `mcc`? 4 digits; `mvv`? 10 hex | `secretApiKey` |
         *
         *     `settlementTime` is `HH:MM` (24 h) in the IANA `timeZone`: the configuration's settlement batch closes then, every day.
         *     `customProperties`: at most 50 string pairs, keys `^[a-z][a-z0-9_]{0,63}$`, values up to 500 characters. Identifiers are
         *     strings (leading zeros matter). Credentials are write-only: encrypted at rest, never returned (`credentials: { "configured": true }`
         *     stands in their place) and never logged.
         *
         *     **Who may call:** the admin key.
         */
        post: operations["createProcessorBHostConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_b/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a processor_b host configuration
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getProcessorBHostConfiguration"];
        /**
         * Replace a processor_b host configuration (credentials left out are kept)
         * @description A full replacement; `credentials` left out keeps the stored ones. Send the `etag` you read as `If-Match`
         *     to refuse the change (412 `version_conflict`) when someone changed the configuration since.
         *
         *     | processor | merchant (? optional) | settings (besides settlementTime, timeZone) | credentials |
         *     |---|---|---|---|
         *     | processor_a | `merchantNumber` 12 digits; `acquirerBin` 6 digits; `amexSeNumber`? 10 digits | `agentBank` 6 digits; `agentChain` 6 digits; `storeNumber` 4 digits; `terminalNumber` 4 digits; `terminalId` 8 digits; `mcc` 4 digits; `mvv`? 10 hex (0-9A-F); `industryCode`? one of D F G R | none |
         *     | processor_b | `merchantId` 1-16 alphanumeric; `groupId` 5-13 alphanumeric; `tppId` 6 alphanumeric; `amexSeNumber`? 1-15 alphanumeric | `terminalId` 1-8 alphanumeric; `mcc` 4 digits; `mvv`? 1-10 digits | `datawireId` 20 digits |
         *     | processor_c | `platformBin` `000001` or `000002`; `merchantId` 6 digits when the BIN is `000001`, 12 when `000002`; `amexSeNumber`? 10 digits | `terminalId` 3 digits (default `001`); `clientNumber`? 4 digits; `storeNumber`? 4 digits | `username`, `password` |
         *     | processor_d | `acquirerBin` 6 digits; `merchantId` 1-15 alphanumeric; `acquiringInstitutionId`? 1-11 digits; `amexSeNumber`? 10 digits | `terminalId` 8-16 alphanumeric; `terminalNumber`? 4 digits; `mcc`? 4 digits; `mvv`? 10 hex | `secretApiKey` |
         *
         *     `settlementTime` is `HH:MM` (24 h) in the IANA `timeZone`: the configuration's settlement batch closes then, every day.
         *     `customProperties`: at most 50 string pairs, keys `^[a-z][a-z0-9_]{0,63}$`, values up to 500 characters. Identifiers are
         *     strings (leading zeros matter). Credentials are write-only: encrypted at rest, never returned (`credentials: { "configured": true }`
         *     stands in their place) and never logged.
         *
         *     **Who may call:** the admin key.
         */
        put: operations["replaceProcessorBHostConfiguration"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_b/{id}/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Make a processor_b host configuration its client's default for processor_b
         * @description Payments of the client that name no hostConfigurationId run on the default. No body. Choosing the current default again changes nothing. A disabled configuration cannot be chosen: 422 `host_configuration_disabled`.
         *
         *     With one enabled configuration for a processor, payments that name no `hostConfigurationId` use it; with several, they use the default, and answer 422 `host_configuration_ambiguous` while none is chosen.
         *
         *     **Who may call:** the admin key.
         */
        put: operations["setDefaultProcessorBHostConfiguration"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_b/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every version of a processor_b host configuration, oldest first
         * @description Versions are the configuration's own history: whether it is the default is its client's choice, not part of a version.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listProcessorBHostConfigurationVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_c": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List processor_c host configurations, newest first
         * @description Client keys see their own; admin keys may name a client with `clientId`.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listProcessorCHostConfigurations"];
        put?: never;
        /**
         * Create a processor_c host configuration
         * @description | processor | merchant (? optional) | settings (besides settlementTime, timeZone) | credentials |
         *     |---|---|---|---|
         *     | processor_a | `merchantNumber` 12 digits; `acquirerBin` 6 digits; `amexSeNumber`? 10 digits | `agentBank` 6 digits; `agentChain` 6 digits; `storeNumber` 4 digits; `terminalNumber` 4 digits; `terminalId` 8 digits; `mcc` 4 digits; `mvv`? 10 hex (0-9A-F); `industryCode`? one of D F G R | none |
         *     | processor_b | `merchantId` 1-16 alphanumeric; `groupId` 5-13 alphanumeric; `tppId` 6 alphanumeric; `amexSeNumber`? 1-15 alphanumeric | `terminalId` 1-8 alphanumeric; `mcc` 4 digits; `mvv`? 1-10 digits | `datawireId` 20 digits |
         *     | processor_c | `platformBin` `000001` or `000002`; `merchantId` 6 digits when the BIN is `000001`, 12 when `000002`; `amexSeNumber`? 10 digits | `terminalId` 3 digits (default `001`); `clientNumber`? 4 digits; `storeNumber`? 4 digits | `username`, `password` |
         *     | processor_d | `acquirerBin` 6 digits; `merchantId` 1-15 alphanumeric; `acquiringInstitutionId`? 1-11 digits; `amexSeNumber`? 10 digits | `terminalId` 8-16 alphanumeric; `terminalNumber`? 4 digits; `mcc`? 4 digits; `mvv`? 10 hex | `secretApiKey` |
         *
         *     `settlementTime` is `HH:MM` (24 h) in the IANA `timeZone`: the configuration's settlement batch closes then, every day.
         *     `customProperties`: at most 50 string pairs, keys `^[a-z][a-z0-9_]{0,63}$`, values up to 500 characters. Identifiers are
         *     strings (leading zeros matter). Credentials are write-only: encrypted at rest, never returned (`credentials: { "configured": true }`
         *     stands in their place) and never logged.
         *
         *     **Who may call:** the admin key.
         */
        post: operations["createProcessorCHostConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_c/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a processor_c host configuration
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getProcessorCHostConfiguration"];
        /**
         * Replace a processor_c host configuration (credentials left out are kept)
         * @description A full replacement; `credentials` left out keeps the stored ones. Send the `etag` you read as `If-Match`
         *     to refuse the change (412 `version_conflict`) when someone changed the configuration since.
         *
         *     | processor | merchant (? optional) | settings (besides settlementTime, timeZone) | credentials |
         *     |---|---|---|---|
         *     | processor_a | `merchantNumber` 12 digits; `acquirerBin` 6 digits; `amexSeNumber`? 10 digits | `agentBank` 6 digits; `agentChain` 6 digits; `storeNumber` 4 digits; `terminalNumber` 4 digits; `terminalId` 8 digits; `mcc` 4 digits; `mvv`? 10 hex (0-9A-F); `industryCode`? one of D F G R | none |
         *     | processor_b | `merchantId` 1-16 alphanumeric; `groupId` 5-13 alphanumeric; `tppId` 6 alphanumeric; `amexSeNumber`? 1-15 alphanumeric | `terminalId` 1-8 alphanumeric; `mcc` 4 digits; `mvv`? 1-10 digits | `datawireId` 20 digits |
         *     | processor_c | `platformBin` `000001` or `000002`; `merchantId` 6 digits when the BIN is `000001`, 12 when `000002`; `amexSeNumber`? 10 digits | `terminalId` 3 digits (default `001`); `clientNumber`? 4 digits; `storeNumber`? 4 digits | `username`, `password` |
         *     | processor_d | `acquirerBin` 6 digits; `merchantId` 1-15 alphanumeric; `acquiringInstitutionId`? 1-11 digits; `amexSeNumber`? 10 digits | `terminalId` 8-16 alphanumeric; `terminalNumber`? 4 digits; `mcc`? 4 digits; `mvv`? 10 hex | `secretApiKey` |
         *
         *     `settlementTime` is `HH:MM` (24 h) in the IANA `timeZone`: the configuration's settlement batch closes then, every day.
         *     `customProperties`: at most 50 string pairs, keys `^[a-z][a-z0-9_]{0,63}$`, values up to 500 characters. Identifiers are
         *     strings (leading zeros matter). Credentials are write-only: encrypted at rest, never returned (`credentials: { "configured": true }`
         *     stands in their place) and never logged.
         *
         *     **Who may call:** the admin key.
         */
        put: operations["replaceProcessorCHostConfiguration"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_c/{id}/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Make a processor_c host configuration its client's default for processor_c
         * @description Payments of the client that name no hostConfigurationId run on the default. No body. Choosing the current default again changes nothing. A disabled configuration cannot be chosen: 422 `host_configuration_disabled`.
         *
         *     With one enabled configuration for a processor, payments that name no `hostConfigurationId` use it; with several, they use the default, and answer 422 `host_configuration_ambiguous` while none is chosen.
         *
         *     **Who may call:** the admin key.
         */
        put: operations["setDefaultProcessorCHostConfiguration"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_c/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every version of a processor_c host configuration, oldest first
         * @description Versions are the configuration's own history: whether it is the default is its client's choice, not part of a version.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listProcessorCHostConfigurationVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_d": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List processor_d host configurations, newest first
         * @description Client keys see their own; admin keys may name a client with `clientId`.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listProcessorDHostConfigurations"];
        put?: never;
        /**
         * Create a processor_d host configuration
         * @description | processor | merchant (? optional) | settings (besides settlementTime, timeZone) | credentials |
         *     |---|---|---|---|
         *     | processor_a | `merchantNumber` 12 digits; `acquirerBin` 6 digits; `amexSeNumber`? 10 digits | `agentBank` 6 digits; `agentChain` 6 digits; `storeNumber` 4 digits; `terminalNumber` 4 digits; `terminalId` 8 digits; `mcc` 4 digits; `mvv`? 10 hex (0-9A-F); `industryCode`? one of D F G R | none |
         *     | processor_b | `merchantId` 1-16 alphanumeric; `groupId` 5-13 alphanumeric; `tppId` 6 alphanumeric; `amexSeNumber`? 1-15 alphanumeric | `terminalId` 1-8 alphanumeric; `mcc` 4 digits; `mvv`? 1-10 digits | `datawireId` 20 digits |
         *     | processor_c | `platformBin` `000001` or `000002`; `merchantId` 6 digits when the BIN is `000001`, 12 when `000002`; `amexSeNumber`? 10 digits | `terminalId` 3 digits (default `001`); `clientNumber`? 4 digits; `storeNumber`? 4 digits | `username`, `password` |
         *     | processor_d | `acquirerBin` 6 digits; `merchantId` 1-15 alphanumeric; `acquiringInstitutionId`? 1-11 digits; `amexSeNumber`? 10 digits | `terminalId` 8-16 alphanumeric; `terminalNumber`? 4 digits; `mcc`? 4 digits; `mvv`? 10 hex | `secretApiKey` |
         *
         *     `settlementTime` is `HH:MM` (24 h) in the IANA `timeZone`: the configuration's settlement batch closes then, every day.
         *     `customProperties`: at most 50 string pairs, keys `^[a-z][a-z0-9_]{0,63}$`, values up to 500 characters. Identifiers are
         *     strings (leading zeros matter). Credentials are write-only: encrypted at rest, never returned (`credentials: { "configured": true }`
         *     stands in their place) and never logged.
         *
         *     **Who may call:** the admin key.
         */
        post: operations["createProcessorDHostConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_d/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a processor_d host configuration
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getProcessorDHostConfiguration"];
        /**
         * Replace a processor_d host configuration (credentials left out are kept)
         * @description A full replacement; `credentials` left out keeps the stored ones. Send the `etag` you read as `If-Match`
         *     to refuse the change (412 `version_conflict`) when someone changed the configuration since.
         *
         *     | processor | merchant (? optional) | settings (besides settlementTime, timeZone) | credentials |
         *     |---|---|---|---|
         *     | processor_a | `merchantNumber` 12 digits; `acquirerBin` 6 digits; `amexSeNumber`? 10 digits | `agentBank` 6 digits; `agentChain` 6 digits; `storeNumber` 4 digits; `terminalNumber` 4 digits; `terminalId` 8 digits; `mcc` 4 digits; `mvv`? 10 hex (0-9A-F); `industryCode`? one of D F G R | none |
         *     | processor_b | `merchantId` 1-16 alphanumeric; `groupId` 5-13 alphanumeric; `tppId` 6 alphanumeric; `amexSeNumber`? 1-15 alphanumeric | `terminalId` 1-8 alphanumeric; `mcc` 4 digits; `mvv`? 1-10 digits | `datawireId` 20 digits |
         *     | processor_c | `platformBin` `000001` or `000002`; `merchantId` 6 digits when the BIN is `000001`, 12 when `000002`; `amexSeNumber`? 10 digits | `terminalId` 3 digits (default `001`); `clientNumber`? 4 digits; `storeNumber`? 4 digits | `username`, `password` |
         *     | processor_d | `acquirerBin` 6 digits; `merchantId` 1-15 alphanumeric; `acquiringInstitutionId`? 1-11 digits; `amexSeNumber`? 10 digits | `terminalId` 8-16 alphanumeric; `terminalNumber`? 4 digits; `mcc`? 4 digits; `mvv`? 10 hex | `secretApiKey` |
         *
         *     `settlementTime` is `HH:MM` (24 h) in the IANA `timeZone`: the configuration's settlement batch closes then, every day.
         *     `customProperties`: at most 50 string pairs, keys `^[a-z][a-z0-9_]{0,63}$`, values up to 500 characters. Identifiers are
         *     strings (leading zeros matter). Credentials are write-only: encrypted at rest, never returned (`credentials: { "configured": true }`
         *     stands in their place) and never logged.
         *
         *     **Who may call:** the admin key.
         */
        put: operations["replaceProcessorDHostConfiguration"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_d/{id}/default": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Make a processor_d host configuration its client's default for processor_d
         * @description Payments of the client that name no hostConfigurationId run on the default. No body. Choosing the current default again changes nothing. A disabled configuration cannot be chosen: 422 `host_configuration_disabled`.
         *
         *     With one enabled configuration for a processor, payments that name no `hostConfigurationId` use it; with several, they use the default, and answer 422 `host_configuration_ambiguous` while none is chosen.
         *
         *     **Who may call:** the admin key.
         */
        put: operations["setDefaultProcessorDHostConfiguration"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_d/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every version of a processor_d host configuration, oldest first
         * @description Versions are the configuration's own history: whether it is the default is its client's choice, not part of a version.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listProcessorDHostConfigurationVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/authorization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an authorization
         * @description Charges the card through the processor named, on `hostConfigurationId` or else the client's default enabled host configuration for
         *     that processor (its only enabled one, or the one made default with `PUT /v1/host-configurations/{processor}/{id}/default`).
         *     Holds the amount: capture it (in parts if you like) with `POST /v1/transactions/capture` within the authorization's lifetime
         *     (7 days by default), or release it with `POST /v1/transactions/void`. The card is `card`, or a stored one named by `paymentMethodId` (`POST /v1/payment-methods`), with an optional
         *     `cvc` beside it: exactly one of the two. A deleted payment method, or another client's, is 404 `not_found`. Approved: 201 with the transaction. Declined, failed and unknown outcomes answer their problem with the recorded
         *     transaction in `transaction`. Counts toward the client's limits (402 `limit_exceeded`, recorded as declined).
         *     The full card number, the CVC and the BIN are never stored, logged or returned: the transaction keeps its brand, last four,
         *     expiry and, for a card sent inline, a keyed fingerprint (a stored card's fingerprint stays with its payment method). A payment
         *     method stored for another `userId` is 422 `payment_method_user_mismatch`, and nothing is recorded or sent.
         *
         *     Test cards of the processor simulator (the processors used when none is configured): any future expiry; a CVC, when sent,
         *     of 3 digits (4 for American Express):
         *
         *     | card number | outcome |
         *     |---|---|
         *     | 4242424242424242, 5555555555554444, 378282246310005 | approved |
         *     | 4000000000000002 | declined: 402 `card_declined` (05) |
         *     | 4000000000009995 | declined: 402 `insufficient_funds` (51) |
         *     | 4000000000000069 | declined: 402 `expired_card` (54) |
         *     | 4000000000000127 | declined: 402 `incorrect_cvc` (N7) |
         *     | 4000000000000119 | processor error (96): 502 `processor_error`, transaction `failed` |
         *     | 4000000000000408 | no answer in time: 504 `processor_timeout`, transaction `pending`; asked later, the processor reports it approved |
         *     | 4000000000000424 | no answer in time; the first two inquiries answer "not found", later ones approved (the transaction ends `approved`) |
         *
         *     A `processor_c` host configuration whose password is `invalid-password`, or a `processor_d` one whose
         *     `secretApiKey` is `invalid-key`, is rejected by the simulator: 502 `processor_authentication_failed`.
         *
         *     **Who may call:** client keys (the admin key gets 403).
         */
        post: operations["createAuthorization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/sale": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a sale
         * @description Charges the card through the processor named, on `hostConfigurationId` or else the client's default enabled host configuration for
         *     that processor (its only enabled one, or the one made default with `PUT /v1/host-configurations/{processor}/{id}/default`).
         *     Authorizes and captures in one step. The card is `card`, or a stored one named by `paymentMethodId` (`POST /v1/payment-methods`), with an optional
         *     `cvc` beside it: exactly one of the two. A deleted payment method, or another client's, is 404 `not_found`. Approved: 201 with the transaction. Declined, failed and unknown outcomes answer their problem with the recorded
         *     transaction in `transaction`. Counts toward the client's limits (402 `limit_exceeded`, recorded as declined).
         *     The full card number, the CVC and the BIN are never stored, logged or returned: the transaction keeps its brand, last four,
         *     expiry and, for a card sent inline, a keyed fingerprint (a stored card's fingerprint stays with its payment method). A payment
         *     method stored for another `userId` is 422 `payment_method_user_mismatch`, and nothing is recorded or sent.
         *
         *     Test cards of the processor simulator (the processors used when none is configured): any future expiry; a CVC, when sent,
         *     of 3 digits (4 for American Express):
         *
         *     | card number | outcome |
         *     |---|---|
         *     | 4242424242424242, 5555555555554444, 378282246310005 | approved |
         *     | 4000000000000002 | declined: 402 `card_declined` (05) |
         *     | 4000000000009995 | declined: 402 `insufficient_funds` (51) |
         *     | 4000000000000069 | declined: 402 `expired_card` (54) |
         *     | 4000000000000127 | declined: 402 `incorrect_cvc` (N7) |
         *     | 4000000000000119 | processor error (96): 502 `processor_error`, transaction `failed` |
         *     | 4000000000000408 | no answer in time: 504 `processor_timeout`, transaction `pending`; asked later, the processor reports it approved |
         *     | 4000000000000424 | no answer in time; the first two inquiries answer "not found", later ones approved (the transaction ends `approved`) |
         *
         *     A `processor_c` host configuration whose password is `invalid-password`, or a `processor_d` one whose
         *     `secretApiKey` is `invalid-key`, is rejected by the simulator: 502 `processor_authentication_failed`.
         *
         *     **Who may call:** client keys (the admin key gets 403).
         */
        post: operations["createSale"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/capture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capture an authorization, in full or in part
         * @description `amount` left out captures all that is still capturable. Several partial captures may follow one another; their sum never exceeds the authorized amount. `final: true` releases what is left of the authorization at the processor once this capture is approved, exactly as a void of the authorization does: a `void` transaction whose `amount` is the rest. While a final capture is pending, nothing else can be captured.
         *
         *     **Who may call:** client keys (the admin key gets 403).
         */
        post: operations["createCapture"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a sale or capture, in full or in part
         * @description Refunds a sale or a capture. `amount` left out refunds all that is still refundable; the sum of refunds that did not fail never exceeds what was captured or sold, even under concurrency.
         *
         *     **Who may call:** client keys (the admin key gets 403).
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Void an authorization (with captures: release its uncaptured rest), or an unsettled sale or capture
         * @description Voids an authorization that is not expired and has something left to capture, or a sale or capture that is neither settled nor refunded; anything else is 409 `invalid_transaction_state`. A void of an authorization with captures releases only the uncaptured rest at the processor: the void's `amount` is that rest, the captures stay as they are, and the rest is given back to the client's limits. While a capture (or a capture's void) of the authorization is still pending, the rest is not known yet: 409, to retry once it is answered.
         *
         *     **Who may call:** client keys (the admin key gets 403).
         */
        post: operations["createVoid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a transaction; with asOf, its state at that moment, folded from its events
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payment methods, newest first
         * @description Client keys see their own; admin keys see every client's, or one client's with `clientId`. Deleted ones are not listed.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listPaymentMethods"];
        put?: never;
        /**
         * Store a card, to charge it later by id
         * @description Charge it later with `paymentMethodId` instead of `card` on `POST /v1/transactions/sale` or `/authorization`
         *     (a CVC, when needed, goes beside it there: it is never stored, so `card.cvc` is refused here). The number is kept only encrypted
         *     (AES-256-GCM) under a data key of this payment method's own, wrapped by the master keys and stored apart from the event log.
         *
         *     **Who may call:** client keys (the admin key gets 403).
         */
        post: operations["createPaymentMethod"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-methods/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payment method
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getPaymentMethod"];
        put?: never;
        post?: never;
        /**
         * Delete a payment method: its card number becomes unrecoverable
         * @description Erases the payment method's data key: from then on its card number can be recovered by no one, from no copy of the
         *     database or the event log. A payment that names it is 404 `not_found`; transactions made with it keep their card summary. A payment
         *     under way whose card is not yet decrypted is recorded `failed` (`payment_method_deleted`) before anything is sent, and answers 404.
         *
         *     **Who may call:** client keys (the admin key gets 403).
         */
        delete: operations["deletePaymentMethod"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payment-methods/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event stream of a payment method, oldest first: its creation, every use and its deletion
         * @description `PaymentMethodCreated.v1`, `PaymentMethodDeleted.v1` and, among them in log order, the intent (`TransactionInitiated.v1`, in the payment's stream) of every payment made with it, which names it: the record of its use (uses recorded before that are `PaymentMethodUsed.v1` events of its stream). Never the number; the card's ciphertext shows as `[encrypted]` (each event's `chain` is checked on the stored event, ciphertext included; `ledger export` carries it for offline checks).
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listPaymentMethodEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Transaction history, newest first, filtered
         * @description Client keys see their own transactions; admin keys see every client's, or one client's with `clientId`. `createdFrom` and `createdTo` are inclusive; a date alone means that whole UTC day.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transactions/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The event stream a transaction lives in (its payment's), oldest first
         * @description Each event carries its hash-chain link (`chain`), checked against the event before it as it is read: a link that does not verify is answered with `chain.status` broken and what was expected and found.
         *
         *     Each event carries who caused it, in which request, and its link in the stream's hash chain.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listTransactionEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The whole event log in global order, for exports and auditors
         * @description Pass `nextCursor` as `after` (or `cursor`) to resume right after the last event of a page. `nextCursor` is null once nothing new was read: keep the last cursor and ask again later for newer events. Each event carries its hash-chain link (`chain`), checked against the event before it in its stream as it is read: a link that does not verify is answered with `chain.status` broken and what was expected and found.
         *
         *     **Who may call:** the admin key.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit/checkpoint-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every public key that signs or signed the service's chain checkpoints, oldest first
         * @description An auditor keeps this list apart from the service and gives it to `ledger verify-export --checkpoints <file> --key <this list>`. A rotated key stays listed, so the checkpoints it signed still verify. Empty while checkpoints are off (CHECKPOINT_INTERVAL_SECONDS unset).
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listCheckpointKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_a/{id}/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a processor_a host configuration's settlement batch now
         * @description Takes every approved sale, capture and refund of the configuration not yet settled. 201 the batch once closed within `SETTLEMENT_SYNC_WAIT_MS`; otherwise 202 the same object in `status: "closing"` with a `location` header and field (`/v1/settlements/{id}`), and the close goes on. Nothing to take: 409 `nothing_to_settle`; another batch of the configuration still being closed: 409 `settlement_in_progress`; the processor refused the batch: 502 `processor_error`. The same request again with its `Idempotency-Key` answers that batch as it stands.
         *
         *     **Who may call:** the admin key.
         */
        post: operations["closeProcessorASettlementBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_b/{id}/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a processor_b host configuration's settlement batch now
         * @description Takes every approved sale, capture and refund of the configuration not yet settled. 201 the batch once closed within `SETTLEMENT_SYNC_WAIT_MS`; otherwise 202 the same object in `status: "closing"` with a `location` header and field (`/v1/settlements/{id}`), and the close goes on. Nothing to take: 409 `nothing_to_settle`; another batch of the configuration still being closed: 409 `settlement_in_progress`; the processor refused the batch: 502 `processor_error`. The same request again with its `Idempotency-Key` answers that batch as it stands.
         *
         *     **Who may call:** the admin key.
         */
        post: operations["closeProcessorBSettlementBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_c/{id}/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a processor_c host configuration's settlement batch now
         * @description Takes every approved sale, capture and refund of the configuration not yet settled. 201 the batch once closed within `SETTLEMENT_SYNC_WAIT_MS`; otherwise 202 the same object in `status: "closing"` with a `location` header and field (`/v1/settlements/{id}`), and the close goes on. Nothing to take: 409 `nothing_to_settle`; another batch of the configuration still being closed: 409 `settlement_in_progress`; the processor refused the batch: 502 `processor_error`. The same request again with its `Idempotency-Key` answers that batch as it stands.
         *
         *     **Who may call:** the admin key.
         */
        post: operations["closeProcessorCSettlementBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/host-configurations/processor_d/{id}/settle": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a processor_d host configuration's settlement batch now
         * @description Takes every approved sale, capture and refund of the configuration not yet settled. 201 the batch once closed within `SETTLEMENT_SYNC_WAIT_MS`; otherwise 202 the same object in `status: "closing"` with a `location` header and field (`/v1/settlements/{id}`), and the close goes on. Nothing to take: 409 `nothing_to_settle`; another batch of the configuration still being closed: 409 `settlement_in_progress`; the processor refused the batch: 502 `processor_error`. The same request again with its `Idempotency-Key` answers that batch as it stands.
         *
         *     **Who may call:** the admin key.
         */
        post: operations["closeProcessorDSettlementBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements/{id}/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The transactions a settlement batch settled, newest first
         * @description While the batch closes, those settled so far.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listSettlementTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Settlement batches of every status, newest first, filtered
         * @description Client keys see their own batches; admin keys see every client's, or one client's with `clientId`. Newest first by when each batch opened, `closing` and `failed` ones included.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listSettlements"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/settlements/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A settlement batch
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getSettlement"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/journal/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Journal entries, newest first, filtered
         * @description Each entry balanced in one currency and naming the event that posted it. Client keys see their own; admin keys everyone's, or one client's with `clientId`.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listJournalEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/journal/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every account's balance, per client, processor and currency, as of a moment
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getJournalBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/journal/trial-balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Debits and credits per currency, as of a moment: they are equal
         * @description Each account's balance in the debit or the credit column, per currency, added up over the clients the key sees (admin: every client, or one with `clientId`).
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getJournalTrialBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Webhook endpoints, newest first
         * @description Client keys see their own; admin keys see every client's, or one client's with `clientId`.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Subscribe a URL to events
         * @description Client keys subscribe their own client; admin keys name the client with `clientId`.
         *
         *     Deliveries follow the Standard Webhooks specification (standardwebhooks.com): `POST <url>` with the headers
         *     `webhook-id` (the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature`
         *     (`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed with the base64-decoded secret after `whsec_`),
         *     and the body `{ "id", "type", "createdAt", "data": { "transaction" } }` (`data.settlement` for settlement events).
         *     A 2xx within 10 s is delivered; anything else is retried with exponential backoff for up to 3 days. The events of one
         *     transaction reach an endpoint in the order they happened. `secret` is shown only in this answer (a replay answers `null`).
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook endpoint (never its secret)
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint: nothing more is sent to it
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint's url, events, description or enabled
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the signing secret; the previous one keeps signing beside it for 24 hours
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        post: operations["rotateWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the endpoint one webhook.test message, signed and logged like any delivery
         * @description To that endpoint alone, whatever its `events`; its attempts are listed with the deliveries. A disabled endpoint gets it once enabled again.
         *
         *     The body is `{ "id", "type": "webhook.test", "createdAt", "data": { "endpointId" } }`, with the usual headers and
         *     signature. Another client's endpoint is 404.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        post: operations["testWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The endpoint's delivery attempts, newest first
         * @description **Who may call:** the admin key, or a client key for its own client's resources.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message again (same webhook-id), with a fresh retry schedule
         * @description Takes an attempt's `id` or its `deliveryId` from the deliveries list.
         *
         *     **Who may call:** the admin key, or a client key for its own client's resources.
         */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/operations/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Projection lag, pending transactions by age, the resolver's work, background jobs, webhook queue, reconciliation exceptions
         * @description **Who may call:** the admin key.
         */
        get: operations["getOperationsStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A public key that signs (or signed) checkpoints */
        CheckpointKey: {
            keyId: string;
            /** @constant */
            algorithm: "ed25519";
            publicKey: string;
            /** Format: date-time */
            publishedAt: string;
        };
        /** @description The event's hash-chain link, checked by the service as it read it */
        ChainCheck: {
            /** @description The event's stored hash (`metadata.chain.hash`); null when it has none */
            hash: string | null;
            /** @description The hash the event names as its predecessor's (`metadata.chain.previous`); null at revision 0 */
            previous: string | null;
            /**
             * @description verified: its content hashes to `hash` and `previous` is the stored hash of the event before it; broken: a link that does not verify, see `problems`; unchained: stored before hash chains existed, nothing to check
             * @enum {string}
             */
            status: "verified" | "broken" | "unchained";
            problems: {
                /**
                 * @description altered: its content does not hash to its stored hash (edited after it was recorded); link_mismatch: the predecessor's hash it names is not the stored hash of the event before it; predecessor_missing: the event before it (revision - 1) is not in the log (deleted or renumbered); link_removed: it carries no chain link though the event before it does; link_malformed: its chain link is not two hex SHA-256 hashes
                 * @enum {string}
                 */
                code: "altered" | "link_mismatch" | "predecessor_missing" | "link_removed" | "link_malformed";
                message: string;
                /** @description The hash the log should hold here, when it can be computed */
                expected: string | null;
                /** @description The hash the log holds here (null: none) */
                found: string | null;
            }[];
        };
        Event: {
            id: string;
            streamId: string;
            position: string;
            revision: number;
            type: string;
            occurredAt: string;
            recordedAt: string;
            data: {
                [key: string]: unknown;
            };
            metadata: {
                [key: string]: unknown;
            };
            chain: components["schemas"]["ChainCheck"];
        };
        Client: {
            /** Format: uuid */
            id: string;
            name: string;
            limits: {
                currency: string;
                maxAmountPerTransaction?: number;
                dailyAmount?: number;
                dailyCount?: number;
                today: {
                    date: string;
                    usedAmount: number;
                    usedCount: number;
                };
            }[];
            /** Format: date-time */
            createdAt: string;
        };
        ApiKey: {
            /** Format: uuid */
            id: string;
            /** @description Shown only in this response; only its hash is stored. A replay of the creation answers null. */
            key: string | null;
            /** @description What its admin called the key, to tell keys apart; null when unnamed. */
            name: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        ListedApiKey: {
            /** Format: uuid */
            id: string;
            /** @description The key's first characters (`ldgr_sk_` and four more), to tell keys apart; never the key. */
            prefix: string;
            /** @description What its admin called the key, to tell keys apart; null when unnamed. */
            name: string | null;
            /** Format: date-time */
            createdAt: string;
            revokedAt: string | null;
            /** @description When the key last authenticated a request, to within a minute; null until its first use. */
            lastUsedAt: string | null;
        };
        Caller: {
            /** @constant */
            role: "admin";
        } | {
            /** @constant */
            role: "client";
            /** Format: uuid */
            clientId: string;
            /** Format: uuid */
            keyId: string;
        };
        Transaction: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "authorization" | "capture" | "sale" | "refund" | "void";
            /** @enum {string} */
            status: "pending" | "approved" | "declined" | "failed";
            /** Format: uuid */
            clientId: string;
            userId: string;
            /** @enum {string} */
            processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
            /** Format: uuid */
            hostConfigurationId: string;
            amount: number;
            currency: string;
            parentTransactionId: string | null;
            card: {
                /** @enum {string} */
                brand: "visa" | "mastercard" | "amex" | "discover" | "unknown";
                last4: string;
                expMonth: number;
                expYear: number;
                /** @description A keyed hash of the whole number, `fp_<key id>_…`: the same card under the same key has the same one. Absent on a transaction paid with a payment method (the method has it). */
                fingerprint?: string;
            } | null;
            declineCode: ("card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc" | "limit_exceeded") | null;
            /** @description Why a failed transaction failed: processor_error, processor_authentication_failed (the host configuration's credentials), reversed (no answer in time: voided at the processor), not_found (the processor has no trace of it). */
            failureReason: ("processor_error" | "processor_authentication_failed" | "reversed" | "not_found" | "payment_method_deleted") | null;
            processorResponse: {
                code: string;
                message: string;
                authorizationCode: string | null;
                reference: string | null;
            } | null;
            capturedAmount: number;
            refundedAmount: number;
            voided: boolean;
            /** @description When its settlement batch took it to the processor; after that a sale or capture can no longer be voided. */
            settledAt: string | null;
            /** @description The settlement batch it went in (`GET /v1/settlements/{id}`). */
            settlementId: string | null;
            /** @description An authorization whose time to be captured ran out; what was left of it was voided. */
            expiredAt: string | null;
            /**
             * @description Where the transaction stands now, after everything done to it since (`status` is the outcome of the operation itself and never changes once final). Authorization: pending, declined, failed, authorized, partially_captured (captures so far, the rest still held), captured (nothing left held: all captured, or the rest released), voided, expired. Sale and capture: pending, declined, failed, succeeded, partially_refunded, refunded, voided. Refund and void: pending, declined, failed, succeeded.
             * @enum {string}
             */
            state: "pending" | "declined" | "failed" | "authorized" | "partially_captured" | "captured" | "expired" | "succeeded" | "partially_refunded" | "refunded" | "voided";
            /** @description The stored card it was made with (authorizations and sales); null for a card sent inline. */
            paymentMethodId: string | null;
            reference: string | null;
            metadata: {
                [key: string]: string;
            };
            createdAt: string;
            updatedAt: string;
        };
        JournalEntry: {
            /** Format: uuid */
            id: string;
            /**
             * @description The money movement that posted it.
             * @enum {string}
             */
            kind: "authorization_approved" | "sale_approved" | "capture_approved" | "refund_approved" | "authorization_voided" | "authorization_released" | "authorization_expired" | "sale_voided" | "capture_voided" | "late_approval" | "reversal" | "transaction_settled" | "settlement_difference";
            /** Format: uuid */
            clientId: string;
            /** @enum {string} */
            processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
            currency: string;
            /** @description The payment (its authorization's or sale's id) whose event posted it; null for a batch's difference. */
            paymentId: string | null;
            /** @description The transaction whose event posted it; null for a batch's difference. */
            transactionId: string | null;
            /** @description The batch that settled the transaction, or whose close posted the difference. */
            settlementId: string | null;
            /** @description When its event happened: what `asOf` compares. */
            occurredAt: string;
            /** Format: uuid */
            eventId: string;
            eventType: string;
            /** @description The event's position in the log (`GET /v1/events`). */
            eventPosition: string;
            /** @description Debits equal credits, in the entry's currency. */
            lines: {
                /** @enum {string} */
                account: "processor_receivable" | "sales" | "refunds" | "settled_funds" | "settlement_differences" | "holds" | "holds_offset";
                /** @enum {string} */
                processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
                currency: string;
                debit: number;
                credit: number;
            }[];
        };
        JournalBalance: {
            /** Format: uuid */
            clientId: string;
            /** @enum {string} */
            account: "processor_receivable" | "sales" | "refunds" | "settled_funds" | "settlement_differences" | "holds" | "holds_offset";
            /** @enum {string} */
            processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
            currency: string;
            /** @description Every debit posted to it. */
            debit: number;
            /** @description Every credit posted to it. */
            credit: number;
            /** @enum {string} */
            normalSide: "debit" | "credit";
            /** @description Debits less credits for a debit account, credits less debits for a credit account. */
            balance: number;
        };
        TrialBalance: {
            currency: string;
            /** @description The accounts' balances in the debit column. */
            debit: number;
            /** @description The accounts' balances in the credit column. */
            credit: number;
            /** @description Debits equal credits: always, unless the journal is broken. */
            balanced: boolean;
            accounts: {
                /** @enum {string} */
                account: "processor_receivable" | "sales" | "refunds" | "settled_funds" | "settlement_differences" | "holds" | "holds_offset";
                /** @enum {string} */
                processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
                debit: number;
                credit: number;
            }[];
        };
        OperationsStatus: {
            /** Format: date-time */
            checkedAt: string;
            projections: {
                projection: string;
                /** @description Global position of the newest event (a string: it may exceed 2^53). */
                headPosition: string | null;
                /** @description Global position of the last event the projection applied. */
                projectedPosition: string | null;
                /** @description 0 when caught up. */
                positionsBehind: string;
                secondsBehind: number;
            }[];
            pending: {
                byAge: {
                    "<1m": number;
                    "1m-10m": number;
                    "10m-1h": number;
                    ">=1h": number;
                };
                oldestSeconds: number;
            };
            resolver: {
                /** @description Transactions the pending resolver still has to ask about, reverse, or watch for a late approval. */
                owed: {
                    inquire: number;
                    reverse: number;
                    watch: number;
                };
                /** @description The resolver's most recent pass that did anything; null until one has. */
                lastPass: {
                    /**
                     * Format: date-time
                     * @description When the pass ended.
                     */
                    at: string;
                    /** @description Transactions by what the pass did: the outcome an inquiry recorded (`approved_late`: a failed one the processor approved after all), the result of a reversal, `still_pending` when the processor gave no usable answer, `errored` when resolving it failed (logged, tried again later). */
                    counts: {
                        approved: number;
                        declined: number;
                        failed: number;
                        approved_late: number;
                        reversed: number;
                        reversal_refused: number;
                        still_pending: number;
                        errored: number;
                    };
                } | null;
            };
            /** @description The leased background jobs: the pending resolver, the webhook dispatcher. */
            jobs: {
                name: string;
                /** @description An instance holds the job's lease now. */
                active: boolean;
                /**
                 * Format: date-time
                 * @description When an instance last took the lease (the resolver does on every pass).
                 */
                lastSeenAt: string;
                leaseExpiresAt: string | null;
            }[];
            webhooks: {
                pending: number;
                oldestSeconds: number;
            };
            settlements: {
                mismatched: number;
            };
        };
        PaymentMethod: {
            /** Format: uuid */
            id: string;
            /** @constant */
            type: "card";
            /** Format: uuid */
            clientId: string;
            card: {
                /** @enum {string} */
                brand: "visa" | "mastercard" | "amex" | "discover" | "unknown";
                last4: string;
                expMonth: number;
                expYear: number;
                /** @description A keyed hash of the whole number, `fp_<key id>_…`: the same card under the same key has the same one. Absent on a transaction paid with a payment method (the method has it). */
                fingerprint?: string;
            };
            userId: string;
            metadata: {
                [key: string]: string;
            };
            createdAt: string;
        };
        HostConfigurationVersion: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
            /** Format: uuid */
            clientId: string;
            name: string;
            enabled: boolean;
            credentials: {
                configured: boolean;
            };
            version: number;
            createdAt: string;
            updatedAt: string;
        } & {
            [key: string]: unknown;
        };
        HostConfiguration: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
            /** Format: uuid */
            clientId: string;
            name: string;
            enabled: boolean;
            credentials: {
                configured: boolean;
            };
            version: number;
            createdAt: string;
            updatedAt: string;
            /** @description Payments of this client and processor that name no hostConfigurationId run on it. */
            isDefault: boolean;
        } & {
            [key: string]: unknown;
        };
        Link: {
            href: string;
            title: string;
        };
        ServiceIndex: {
            name: string;
            links: {
                api: components["schemas"]["Link"];
                docs: components["schemas"]["Link"];
                openapi: components["schemas"]["Link"];
                live: components["schemas"]["Link"];
                ready: components["schemas"]["Link"];
                metrics: components["schemas"]["Link"];
                console: components["schemas"]["Link"];
                checkpointKeys: components["schemas"]["Link"];
            };
        };
        ApiIndex: {
            name: string;
            links: {
                service: components["schemas"]["Link"];
                docs: components["schemas"]["Link"];
                openapi: components["schemas"]["Link"];
                me: components["schemas"]["Link"];
                clients: components["schemas"]["Link"];
                transactions: components["schemas"]["Link"];
                settlements: components["schemas"]["Link"];
                webhookEndpoints: components["schemas"]["Link"];
                events: components["schemas"]["Link"];
                operationsStatus: components["schemas"]["Link"];
            };
        };
        Settlement: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clientId: string;
            /** @enum {string} */
            processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
            /** Format: uuid */
            hostConfigurationId: string;
            /** @description When it closed or failed; null while closing. */
            closedAt: string | null;
            /** @description The batch took what was made up to this moment. */
            cutoff: string;
            /**
             * @description `closing`: the processor is closing it; `mismatched`: the processor's totals differ from the ledger's; `failed`: the processor refused it, nothing in it settled.
             * @enum {string}
             */
            status: "closing" | "matched" | "mismatched" | "failed";
            /** @description The ledger's, per currency; `salesCount`/`salesAmount` count sales and captures. Empty until closed. */
            totals: {
                currency: string;
                salesCount: number;
                salesAmount: number;
                refundsCount: number;
                refundsAmount: number;
                netAmount: number;
            }[];
            /** @description The processor's own count of the same batch. Empty until closed. */
            processorTotals: {
                currency: string;
                salesCount: number;
                salesAmount: number;
                refundsCount: number;
                refundsAmount: number;
                netAmount: number;
            }[];
            /** @description The transactions it takes while closing; those it settled once closed. Paged at `/v1/settlements/{id}/transactions`. */
            transactionCount: number;
        };
        /** @description An event of the stream whose hash-chain link does not verify, as `/events` serves its `chain` */
        BrokenEvent: {
            id: string;
            streamId: string;
            revision: number;
            type: string;
            chain: components["schemas"]["ChainCheck"];
        };
        TransactionRead: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "authorization" | "capture" | "sale" | "refund" | "void";
            /** @enum {string} */
            status: "pending" | "approved" | "declined" | "failed";
            /** Format: uuid */
            clientId: string;
            userId: string;
            /** @enum {string} */
            processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
            /** Format: uuid */
            hostConfigurationId: string;
            amount: number;
            currency: string;
            parentTransactionId: string | null;
            card: {
                /** @enum {string} */
                brand: "visa" | "mastercard" | "amex" | "discover" | "unknown";
                last4: string;
                expMonth: number;
                expYear: number;
                /** @description A keyed hash of the whole number, `fp_<key id>_…`: the same card under the same key has the same one. Absent on a transaction paid with a payment method (the method has it). */
                fingerprint?: string;
            } | null;
            declineCode: ("card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc" | "limit_exceeded") | null;
            /** @description Why a failed transaction failed: processor_error, processor_authentication_failed (the host configuration's credentials), reversed (no answer in time: voided at the processor), not_found (the processor has no trace of it). */
            failureReason: ("processor_error" | "processor_authentication_failed" | "reversed" | "not_found" | "payment_method_deleted") | null;
            processorResponse: {
                code: string;
                message: string;
                authorizationCode: string | null;
                reference: string | null;
            } | null;
            capturedAmount: number;
            refundedAmount: number;
            voided: boolean;
            /** @description When its settlement batch took it to the processor; after that a sale or capture can no longer be voided. */
            settledAt: string | null;
            /** @description The settlement batch it went in (`GET /v1/settlements/{id}`). */
            settlementId: string | null;
            /** @description An authorization whose time to be captured ran out; what was left of it was voided. */
            expiredAt: string | null;
            /**
             * @description Where the transaction stands now, after everything done to it since (`status` is the outcome of the operation itself and never changes once final). Authorization: pending, declined, failed, authorized, partially_captured (captures so far, the rest still held), captured (nothing left held: all captured, or the rest released), voided, expired. Sale and capture: pending, declined, failed, succeeded, partially_refunded, refunded, voided. Refund and void: pending, declined, failed, succeeded.
             * @enum {string}
             */
            state: "pending" | "declined" | "failed" | "authorized" | "partially_captured" | "captured" | "expired" | "succeeded" | "partially_refunded" | "refunded" | "voided";
            /** @description The stored card it was made with (authorizations and sales); null for a card sent inline. */
            paymentMethodId: string | null;
            reference: string | null;
            metadata: {
                [key: string]: string;
            };
            createdAt: string;
            updatedAt: string;
            /** @description With `asOf` only: how many events of the transaction's stream have a hash-chain link that does not verify (0 when intact). The state was folded from the events as they are stored: when not 0, do not rely on it before `ledger verify` explains the break. */
            brokenLinks?: number;
            /** @description With `asOf` only: the events counted in `brokenLinks` */
            brokenEvents?: components["schemas"]["BrokenEvent"][];
        };
        WebhookEndpoint: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clientId: string;
            url: string;
            events: string[];
            description: string | null;
            enabled: boolean;
            /** @description Why the service disabled the endpoint: `deliveries_failing` (every delivery failed for 3 days) or `secret_undecryptable` (rotate the secret). Null otherwise. Enabling it again resumes delivery of what is owed. */
            disabledReason: ("deliveries_failing" | "secret_undecryptable") | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
        };
        WebhookEndpointWithSecret: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clientId: string;
            url: string;
            events: string[];
            description: string | null;
            enabled: boolean;
            /** @description Why the service disabled the endpoint: `deliveries_failing` (every delivery failed for 3 days) or `secret_undecryptable` (rotate the secret). Null otherwise. Enabling it again resumes delivery of what is owed. */
            disabledReason: ("deliveries_failing" | "secret_undecryptable") | null;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description `whsec_` + base64 of 32 random bytes: shown only in this response, stored encrypted. A replay answers null. */
            secret: string | null;
        };
        WebhookDeliveryAttempt: {
            /**
             * Format: uuid
             * @description The attempt; `POST /v1/webhook-deliveries/{id}/redeliver` takes it.
             */
            id: string;
            /** Format: uuid */
            deliveryId: string;
            /**
             * Format: uuid
             * @description The message's `webhook-id`: the same on every attempt.
             */
            eventId: string;
            eventType: string;
            attempt: number;
            /**
             * @description `pending`: it failed and a retry is due at `nextAttemptAt`.
             * @enum {string}
             */
            status: "pending" | "delivered" | "failed";
            responseStatus: number | null;
            durationMs: number;
            /** @description Why no answer came (timeout, refused address...). */
            error: string | null;
            nextAttemptAt: string | null;
            /** Format: date-time */
            createdAt: string;
        };
        /** @description An error answer (RFC 9457 problem details), sent as `application/problem+json`. */
        Problem: {
            /**
             * @description `/problems/<code>`.
             * @example /problems/card_declined
             */
            type: string;
            /** @description A short, fixed summary of the code. */
            title: string;
            /** @description The HTTP status, repeated. */
            status: number;
            /**
             * @description What went wrong, for programs to branch on.
             * @enum {string}
             */
            code: "validation_error" | "invalid_credentials" | "forbidden" | "not_found" | "method_not_allowed" | "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc" | "limit_exceeded" | "invalid_transaction_state" | "idempotency_request_in_progress" | "nothing_to_settle" | "settlement_in_progress" | "version_conflict" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "payment_method_user_mismatch" | "amount_exceeds_capturable" | "amount_exceeds_refundable" | "host_configuration_missing" | "host_configuration_disabled" | "host_configuration_ambiguous" | "rate_limited" | "internal_error" | "processor_error" | "processor_authentication_failed" | "service_unavailable" | "processor_timeout";
            /** @description What went wrong this time, for people. */
            detail: string;
            /** @description The request's id, as in the `x-request-id` header: quote it when asking for help. */
            requestId: string;
            /** @description With `validation_error`: every field that failed, by its path in the body, query or path. */
            errors?: {
                /** @example card.number */
                path: string;
                /** @example fails the Luhn check */
                message: string;
            }[];
            /** @description When a transaction was recorded (a decline, a failure, an unknown outcome): the transaction as it stands. A `processor_timeout` transaction is `pending` and is resolved later; read it with `GET /v1/transactions/{id}`. */
            transaction?: components["schemas"]["Transaction"];
            /** @description With `limit_exceeded`: which of the client's limits the transaction would exceed, as it stood when the transaction was declined (a retry with its Idempotency-Key answers the same). Absent for declines recorded before 2026-11-27. */
            limit?: {
                currency: string;
                /** @enum {string} */
                limit: "maxAmountPerTransaction" | "dailyAmount" | "dailyCount";
                /** @description The limit as set. */
                value: number;
                /** @description What was left of it that day (UTC). */
                remaining: number;
            };
        };
    };
    responses: never;
    parameters: {
        /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description The request's id: the `x-request-id` the request sent, or a new one. Problems repeat it as `requestId`. */
        RequestId: string;
        /** @description `true` when this answer is the replay of the first answer to the same Idempotency-Key; absent otherwise. */
        IdempotentReplayed: "true";
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
        /** @description `processor;dur=<ms>, app;dur=<ms>`: how long this request waited on processor calls, and the rest of its time in the service (the latency the platform adds). */
        ServerTiming: string;
        /** @description The host configuration's version, quoted (`"3"`): send it back as `If-Match` to update only that version. */
        ETag: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getServiceIndex: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service's entry points */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceIndex"];
                };
            };
        };
    };
    getApiIndex: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The API's reference and main resources */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiIndex"];
                };
            };
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process answers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ok";
                    };
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready for traffic */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "ready";
                        /** @description The processors answered by the built-in simulator: empty in a real deployment. */
                        simulatedProcessors: ("processor_a" | "processor_b" | "processor_c" | "processor_d")[];
                    };
                };
            };
            /** @description A store does not answer */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        status: "unavailable";
                        /** @description The processors answered by the built-in simulator: empty in a real deployment. */
                        simulatedProcessors: ("processor_a" | "processor_b" | "processor_c" | "processor_d")[];
                    };
                };
            };
        };
    };
    getPublishedCheckpointKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: components["schemas"]["CheckpointKey"][];
                    };
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format 0.0.4, or OpenMetrics 1.0.0 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                    "application/openmetrics-text": string;
                };
            };
            /** @description `invalid_credentials`: the service runs with `METRICS_TOKEN` and the request did not send it */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Caller"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listClients: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Client"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createClient: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Client"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ListedApiKey"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description What to call the key, to tell it apart in lists (1 to 100 printable characters, trimmed). */
                    name?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Client"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    replaceClientLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    limits: {
                        currency: string;
                        maxAmountPerTransaction?: number;
                        dailyAmount?: number;
                        dailyCount?: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Client"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listProcessorAHostConfigurations: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                clientId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HostConfiguration"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createProcessorAHostConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    clientId: string;
                    name: string;
                    enabled: boolean;
                    company: {
                        name: string;
                        phone: string;
                        address: {
                            line1: string;
                            /** @default null */
                            line2?: string | null;
                            city: string;
                            state: string;
                            postalCode: string;
                            country: string;
                        };
                        location: {
                            latitude: number;
                            longitude: number;
                        };
                    };
                    /** @default {} */
                    customProperties?: {
                        [key: string]: string;
                    };
                    merchant: {
                        merchantNumber: string;
                        acquirerBin: string;
                        /** @default null */
                        amexSeNumber?: string | null;
                    };
                    settings: {
                        settlementTime: string;
                        timeZone: string;
                        agentBank: string;
                        agentChain: string;
                        storeNumber: string;
                        terminalNumber: string;
                        terminalId: string;
                        mcc: string;
                        /** @default null */
                        mvv?: string | null;
                        /** @default null */
                        industryCode?: ("D" | "F" | "G" | "R") | null;
                    };
                    credentials?: Record<string, never>;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getProcessorAHostConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    replaceProcessorAHostConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `etag` of the version you read (`"3"`): the update is refused with 412 `version_conflict` if the configuration has changed since. */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    clientId: string;
                    name: string;
                    enabled: boolean;
                    company: {
                        name: string;
                        phone: string;
                        address: {
                            line1: string;
                            /** @default null */
                            line2?: string | null;
                            city: string;
                            state: string;
                            postalCode: string;
                            country: string;
                        };
                        location: {
                            latitude: number;
                            longitude: number;
                        };
                    };
                    /** @default {} */
                    customProperties?: {
                        [key: string]: string;
                    };
                    merchant: {
                        merchantNumber: string;
                        acquirerBin: string;
                        /** @default null */
                        amexSeNumber?: string | null;
                    };
                    settings: {
                        settlementTime: string;
                        timeZone: string;
                        agentBank: string;
                        agentChain: string;
                        storeNumber: string;
                        terminalNumber: string;
                        terminalId: string;
                        mcc: string;
                        /** @default null */
                        mvv?: string | null;
                        /** @default null */
                        industryCode?: ("D" | "F" | "G" | "R") | null;
                    };
                    credentials?: Record<string, never>;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `version_conflict`: version conflict */
            412: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "version_conflict";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    setDefaultProcessorAHostConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `host_configuration_disabled`: host configuration disabled */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "host_configuration_disabled";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listProcessorAHostConfigurationVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HostConfigurationVersion"][];
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listProcessorBHostConfigurations: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                clientId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HostConfiguration"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createProcessorBHostConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    clientId: string;
                    name: string;
                    enabled: boolean;
                    company: {
                        name: string;
                        phone: string;
                        address: {
                            line1: string;
                            /** @default null */
                            line2?: string | null;
                            city: string;
                            state: string;
                            postalCode: string;
                            country: string;
                        };
                        location: {
                            latitude: number;
                            longitude: number;
                        };
                    };
                    /** @default {} */
                    customProperties?: {
                        [key: string]: string;
                    };
                    merchant: {
                        merchantId: string;
                        groupId: string;
                        tppId: string;
                        /** @default null */
                        amexSeNumber?: string | null;
                    };
                    settings: {
                        settlementTime: string;
                        timeZone: string;
                        terminalId: string;
                        mcc: string;
                        /** @default null */
                        mvv?: string | null;
                    };
                    credentials: {
                        datawireId: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getProcessorBHostConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    replaceProcessorBHostConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `etag` of the version you read (`"3"`): the update is refused with 412 `version_conflict` if the configuration has changed since. */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    clientId: string;
                    name: string;
                    enabled: boolean;
                    company: {
                        name: string;
                        phone: string;
                        address: {
                            line1: string;
                            /** @default null */
                            line2?: string | null;
                            city: string;
                            state: string;
                            postalCode: string;
                            country: string;
                        };
                        location: {
                            latitude: number;
                            longitude: number;
                        };
                    };
                    /** @default {} */
                    customProperties?: {
                        [key: string]: string;
                    };
                    merchant: {
                        merchantId: string;
                        groupId: string;
                        tppId: string;
                        /** @default null */
                        amexSeNumber?: string | null;
                    };
                    settings: {
                        settlementTime: string;
                        timeZone: string;
                        terminalId: string;
                        mcc: string;
                        /** @default null */
                        mvv?: string | null;
                    };
                    credentials?: {
                        datawireId: string;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `version_conflict`: version conflict */
            412: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "version_conflict";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    setDefaultProcessorBHostConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `host_configuration_disabled`: host configuration disabled */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "host_configuration_disabled";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listProcessorBHostConfigurationVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HostConfigurationVersion"][];
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listProcessorCHostConfigurations: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                clientId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HostConfiguration"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createProcessorCHostConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    clientId: string;
                    name: string;
                    enabled: boolean;
                    company: {
                        name: string;
                        phone: string;
                        address: {
                            line1: string;
                            /** @default null */
                            line2?: string | null;
                            city: string;
                            state: string;
                            postalCode: string;
                            country: string;
                        };
                        location: {
                            latitude: number;
                            longitude: number;
                        };
                    };
                    /** @default {} */
                    customProperties?: {
                        [key: string]: string;
                    };
                    merchant: {
                        /** @enum {string} */
                        platformBin: "000001";
                        merchantId: string;
                        /** @default null */
                        amexSeNumber?: string | null;
                    } | {
                        /** @enum {string} */
                        platformBin: "000002";
                        merchantId: string;
                        /** @default null */
                        amexSeNumber?: string | null;
                    };
                    settings: {
                        settlementTime: string;
                        timeZone: string;
                        /** @default 001 */
                        terminalId?: string;
                        /** @default null */
                        clientNumber?: string | null;
                        /** @default null */
                        storeNumber?: string | null;
                    };
                    credentials: {
                        username: string;
                        password: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getProcessorCHostConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    replaceProcessorCHostConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `etag` of the version you read (`"3"`): the update is refused with 412 `version_conflict` if the configuration has changed since. */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    clientId: string;
                    name: string;
                    enabled: boolean;
                    company: {
                        name: string;
                        phone: string;
                        address: {
                            line1: string;
                            /** @default null */
                            line2?: string | null;
                            city: string;
                            state: string;
                            postalCode: string;
                            country: string;
                        };
                        location: {
                            latitude: number;
                            longitude: number;
                        };
                    };
                    /** @default {} */
                    customProperties?: {
                        [key: string]: string;
                    };
                    merchant: {
                        /** @enum {string} */
                        platformBin: "000001";
                        merchantId: string;
                        /** @default null */
                        amexSeNumber?: string | null;
                    } | {
                        /** @enum {string} */
                        platformBin: "000002";
                        merchantId: string;
                        /** @default null */
                        amexSeNumber?: string | null;
                    };
                    settings: {
                        settlementTime: string;
                        timeZone: string;
                        /** @default 001 */
                        terminalId?: string;
                        /** @default null */
                        clientNumber?: string | null;
                        /** @default null */
                        storeNumber?: string | null;
                    };
                    credentials?: {
                        username: string;
                        password: string;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `version_conflict`: version conflict */
            412: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "version_conflict";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    setDefaultProcessorCHostConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `host_configuration_disabled`: host configuration disabled */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "host_configuration_disabled";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listProcessorCHostConfigurationVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HostConfigurationVersion"][];
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listProcessorDHostConfigurations: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                clientId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HostConfiguration"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createProcessorDHostConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    clientId: string;
                    name: string;
                    enabled: boolean;
                    company: {
                        name: string;
                        phone: string;
                        address: {
                            line1: string;
                            /** @default null */
                            line2?: string | null;
                            city: string;
                            state: string;
                            postalCode: string;
                            country: string;
                        };
                        location: {
                            latitude: number;
                            longitude: number;
                        };
                    };
                    /** @default {} */
                    customProperties?: {
                        [key: string]: string;
                    };
                    merchant: {
                        acquirerBin: string;
                        merchantId: string;
                        /** @default null */
                        acquiringInstitutionId?: string | null;
                        /** @default null */
                        amexSeNumber?: string | null;
                    };
                    settings: {
                        settlementTime: string;
                        timeZone: string;
                        terminalId: string;
                        /** @default null */
                        terminalNumber?: string | null;
                        /** @default null */
                        mcc?: string | null;
                        /** @default null */
                        mvv?: string | null;
                    };
                    credentials: {
                        secretApiKey: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getProcessorDHostConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    replaceProcessorDHostConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `etag` of the version you read (`"3"`): the update is refused with 412 `version_conflict` if the configuration has changed since. */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    clientId: string;
                    name: string;
                    enabled: boolean;
                    company: {
                        name: string;
                        phone: string;
                        address: {
                            line1: string;
                            /** @default null */
                            line2?: string | null;
                            city: string;
                            state: string;
                            postalCode: string;
                            country: string;
                        };
                        location: {
                            latitude: number;
                            longitude: number;
                        };
                    };
                    /** @default {} */
                    customProperties?: {
                        [key: string]: string;
                    };
                    merchant: {
                        acquirerBin: string;
                        merchantId: string;
                        /** @default null */
                        acquiringInstitutionId?: string | null;
                        /** @default null */
                        amexSeNumber?: string | null;
                    };
                    settings: {
                        settlementTime: string;
                        timeZone: string;
                        terminalId: string;
                        /** @default null */
                        terminalNumber?: string | null;
                        /** @default null */
                        mcc?: string | null;
                        /** @default null */
                        mvv?: string | null;
                    };
                    credentials?: {
                        secretApiKey: string;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `version_conflict`: version conflict */
            412: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "version_conflict";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    setDefaultProcessorDHostConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    etag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostConfiguration"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `host_configuration_disabled`: host configuration disabled */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "host_configuration_disabled";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listProcessorDHostConfigurationVersions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["HostConfigurationVersion"][];
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createAuthorization: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
                    amount: number;
                    currency: string;
                    card?: {
                        number: string;
                        expMonth: number;
                        expYear: number;
                        holderName?: string;
                        cvc?: string;
                    };
                    /**
                     * Format: uuid
                     * @description A stored card (`POST /v1/payment-methods`), instead of `card`.
                     */
                    paymentMethodId?: string;
                    /** @description The stored card's CVC, with `paymentMethodId` only (it is never stored). */
                    cvc?: string;
                    userId: string;
                    reference?: string;
                    metadata?: {
                        [key: string]: string;
                    };
                    /** Format: uuid */
                    hostConfigurationId?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `card_declined`: card declined; `insufficient_funds`: insufficient funds; `expired_card`: expired card; `incorrect_cvc`: incorrect cvc; `limit_exceeded`: limit exceeded */
            402: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc" | "limit_exceeded";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused; `host_configuration_missing`: host configuration missing; `host_configuration_disabled`: host configuration disabled; `host_configuration_ambiguous`: host configuration ambiguous */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused" | "host_configuration_missing" | "host_configuration_disabled" | "host_configuration_ambiguous";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `processor_error`: processor error; `processor_authentication_failed`: processor authentication failed */
            502: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_error" | "processor_authentication_failed";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
            /** @description `processor_timeout`: processor timeout */
            504: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_timeout";
                    };
                };
            };
        };
    };
    createSale: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    processor: "processor_a" | "processor_b" | "processor_c" | "processor_d";
                    amount: number;
                    currency: string;
                    card?: {
                        number: string;
                        expMonth: number;
                        expYear: number;
                        holderName?: string;
                        cvc?: string;
                    };
                    /**
                     * Format: uuid
                     * @description A stored card (`POST /v1/payment-methods`), instead of `card`.
                     */
                    paymentMethodId?: string;
                    /** @description The stored card's CVC, with `paymentMethodId` only (it is never stored). */
                    cvc?: string;
                    userId: string;
                    reference?: string;
                    metadata?: {
                        [key: string]: string;
                    };
                    /** Format: uuid */
                    hostConfigurationId?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `card_declined`: card declined; `insufficient_funds`: insufficient funds; `expired_card`: expired card; `incorrect_cvc`: incorrect cvc; `limit_exceeded`: limit exceeded */
            402: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc" | "limit_exceeded";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused; `host_configuration_missing`: host configuration missing; `host_configuration_disabled`: host configuration disabled; `host_configuration_ambiguous`: host configuration ambiguous */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused" | "host_configuration_missing" | "host_configuration_disabled" | "host_configuration_ambiguous";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `processor_error`: processor error; `processor_authentication_failed`: processor authentication failed */
            502: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_error" | "processor_authentication_failed";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
            /** @description `processor_timeout`: processor timeout */
            504: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_timeout";
                    };
                };
            };
        };
    };
    createCapture: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    transactionId: string;
                    amount?: number;
                    /** @description Releases what is left of the authorization at the processor once this capture is approved, as a void of it does (default false). */
                    final?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `card_declined`: card declined */
            402: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "card_declined";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `invalid_transaction_state`: invalid transaction state; `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_transaction_state" | "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused; `amount_exceeds_capturable`: amount exceeds capturable; `host_configuration_missing`: host configuration missing; `host_configuration_disabled`: host configuration disabled */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused" | "amount_exceeds_capturable" | "host_configuration_missing" | "host_configuration_disabled";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `processor_error`: processor error; `processor_authentication_failed`: processor authentication failed */
            502: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_error" | "processor_authentication_failed";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
            /** @description `processor_timeout`: processor timeout */
            504: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_timeout";
                    };
                };
            };
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    transactionId: string;
                    amount?: number;
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `card_declined`: card declined */
            402: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "card_declined";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `invalid_transaction_state`: invalid transaction state; `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_transaction_state" | "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused; `amount_exceeds_refundable`: amount exceeds refundable; `host_configuration_missing`: host configuration missing; `host_configuration_disabled`: host configuration disabled */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused" | "amount_exceeds_refundable" | "host_configuration_missing" | "host_configuration_disabled";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `processor_error`: processor error; `processor_authentication_failed`: processor authentication failed */
            502: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_error" | "processor_authentication_failed";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
            /** @description `processor_timeout`: processor timeout */
            504: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_timeout";
                    };
                };
            };
        };
    };
    createVoid: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    transactionId: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `card_declined`: card declined */
            402: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "card_declined";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `invalid_transaction_state`: invalid transaction state; `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_transaction_state" | "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused; `host_configuration_missing`: host configuration missing; `host_configuration_disabled`: host configuration disabled */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused" | "host_configuration_missing" | "host_configuration_disabled";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `processor_error`: processor error; `processor_authentication_failed`: processor authentication failed */
            502: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_error" | "processor_authentication_failed";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
            /** @description `processor_timeout`: processor timeout */
            504: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_timeout";
                    };
                };
            };
        };
    };
    getTransaction: {
        parameters: {
            query?: {
                /** @description An ISO timestamp, or a UTC date alone: the state at the end of that day. */
                asOf?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionRead"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listPaymentMethods: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                userId?: string;
                clientId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PaymentMethod"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createPaymentMethod: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    card: {
                        number: string;
                        expMonth: number;
                        expYear: number;
                        holderName?: string;
                    };
                    userId: string;
                    metadata?: {
                        [key: string]: string;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getPaymentMethod: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentMethod"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    deletePaymentMethod: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listPaymentMethodEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        streamId: string;
                        events: components["schemas"]["Event"][];
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                clientId?: string;
                userId?: string;
                type?: "authorization" | "sale" | "capture" | "refund" | "void";
                status?: "pending" | "approved" | "declined" | "failed";
                state?: "pending" | "declined" | "failed" | "authorized" | "partially_captured" | "captured" | "expired" | "succeeded" | "partially_refunded" | "refunded" | "voided";
                parentTransactionId?: string;
                processor?: "processor_a" | "processor_b" | "processor_c" | "processor_d";
                currency?: string;
                reference?: string;
                paymentMethodId?: string;
                createdFrom?: string;
                createdTo?: string;
                amountMin?: string;
                amountMax?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Transaction"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listTransactionEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        streamId: string;
                        events: components["schemas"]["Event"][];
                        /** @description How many of the events served have a hash-chain link that does not verify (`chain.status` broken): 0 when intact */
                        brokenLinks: number;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                after?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Event"][];
                        nextCursor: string | null;
                        /** @description How many of the events served have a hash-chain link that does not verify (`chain.status` broken): 0 when intact */
                        brokenLinks: number;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listCheckpointKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: components["schemas"]["CheckpointKey"][];
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    closeProcessorASettlementBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress; `nothing_to_settle`: nothing to settle; `settlement_in_progress`: settlement in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress" | "nothing_to_settle" | "settlement_in_progress";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `processor_error`: processor error */
            502: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    closeProcessorBSettlementBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress; `nothing_to_settle`: nothing to settle; `settlement_in_progress`: settlement in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress" | "nothing_to_settle" | "settlement_in_progress";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `processor_error`: processor error */
            502: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    closeProcessorCSettlementBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress; `nothing_to_settle`: nothing to settle; `settlement_in_progress`: settlement in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress" | "nothing_to_settle" | "settlement_in_progress";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `processor_error`: processor error */
            502: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    closeProcessorDSettlementBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress; `nothing_to_settle`: nothing to settle; `settlement_in_progress`: settlement in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress" | "nothing_to_settle" | "settlement_in_progress";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `processor_error`: processor error */
            502: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "processor_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listSettlementTransactions: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Transaction"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listSettlements: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                clientId?: string;
                processor?: "processor_a" | "processor_b" | "processor_c" | "processor_d";
                hostConfigurationId?: string;
                /** @description Only batches in this status; every status by default. */
                status?: "closing" | "matched" | "mismatched" | "failed";
                /** @description Closed (or, while closing, opened) at or after; a date alone means from the start of that UTC day. */
                from?: string;
                /** @description Closed (or, while closing, opened) at or before; a date alone means to the end of that UTC day. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Settlement"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getSettlement: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Settlement"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listJournalEntries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                /** @description Admin keys: one client's books. Client keys see their own. */
                clientId?: string;
                processor?: "processor_a" | "processor_b" | "processor_c" | "processor_d";
                currency?: string;
                /** @description Entries with a line on this account. */
                account?: "processor_receivable" | "sales" | "refunds" | "settled_funds" | "settlement_differences" | "holds" | "holds_offset";
                paymentId?: string;
                transactionId?: string;
                settlementId?: string;
                /** @description Happened at or after; a date alone means from the start of that UTC day. */
                from?: string;
                /** @description Happened at or before; a date alone means to the end of that UTC day. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["JournalEntry"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getJournalBalances: {
        parameters: {
            query?: {
                /** @description Admin keys: one client's books. Client keys see their own. */
                clientId?: string;
                /** @description Only entries that happened at or before this moment; a date alone means to the end of that UTC day. Now by default. */
                asOf?: string;
                currency?: string;
                processor?: "processor_a" | "processor_b" | "processor_c" | "processor_d";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        asOf: string;
                        data: components["schemas"]["JournalBalance"][];
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getJournalTrialBalance: {
        parameters: {
            query?: {
                /** @description Admin keys: one client's books. Client keys see their own. */
                clientId?: string;
                /** @description Only entries that happened at or before this moment; a date alone means to the end of that UTC day. Now by default. */
                asOf?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        asOf: string;
                        data: components["schemas"]["TrialBalance"][];
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
                clientId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookEndpoint"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description https (http only with WEBHOOK_ALLOW_HTTP); no private or loopback address. */
                    url: string;
                    /** @description The event types to receive, or ["*"] for all: transaction.pending, transaction.approved, transaction.declined, transaction.failed, transaction.updated, authorization.expired, settlement.closed, settlement.mismatched, webhook.test. */
                    events: ("transaction.pending" | "transaction.approved" | "transaction.declined" | "transaction.failed" | "transaction.updated" | "authorization.expired" | "settlement.closed" | "settlement.mismatched" | "webhook.test" | "*")[];
                    description?: string | null;
                    enabled?: boolean;
                    /** Format: uuid */
                    clientId?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description https (http only with WEBHOOK_ALLOW_HTTP); no private or loopback address. */
                    url?: string;
                    /** @description The event types to receive, or ["*"] for all: transaction.pending, transaction.approved, transaction.declined, transaction.failed, transaction.updated, authorization.expired, settlement.closed, settlement.mismatched, webhook.test. */
                    events?: ("transaction.pending" | "transaction.approved" | "transaction.declined" | "transaction.failed" | "transaction.updated" | "authorization.expired" | "settlement.closed" | "settlement.mismatched" | "webhook.test" | "*")[];
                    description?: string | null;
                    enabled?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    rotateWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        deliveryId: string;
                        /**
                         * Format: uuid
                         * @description The message's `webhook-id`.
                         */
                        eventId: string;
                        /** @enum {string} */
                        status: "pending";
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDeliveryAttempt"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the POST safe to retry: the same key with the same request answers the first answer again (`idempotent-replayed: true`) and does nothing twice. Scoped to the calling key's client. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Accepted */
            202: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        deliveryId: string;
                        /** @enum {string} */
                        status: "pending";
                    };
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `not_found`: not found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "not_found";
                    };
                };
            };
            /** @description `idempotency_request_in_progress`: idempotent request in progress */
            409: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_request_in_progress";
                    };
                };
            };
            /** @description `payload_too_large`: payload too large */
            413: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "payload_too_large";
                    };
                };
            };
            /** @description `unsupported_media_type`: unsupported media type */
            415: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "unsupported_media_type";
                    };
                };
            };
            /** @description `idempotency_key_reused`: idempotency key reused */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "idempotency_key_reused";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "idempotent-replayed": components["headers"]["IdempotentReplayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
    getOperationsStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperationsStatus"];
                };
            };
            /** @description `validation_error`: validation failed */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "validation_error";
                    };
                };
            };
            /** @description `invalid_credentials`: invalid credentials */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "invalid_credentials";
                    };
                };
            };
            /** @description `forbidden`: forbidden */
            403: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "forbidden";
                    };
                };
            };
            /** @description `rate_limited`: too many requests */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "rate_limited";
                    };
                };
            };
            /** @description `internal_error`: internal server error */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "internal_error";
                    };
                };
            };
            /** @description `service_unavailable`: service unavailable */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "server-timing": components["headers"]["ServerTiming"];
                    "retry-after": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"] & {
                        /** @enum {string} */
                        code?: "service_unavailable";
                    };
                };
            };
        };
    };
}
