import type { z } from "zod";
import type {
  HostConfigurationCredentials,
  HostConfigurationFields,
  Processor,
} from "../domain/host-configurations/schemas.ts";
import type { JsonObject } from "../eventstore/port.ts";
import type { CredentialsReader, UnusableCredentials } from "./credentials.ts";
import { type BatchAnswer, batchCloseOutcome, inquiryOutcome, submitOutcome, unusableCredentials } from "./exchange.ts";
import { configurationFor } from "./host-configuration.ts";
import type { HttpClient, HttpResult } from "./http.ts";
import type { BatchCloseRequest, CardDetails, ProcessorConnector, ProcessorHostConfiguration, ProcessorRequest } from "./port.ts";
import type { ProcessorAnswer } from "./response-codes.ts";
import { cardOf, type ParentTransaction, parentOf } from "./request.ts";

/**
 * The connector skeleton. A processor's file says only what is its own: where each call goes,
 * the message it sends, how its credentials travel and how its answers read. The skeleton owns
 * the flow every connector shares: checking the request, reading the credentials (nothing is
 * sent without them), the one HTTP exchange, and what each answer, refusal or silence means
 * (`exchange.ts`). Timeouts are the HTTP client's (`http.ts`).
 */

/** One HTTP call: a POST of `body`, or a GET when it has none. */
export interface ConnectorCall {
  /** Below the processor's root, without a leading slash. */
  path: string;
  body?: JsonObject;
  headers?: Record<string, string>;
}

/** How a host configuration's credentials travel: in headers, or as fields first in the body. */
export interface CredentialsSent {
  headers?: Record<string, string>;
  fields?: JsonObject;
}

/** An operation's request, checked: its card (authorization and sale), its parent (follow-ups). */
export interface CheckedRequest<P extends Processor> {
  request: ProcessorRequest;
  card: CardDetails | undefined;
  parent: ParentTransaction | undefined;
  /** The host configuration's merchant and settings for this processor. */
  configuration: HostConfigurationFields<P>;
}

export interface ConnectorDefinition<P extends Processor> {
  processor: P;
  /** Where the processor's API starts below its base URL: `/processor_a/v1`. */
  root: string;
  /** Absent for a processor that takes no credentials. */
  credentials?: (credentials: HostConfigurationCredentials<P>, configuration: HostConfigurationFields<P>) => CredentialsSent;
  submit: (checked: CheckedRequest<P>) => ConnectorCall;
  inquiry: (transactionId: string, configuration: HostConfigurationFields<P>) => ConnectorCall;
  batchClose: (request: BatchCloseRequest, configuration: HostConfigurationFields<P>) => ConnectorCall;
  /** An operation's or an inquiry's 2xx answer (`readWith`); `undefined` when the body is not one. */
  answer: (body: unknown) => ProcessorAnswer | undefined;
  /** The body of the processor's own 404 for a transaction it does not know. */
  notFound: z.ZodType;
  /** A batch close's 2xx answer (`readWith`); `undefined` when the body is not one. */
  batchAnswer: (body: unknown) => BatchAnswer | undefined;
}

/** What a connector is built on: the shared HTTP pool, the processor's base URL, the credentials reader. */
export interface ConnectorTransport {
  http: HttpClient;
  /** Without a trailing slash. */
  baseUrl: string;
  credentials: CredentialsReader;
}

/** A body read by its zod schema, then mapped; `undefined` when the body does not parse. */
export const readWith =
  <S extends z.ZodType, T>(schema: S, read: (data: z.output<S>) => T) =>
  (body: unknown): T | undefined => {
    const parsed = schema.safeParse(body);
    return parsed.success ? read(parsed.data) : undefined;
  };

export function defineConnector<P extends Processor>(
  definition: ConnectorDefinition<P>,
): (transport: ConnectorTransport) => ProcessorConnector {
  const { processor } = definition;
  const reader = { answer: definition.answer, notFound: (body: unknown) => definition.notFound.safeParse(body).success };

  return ({ http, baseUrl, credentials }) => {
    /** The credentials to send, or why they cannot be; nothing at all for a processor that takes none. */
    function credentialsFor(hostConfiguration: ProcessorHostConfiguration, configuration: HostConfigurationFields<P>) {
      if (!definition.credentials) return { ok: true as const, sent: {} };
      const read = credentials.read(processor, hostConfiguration);
      return read.ok ? { ok: true as const, sent: definition.credentials(read.credentials, configuration) } : read;
    }

    function send(call: ConnectorCall, { headers, fields }: CredentialsSent): Promise<HttpResult> {
      const url = `${baseUrl}${definition.root}/${call.path}`;
      const allHeaders = { ...headers, ...call.headers };
      return call.body === undefined ? http.get(url, allHeaders) : http.post(url, { ...fields, ...call.body }, allHeaders);
    }

    /** The call with the credentials, and the outcome of its answer; without usable credentials, nothing is sent. */
    async function exchange<Outcome>(
      hostConfiguration: ProcessorHostConfiguration,
      configuration: HostConfigurationFields<P>,
      call: ConnectorCall,
      outcomes: { unusable: (unusable: UnusableCredentials) => Outcome; of: (result: HttpResult) => Outcome },
    ): Promise<Outcome> {
      const auth = credentialsFor(hostConfiguration, configuration);
      if (!auth.ok) return outcomes.unusable(auth.unusable);
      return outcomes.of(await send(call, auth.sent));
    }

    return {
      processor,
      async submit(request) {
        const card = cardOf(request);
        const parent = parentOf(request);
        const configuration = configurationFor(processor, request.hostConfiguration.view);
        const call = definition.submit({ request, card, parent, configuration });
        return exchange(request.hostConfiguration, configuration, call, {
          unusable: unusableCredentials.submit,
          of: (result) => submitOutcome(result, reader),
        });
      },
      async inquire({ transactionId, hostConfiguration }) {
        const configuration = configurationFor(processor, hostConfiguration.view);
        return exchange(hostConfiguration, configuration, definition.inquiry(transactionId, configuration), {
          unusable: unusableCredentials.inquiry,
          of: (result) => inquiryOutcome(result, reader),
        });
      },
      async closeBatch(request) {
        const configuration = configurationFor(processor, request.hostConfiguration.view);
        return exchange(request.hostConfiguration, configuration, definition.batchClose(request, configuration), {
          unusable: unusableCredentials.batchClose,
          of: (result) => batchCloseOutcome(result, definition.batchAnswer),
        });
      },
    };
  };
}
