import { EventEmitter, once } from "node:events";

const committed = new EventEmitter().setMaxListeners(0);

/** Called by a projection runner after each batch it commits in this process. */
export function announceReadModelChange(): void {
  committed.emit("change");
}

/**
 * Waits until a read model reflects a write (the check passes), so the caller's next GET sees
 * it. Checks again whenever a runner in this process commits a batch, and at least every 50 ms
 * for runners elsewhere. Gives up after the timeout: the write is durable regardless, and the
 * read model follows.
 */
export async function waitForReadModel(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Listen before checking, so a batch committed during the check still wakes us.
    const changed = once(committed, "change", { signal: AbortSignal.timeout(50) }).catch(() => undefined);
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await changed;
  }
}
