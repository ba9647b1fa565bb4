import type { FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Processor } from "../../domain/host-configurations/schemas.ts";
import type { JsonValue } from "../../eventstore/port.ts";
import type { Ledger } from "./ledger.ts";
import { redactHeaders, redactJson } from "./redact.ts";

/**
 * A batch close lists every transaction id of the batch: a day's batch of a busy merchant runs to
 * megabytes (about 40 bytes an id), far past an operation message's 1 MiB.
 */
export const BATCH_CLOSE_BODY_LIMIT = 64 * 1024 * 1024;

/** What every simulated processor's routes share. */
export interface SimulatorContext {
  ledger: Ledger;
  /** Waits as a processor that does not answer in time; ends at once when the simulator closes. */
  hold(): Promise<void>;
  /** Keeps the message (redacted) for tests; the last one per transaction id, or batch id for a batch close. */
  record(transactionId: string, message: ReceivedMessage): void;
}

export interface ReceivedMessage {
  processor: Processor;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: JsonValue;
}

export function receivedMessage(processor: Processor, request: FastifyRequest): ReceivedMessage {
  return {
    processor,
    method: request.method,
    path: request.url,
    headers: redactHeaders(request.headers),
    // Fastify parsed it from JSON, so it is JSON.
    body: redactJson((request.body ?? null) as JsonValue),
  };
}

/**
 * The parsed message, or `undefined` after answering 400 with the paths of the bad fields.
 * Never echoes values: they may be card numbers.
 */
export function parseOrReject<S extends z.ZodType>(
  schema: S,
  value: unknown,
  reply: FastifyReply,
): z.output<S> | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((issue) => issue.path.join("."));
  void reply.code(400).send({ error: "malformed_message", fields });
  return undefined;
}
