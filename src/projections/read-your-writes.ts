import { setTimeout as sleep } from "node:timers/promises";

/**
 * Waits until a read model reflects a write (the check passes), so the caller's next GET sees
 * it. Gives up after the timeout: the write is durable regardless, and the read model follows.
 */
export async function waitForReadModel(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 2; ; delay = Math.min(delay * 2, 50)) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await sleep(delay);
  }
}
