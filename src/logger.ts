import { pino, type Logger } from "pino";

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
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: redactedPaths, censor: "[redacted]" } }, destination);
}
