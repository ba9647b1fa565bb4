import { useRef, useState } from "preact/hooks";
import { ApiError, apiGet, apiPost, newIdempotencyKey } from "../api.ts";
import { Loading, StatusBadge, TableRegion } from "../components/common.tsx";
import { formatTime } from "../format.ts";
import { useLoad } from "../load.ts";
import type { DeliveryAttempt, Page, WebhookEndpoint } from "../types.ts";

const ENDPOINTS_READ = 100;
const ATTEMPTS_PER_READ = 100;
const DELIVERIES_PER_PAGE = 5;

/** An endpoint and the attempts read of it so far, newest first. */
interface EndpointAttempts {
  endpoint: WebhookEndpoint;
  attempts: DeliveryAttempt[];
  /** Where older attempts continue; null once all were read. */
  nextCursor: string | null;
}

/**
 * Each message's latest attempt among those read, newest first, where that attempt did not
 * deliver it: a message retried twelve times is one failing delivery, not twelve rows.
 */
export function failingDeliveries(attempts: readonly DeliveryAttempt[]): DeliveryAttempt[] {
  const seen = new Set<string>();
  return attempts.filter((attempt) => {
    const latest = !seen.has(attempt.deliveryId);
    seen.add(attempt.deliveryId);
    return latest && attempt.status !== "delivered";
  });
}

const readAttempts = (endpointId: string, cursor?: string) =>
  apiGet<Page<DeliveryAttempt>>(`/webhook-endpoints/${endpointId}/deliveries`, { limit: ATTEMPTS_PER_READ, cursor });

async function loadFailingEndpoints() {
  const endpoints = await apiGet<Page<WebhookEndpoint>>("/webhook-endpoints", { limit: ENDPOINTS_READ });
  const read = await Promise.all(
    endpoints.data.map(async (endpoint): Promise<EndpointAttempts> => {
      const page = await readAttempts(endpoint.id);
      return { endpoint, attempts: page.data, nextCursor: page.nextCursor };
    }),
  );
  return { failing: read.filter(({ attempts }) => failingDeliveries(attempts).length > 0), moreEndpoints: endpoints.nextCursor !== null };
}

/** One group per endpoint with failing deliveries, each paged: a dead endpoint takes a few rows, not hundreds. */
export function FailingDeliveries() {
  const loaded = useLoad(loadFailingEndpoints, []);
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhook deliveries failing</h2>
      <Loading loaded={loaded}>
        {({ failing, moreEndpoints }) => (
          <div role="region" aria-label="Failing webhook deliveries" class="delivery-groups">
            {failing.length === 0 && <p class="muted">No failing delivery among the latest attempts of each endpoint.</p>}
            {failing.map((read) => (
              <EndpointGroup key={read.endpoint.id} first={read} />
            ))}
            {moreEndpoints && <p class="muted">Only the {ENDPOINTS_READ} newest endpoints were checked.</p>}
          </div>
        )}
      </Loading>
    </section>
  );
}

function EndpointGroup({ first }: { first: EndpointAttempts }) {
  const [read, setRead] = useState(first);
  const [page, setPage] = useState(0);
  const [reading, setReading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { endpoint } = read;
  const failing = failingDeliveries(read.attempts);
  const shownFrom = page * DELIVERIES_PER_PAGE;
  const shown = failing.slice(shownFrom, shownFrom + DELIVERIES_PER_PAGE);
  const titleId = `endpoint-${endpoint.id}`;

  /** The next page: older attempts are read until it has a delivery, or none are left. */
  const next = async () => {
    const wanted = shownFrom + DELIVERIES_PER_PAGE + 1;
    setReading(true);
    setProblem(null);
    try {
      let current = read;
      while (failingDeliveries(current.attempts).length < wanted && current.nextCursor) {
        const older = await readAttempts(endpoint.id, current.nextCursor);
        current = { ...current, attempts: [...current.attempts, ...older.data], nextCursor: older.nextCursor };
      }
      setRead(current);
      if (failingDeliveries(current.attempts).length >= wanted) setPage(page + 1);
    } catch (error) {
      setProblem(String(error instanceof Error ? error.message : error));
    } finally {
      setReading(false);
    }
  };

  return (
    <section class="delivery-group" aria-labelledby={titleId} data-endpoint-id={endpoint.id}>
      <h3 id={titleId}>
        <span class="mono">{endpoint.url}</span>{" "}
        <StatusBadge status={endpoint.enabled ? "enabled" : `disabled${endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}`} />
      </h3>
      <p class="muted" data-testid="group-summary">
        {failing.length} failing deliver{failing.length === 1 ? "y" : "ies"} in its latest {read.attempts.length} attempts
        {read.nextCursor ? "; older attempts are read as you page" : ""}. Showing {shownFrom + 1}–{shownFrom + shown.length}.
      </p>
      <TableRegion label={`Failing deliveries to ${endpoint.url}`}>
        <thead>
          <tr>
            <th scope="col">Last attempt</th>
            <th scope="col">Event</th>
            <th scope="col">Attempts</th>
            <th scope="col">Outcome</th>
            <th scope="col">Next attempt</th>
            <th scope="col">Action</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((attempt) => (
            <tr key={attempt.deliveryId} data-delivery-id={attempt.deliveryId}>
              <td>{formatTime(attempt.createdAt)}</td>
              <td>{attempt.eventType}</td>
              <td>{attempt.attempt}</td>
              <td>
                <StatusBadge status={attempt.status === "failed" ? "failed" : "retrying"} /> {attempt.responseStatus ?? attempt.error ?? ""}
              </td>
              <td>{formatTime(attempt.nextAttemptAt)}</td>
              <td>
                <RedeliverButton deliveryId={attempt.deliveryId} />
              </td>
            </tr>
          ))}
        </tbody>
      </TableRegion>
      <nav class="pager" aria-label={`Pages of failing deliveries to ${endpoint.url}`}>
        {page > 0 && (
          <button type="button" class="secondary" onClick={() => setPage(page - 1)}>
            Newer deliveries
          </button>
        )}
        {(shownFrom + DELIVERIES_PER_PAGE < failing.length || read.nextCursor) && (
          <button type="button" class="secondary" onClick={next} disabled={reading}>
            Older deliveries
          </button>
        )}
      </nav>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

/** Sends the message again (same webhook-id) with a fresh retry schedule: `POST /v1/webhook-deliveries/{id}/redeliver`. */
function RedeliverButton({ deliveryId }: { deliveryId: string }) {
  const [state, setState] = useState<{ step: "ready" | "sending" | "queued" } | { step: "refused"; problem: string }>({ step: "ready" });
  // Set in the click itself: a double click queues one redelivery.
  const sending = useRef(false);
  const redeliver = async () => {
    if (sending.current) return;
    sending.current = true;
    setState({ step: "sending" });
    try {
      await apiPost(`/webhook-deliveries/${deliveryId}/redeliver`, {}, newIdempotencyKey());
      setState({ step: "queued" });
    } catch (error) {
      const problem = error instanceof ApiError ? `${error.status} ${error.code}: ${error.message}` : String(error);
      setState({ step: "refused", problem });
      sending.current = false;
    }
  };
  if (state.step === "queued") return <span role="status">Redelivery queued</span>;
  return (
    <>
      <button type="button" class="secondary" onClick={redeliver} disabled={state.step === "sending"}>
        Redeliver
      </button>
      {state.step === "refused" && (
        <span class="error" role="alert">
          {state.problem}
        </span>
      )}
    </>
  );
}
