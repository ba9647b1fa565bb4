/**
 * An `awaited` for a subscription's tests: `gathering` resolves once the subscriber starts letting
 * events gather (it asks whether anyone awaits it), and `awaitNow` plays the request that awaits it.
 */
export function awaitedOnDemand() {
  let gatheringStarted!: () => void;
  const gathering = new Promise<void>((resolve) => (gatheringStarted = resolve));
  let release: (() => void) | undefined;
  const awaited = (signal: AbortSignal) => {
    gatheringStarted();
    return new Promise<void>((resolve) => {
      release = resolve;
      signal.addEventListener("abort", () => resolve(), { once: true });
    });
  };
  return { awaited, gathering, awaitNow: () => release?.() };
}
