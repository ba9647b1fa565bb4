import { pino, type Logger } from "pino";
import pretty from "pino-pretty";
import { traceLogFields } from "./telemetry/spans.ts";

export type { Logger };

/** Never logged, wherever they appear in a logged object. */
export const redactedPaths = [
  "req.headers.authorization",
  "headers.authorization",
  "*.card.number",
  "*.card.cvc",
  "card.number",
  "card.cvc",
  "*.credentials",
  "credentials",
  "*.apiKey",
  "*.key",
  "*.password",
  "*.secretApiKey",
  "*.secret",
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  // Each line written within a span names it (`trace_id`, `span_id`); none while tracing is off.
  return pino({ level, redact: { paths: redactedPaths, censor: "[redacted]" }, mixin: traceLogFields }, destination);
}

/**
 * Where the service logs: readable lines for a person at a terminal, one JSON object a line for
 * everything else (files, containers, log shippers).
 */
export function logDestination(stdout: NodeJS.WriteStream): pino.DestinationStream | undefined {
  return stdout.isTTY ? pretty({ destination: stdout, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname", singleLine: true, sync: true }) : undefined;
}
