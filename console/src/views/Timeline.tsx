import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { apiGet, type Role } from "../api.ts";
import { checkChain, type LinkCheck } from "../chain.ts";
import { Amount, Loading, StatusBadge, ViewHeading } from "../components/common.tsx";
import { formatAmount, formatTime, shortId } from "../format.ts";
import { useLoad } from "../load.ts";
import { linkTo } from "../router.ts";
import { statesAfterEach } from "../states.ts";
import { type ActionOutcome, TransactionActions } from "./TransactionActions.tsx";
import type { EventStream, JournalEntry, LoggedEvent, Page, Transaction } from "../types.ts";
import { EntryLines } from "./Journal.tsx";

async function loadTimeline(id: string) {
  const [transaction, stream] = await Promise.all([
    apiGet<Transaction>(`/transactions/${id}`),
    apiGet<EventStream>(`/transactions/${id}/events`),
  ]);
  const entries = await journalEntriesOf(stream.streamId.replace(/^payment-/, ""));
  return { transaction, stream, entries, checks: await checkChain(stream.events), states: statesAfterEach(stream.events, id) };
}

/** Every journal entry the payment's events posted, page by page. */
async function journalEntriesOf(paymentId: string): Promise<JournalEntry[]> {
  const entries: JournalEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await apiGet<Page<JournalEntry>>("/journal/entries", { paymentId, limit: 100, cursor });
    entries.push(...page.data);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return entries;
}

/** Who recorded the event, from its metadata: a client's API key, the admin, or the service's own jobs. */
function recordedBy({ metadata }: LoggedEvent): string {
  const actor = metadata.actor as { role?: string; keyId?: string } | undefined;
  switch (actor?.role) {
    case "client":
      return `client key …${shortId(actor.keyId ?? "?")}`;
    case "admin":
      return "admin";
    case "system":
      return "the service";
    default:
      return "unknown";
  }
}

export function Timeline({ id, role }: { id: string; role: Role }) {
  // Counts the actions answered here: each one reloads the transaction it changed.
  const [answered, setAnswered] = useState(0);
  const [outcome, setOutcome] = useState<ActionOutcome | null>(null);
  const loaded = useLoad(() => loadTimeline(id), [id, answered]);
  const showOutcome = (next: ActionOutcome) => {
    setOutcome(next);
    setAnswered((count) => count + 1);
  };
  return (
    <>
      <ViewHeading>Payment timeline</ViewHeading>
      <p>
        <a href={linkTo(["transactions"])}>← All transactions</a>
      </p>
      {outcome && <OutcomeNotice key={answered} outcome={outcome} />}
      <Loading loaded={loaded}>
        {({ transaction, stream, entries, checks, states }) => (
          <>
            <TransactionSummary transaction={transaction} />
            <TransactionActions transaction={transaction} role={role} onOutcome={showOutcome} />
            <ChainVerdict checks={checks} events={stream.events} />
            <AsOfSlider events={stream.events} states={states} />
            <h2>Events of stream {stream.streamId}</h2>
            <ol class="timeline">
              {stream.events.map((event, index) => (
                <TimelineEvent
                  key={event.id}
                  event={event}
                  check={checks[index]!}
                  state={states[index] ?? null}
                  posted={entries.filter((entry) => entry.eventId === event.id)}
                  viewedId={id}
                />
              ))}
            </ol>
          </>
        )}
      </Loading>
    </>
  );
}

/** What the action's answer was; it takes the focus, which the confirmation it replaces had. */
function OutcomeNotice({ outcome: { tone, text, recorded } }: { outcome: ActionOutcome }) {
  const notice = useRef<HTMLParagraphElement>(null);
  useLayoutEffect(() => notice.current?.focus(), []);
  return (
    <p
      ref={notice}
      tabIndex={-1}
      class={`outcome ${tone === "done" ? "notice" : "error"}`}
      role={tone === "done" ? "status" : "alert"}
      data-testid="action-outcome"
    >
      {text}{" "}
      {recorded && (
        <a href={linkTo(["transactions", recorded.id])} class="mono">
          Open the {recorded.type} …{shortId(recorded.id)}
        </a>
      )}
    </p>
  );
}

function TransactionSummary({ transaction }: { transaction: Transaction }) {
  const rows: Array<[string, ComponentChildren]> = [
    ["Id", <span class="mono">{transaction.id}</span>],
    ["Type", transaction.type],
    ["State", <StatusBadge status={transaction.state} />],
    ["Status", transaction.status],
    ["Amount", <Amount amount={transaction.amount} currency={transaction.currency} />],
    ["Captured", <Amount amount={transaction.capturedAmount} currency={transaction.currency} />],
    ["Refunded", <Amount amount={transaction.refundedAmount} currency={transaction.currency} />],
    ["Processor", transaction.processor],
    ["Card", transaction.card ? `${transaction.card.brand} •••• ${transaction.card.last4}` : "-"],
    ["User", transaction.userId],
    ["Reference", transaction.reference ?? "-"],
    ["Created", formatTime(transaction.createdAt)],
    ["Settled", formatTime(transaction.settledAt)],
  ];
  return (
    <section aria-label="Transaction">
      <dl class="summary" data-testid="summary">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        {transaction.parentTransactionId && (
          <div>
            <dt>Parent</dt>
            <dd>
              <a href={linkTo(["transactions", transaction.parentTransactionId])} class="mono">
                …{shortId(transaction.parentTransactionId)}
              </a>
            </dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/**
 * Broken when this browser's check or the service's, served with the event, finds it so: each
 * checks on its own (the browser trusts no verdict of the server's, the server also sees the
 * event before it when the page shows only part of a stream).
 */
const isBroken = (check: LinkCheck, event: LoggedEvent) => check.verdict === "broken" || event.chain.status === "broken";

function ChainVerdict({ checks, events }: { checks: LinkCheck[]; events: LoggedEvent[] }) {
  const broken = checks.flatMap((check, index) => (isBroken(check, events[index]!) ? [{ check, event: events[index]! }] : []));
  const verified = checks.filter((check) => check.verdict === "verified").length;
  const unchained = checks.length - verified - broken.length;
  if (broken.length > 0) {
    return (
      <div class="verdict verdict-broken" role="alert" data-testid="chain-verdict">
        <strong>✗ Hash chain broken</strong> at revision {broken.map(({ event }) => event.revision).join(", ")}: the record
        was changed after it was written. {verified} of {checks.length} links hold.
      </div>
    );
  }
  return (
    <div class="verdict verdict-intact" data-testid="chain-verdict">
      <strong>✓ Hash chain intact</strong>: all {verified} links checked in this browser (SHA-256 over RFC 8785 JSON).
      {unchained > 0 && ` ${unchained} events predate hash chains and carry no link.`}
    </div>
  );
}

/** The payment at any moment of its life: each step is the state one event leaves. */
function AsOfSlider({ events, states }: { events: LoggedEvent[]; states: Array<Transaction | null> }) {
  const [index, setIndex] = useState(events.length - 1);
  const event = events[index];
  const state = states[index];
  if (!event) return null;
  return (
    <section class="as-of" aria-label="As of">
      <label for="as-of">
        As of <time dateTime={event.occurredAt}>{formatTime(event.occurredAt)}</time> (after revision {event.revision})
      </label>
      <input
        id="as-of"
        type="range"
        min={0}
        max={events.length - 1}
        step={1}
        value={index}
        aria-valuetext={`${formatTime(event.occurredAt)}, after ${event.type}`}
        onInput={(input) => setIndex(Number(input.currentTarget.value))}
      />
      <p data-testid="as-of-state" aria-live="polite">
        {state ? (
          <>
            <StatusBadge status={state.state} /> {formatAmount(state.amount, state.currency)}, captured{" "}
            {formatAmount(state.capturedAmount, state.currency)}, refunded {formatAmount(state.refundedAmount, state.currency)}
            {state.voided ? ", voided" : ""}
          </>
        ) : (
          "This transaction did not exist yet."
        )}
      </p>
    </section>
  );
}

function TimelineEvent({
  event,
  check,
  state,
  posted,
  viewedId,
}: {
  event: LoggedEvent;
  check: LinkCheck;
  state: Transaction | null;
  /** The journal entries the event posted (none when it moved no money). */
  posted: JournalEntry[];
  viewedId: string;
}) {
  const concerns = typeof event.data.transactionId === "string" ? event.data.transactionId : null;
  const verdict = isBroken(check, event) ? "broken" : check.verdict;
  return (
    <li class={`event event-${verdict}`} data-verdict={verdict} data-revision={event.revision} data-event-id={event.id}>
      <div class="event-head">
        <span class="revision">#{event.revision}</span>
        <strong>{event.type}</strong>
        <time dateTime={event.occurredAt}>{formatTime(event.occurredAt)}</time>
      </div>
      <p>
        Recorded by {recordedBy(event)}
        {concerns && concerns !== viewedId && (
          <>
            {" "}
            about{" "}
            <a href={linkTo(["transactions", concerns])} class="mono">
              …{shortId(concerns)}
            </a>
          </>
        )}
        .{" "}
        {state ? (
          <>
            Leaves this transaction <StatusBadge status={state.state} />, captured {formatAmount(state.capturedAmount, state.currency)},
            refunded {formatAmount(state.refundedAmount, state.currency)}
            {state.voided ? ", voided" : ""}.
          </>
        ) : (
          "This transaction did not exist yet."
        )}
      </p>
      {posted.length > 0 && (
        <div class="posted" data-testid="posted-entries">
          {posted.map((entry) => (
            <div key={entry.id} data-entry-kind={entry.kind}>
              Posted <strong>{entry.kind.replaceAll("_", " ")}</strong>:
              <EntryLines lines={entry.lines} />
            </div>
          ))}
        </div>
      )}
      <p class="link-check">{linkText(check, event)}</p>
      {event.chain.problems.length > 0 && (
        <ul class="link-problems" aria-label="What the service found">
          {event.chain.problems.map((problem) => (
            <li key={problem.code} data-testid="link-problem">
              {problem.message}: expected <code>{problem.expected ?? "none"}</code>, found <code>{problem.found ?? "none"}</code>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function linkText(check: LinkCheck, event: LoggedEvent): string {
  // The service read the stored record (and the event before it): its finding outranks this browser's.
  if (check.verdict !== "broken" && event.chain.status === "broken") {
    return "✗ The service found this link broken, though this browser's check of the event as served holds:";
  }
  switch (check.verdict) {
    case "verified":
      return `✓ Link verified: ${check.hash.slice(0, 16)}…`;
    case "broken":
      return `✗ Chain breaks here: ${check.reason}.`;
    case "unchained":
      return "– No link: recorded before hash chains.";
  }
}
