import { useLayoutEffect, useRef, useState } from "preact/hooks";
import { type Action, type ActionName, actionsFor, consequenceOf, requestOf } from "../actions.ts";
import { ApiError, apiPost, newIdempotencyKey, type Role } from "../api.ts";
import { formatAmount, majorUnits, parseAmount } from "../format.ts";
import type { Transaction } from "../types.ts";

/**
 * What an action's answer was, for the timeline to show above the transaction it reloads: a
 * refusal (409, 422) means its state was not what this page showed, so the page shows it again.
 */
export interface ActionOutcome {
  tone: "done" | "refused";
  text: string;
  /** The transaction the action recorded, approved or not. */
  recorded: Transaction | null;
}

/** The operator's one intent: its amount, and the Idempotency-Key every sending of it carries. */
interface Intent {
  action: Action;
  amount: number | null;
  reason: string;
  idempotencyKey: string;
}

const verbs: Record<ActionName, { label: string; past: string }> = {
  capture: { label: "Capture", past: "Captured" },
  refund: { label: "Refund", past: "Refunded" },
  void: { label: "Void", past: "Voided" },
};

export function TransactionActions({
  transaction,
  role,
  onOutcome,
}: {
  transaction: Transaction;
  role: Role;
  onOutcome: (outcome: ActionOutcome) => void;
}) {
  const actions = actionsFor(transaction);
  const [open, setOpen] = useState<Action | null>(null);
  const [intent, setIntent] = useState<Intent | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const choose = (action: Action | null) => {
    setProblem(null);
    setIntent(null);
    setOpen(action);
    // A void takes nothing to type: its choice is the intent, confirmed next.
    if (action && !action.takesAmount) setIntent({ action, amount: null, reason: "", idempotencyKey: newIdempotencyKey() });
  };

  return (
    <section aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      {role === "admin" ? (
        <p class="muted">Capture, refund and void are the client's to make: sign in with its API key (an admin key makes no transaction).</p>
      ) : actions.length === 0 ? (
        <p class="muted">
          Nothing to capture, refund or void: this {transaction.type} is {transaction.state}
          {transaction.settledAt ? " and settled" : ""}.
        </p>
      ) : (
        <div class="action-buttons">
          {actions.map((action) => (
            <button key={action.name} type="button" class="secondary" aria-pressed={open?.name === action.name} onClick={() => choose(action)}>
              {verbs[action.name].label}…
            </button>
          ))}
        </div>
      )}
      {open && !intent && (
        <AmountForm
          key={open.name}
          action={open}
          transaction={transaction}
          onReview={(amount, reason) => {
            setProblem(null);
            // A new review is a new intent: a new key, never the one of a request already answered.
            setIntent({ action: open, amount, reason, idempotencyKey: newIdempotencyKey() });
          }}
          onProblem={setProblem}
          onCancel={() => choose(null)}
        />
      )}
      {intent && (
        <Confirmation
          key={intent.idempotencyKey}
          intent={intent}
          transaction={transaction}
          onAnswered={onOutcome}
          onNoAnswer={setProblem}
          onBack={() => (intent.action.takesAmount ? setIntent(null) : choose(null))}
        />
      )}
      {problem && (
        <p class="error" role="alert" data-testid="action-problem">
          {problem}
        </p>
      )}
    </section>
  );
}

function AmountForm({
  action,
  transaction,
  onReview,
  onProblem,
  onCancel,
}: {
  action: Action;
  transaction: Transaction;
  onReview: (amount: number, reason: string) => void;
  onProblem: (problem: string) => void;
  onCancel: () => void;
}) {
  const { currency } = transaction;
  const [amount, setAmount] = useState(majorUnits(action.available, currency));
  const [reason, setReason] = useState("");
  const submit = (event: Event) => {
    event.preventDefault();
    const parsed = parseAmount(amount, currency);
    if ("problem" in parsed) return onProblem(parsed.problem);
    if (parsed.amount === 0) return onProblem(`${verbs[action.name].label} an amount above zero.`);
    onReview(parsed.amount, reason.trim());
  };
  const left = action.name === "capture" ? "still capturable" : "still refundable";
  return (
    <form class="action-form" onSubmit={submit} aria-label={`${verbs[action.name].label} this ${transaction.type}`}>
      <div class="field">
        <label for="action-amount">
          Amount to {action.name} ({currency})
        </label>
        <input id="action-amount" inputMode="decimal" value={amount} onInput={(event) => setAmount(event.currentTarget.value)} aria-describedby="action-amount-hint" />
        <p id="action-amount-hint" class="muted">
          {formatAmount(action.available, currency)} {left}.
        </p>
      </div>
      {action.name === "refund" && (
        <div class="field">
          <label for="action-reason">Reason (optional)</label>
          <input id="action-reason" value={reason} maxLength={500} onInput={(event) => setReason(event.currentTarget.value)} />
        </div>
      )}
      <div class="actions">
        <button type="submit">Review the {action.name}</button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Confirmation({
  intent,
  transaction,
  onAnswered,
  onNoAnswer,
  onBack,
}: {
  intent: Intent;
  transaction: Transaction;
  onAnswered: (outcome: ActionOutcome) => void;
  onNoAnswer: (problem: string) => void;
  onBack: () => void;
}) {
  const { action, amount, reason, idempotencyKey } = intent;
  const heading = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => heading.current?.focus(), []);
  // Set in the click itself: a second click that comes before the page has redrawn the button
  // disabled sends nothing. Were it sent, it would carry the same key and charge nothing twice.
  const sending = useRef(false);
  const [busy, setBusy] = useState(false);
  const verb = verbs[action.name];
  const money = amount === null ? formatAmount(action.available, transaction.currency) : formatAmount(amount, transaction.currency);

  const confirm = async () => {
    if (sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const recorded = await apiPost<Transaction>(`/transactions/${action.name}`, requestOf(action.name, transaction.id, amount, reason), idempotencyKey);
      onAnswered({ tone: "done", text: `${verb.past} ${money}: the ${recorded.type} was approved.`, recorded });
    } catch (error) {
      if (!(error instanceof ApiError)) {
        // No answer: the request may or may not have been made. Sent again, the same key gets the
        // first request's outcome from the API, never a second one.
        onNoAnswer(`No answer from the API (${String(error)}): whether the ${action.name} was made is not known. Confirm again to ask; it cannot be made twice.`);
        return;
      }
      if (error.code === "idempotency_request_in_progress") {
        onNoAnswer(`The API is still making this ${action.name}. Confirm again in a moment to see how it ended; it cannot be made twice.`);
        return;
      }
      const refusal = `The API refused the ${action.name} (${error.status} ${error.code}): ${error.message}`;
      onAnswered({
        tone: "refused",
        text: error.transaction ? `${refusal} The ${error.transaction.type} was recorded as ${error.transaction.status}.` : refusal,
        recorded: error.transaction,
      });
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <div class="confirmation" role="group" aria-labelledby="confirmation-title">
      <h3 id="confirmation-title" ref={heading} tabIndex={-1}>
        Confirm the {action.name}
      </h3>
      <p data-testid="consequence">{consequenceOf(action, transaction, amount)}</p>
      <div class="actions">
        <button type="button" onClick={confirm} disabled={busy}>
          {verb.label} {money}
        </button>
        <button type="button" class="secondary" onClick={onBack} disabled={busy}>
          Back
        </button>
      </div>
    </div>
  );
}
