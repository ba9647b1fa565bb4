import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { ApiError } from "../api.ts";
import { formatAmount } from "../format.ts";
import type { Loaded } from "../load.ts";

/** The view's title; it takes the focus when the view opens, so keyboard and screen reader users land on it. */
export function ViewHeading({ children }: { children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focused as the view appears, before anything can be typed: an effect that ran after paint
  // could take the focus back from a field the person had already tabbed to.
  useLayoutEffect(() => heading.current?.focus(), []);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}

const badgeTones: Record<string, string> = {
  approved: "good",
  authorized: "good",
  partially_captured: "good",
  captured: "good",
  succeeded: "good",
  matched: "good",
  delivered: "good",
  balanced: "good",
  enabled: "good",
  partially_refunded: "good",
  pending: "waiting",
  retrying: "waiting",
  declined: "bad",
  failed: "bad",
  mismatched: "bad",
  "not balanced": "bad",
};

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${badgeTones[status] ?? "neutral"}`}>{status}</span>;
}

export function Amount({ amount, currency }: { amount: number; currency: string }) {
  return <span class="amount">{formatAmount(amount, currency)}</span>;
}

/** A table that scrolls sideways on a narrow screen; focusable so the keyboard can scroll it too. */
export function TableRegion({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      <table>{children}</table>
    </div>
  );
}

export function ErrorMessage({ error }: { error: Error }) {
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <p class="error" role="alert">
      {notFound ? "Not found: it does not exist, or this key may not see it." : error.message}
    </p>
  );
}

/** What a load shows while it runs or when it failed; the loaded value goes to `children`. */
export function Loading<T>({ loaded, children }: { loaded: Loaded<T>; children: (value: T) => ComponentChildren }) {
  if (loaded.state === "loading") return <p class="muted" aria-live="polite">Loading…</p>;
  if (loaded.state === "failed") return <ErrorMessage error={loaded.error} />;
  return <>{children(loaded.value)}</>;
}
