import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** An OTLP attribute value, as the JSON encoding has it. */
type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  status: { code?: number; message?: string };
  /** The resource's attributes, `service.name` among them. */
  resource: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  url: string;
  /** Every span exported so far. */
  spans(): ReceivedSpan[];
  /** Every export body, as it arrived: for searching for what must never be exported. */
  bodies(): string[];
  close(): Promise<void>;
}

const valueOf = (value: AnyValue): unknown =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
  value.doubleValue ??
  value.boolValue ??
  value.arrayValue?.values?.map(valueOf);

const attributesOf = (attributes: KeyValue[] | undefined) =>
  Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, valueOf(value)]));

/** A real OTLP/HTTP receiver (the JSON encoding) on a free loopback port: POST /v1/traces. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces" || !request.headers["content-type"]?.startsWith("application/json")) {
        response.writeHead(415).end();
        return;
      }
      bodies.push(Buffer.concat(chunks).toString("utf8"));
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies: () => [...bodies],
    spans: () =>
      bodies.flatMap((body) => {
        const parsed = JSON.parse(body) as {
          resourceSpans: {
            resource?: { attributes?: KeyValue[] };
            scopeSpans: {
              spans: {
                traceId: string;
                spanId: string;
                parentSpanId?: string;
                name: string;
                kind: number;
                attributes?: KeyValue[];
                links?: { traceId: string; spanId: string }[];
                status?: { code?: number; message?: string };
              }[];
            }[];
          }[];
        };
        return parsed.resourceSpans.flatMap((resourceSpans) =>
          resourceSpans.scopeSpans.flatMap((scope) =>
            scope.spans.map((span) => ({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
              status: span.status ?? {},
              resource: attributesOf(resourceSpans.resource?.attributes),
            })),
          ),
        );
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
