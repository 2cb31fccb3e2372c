/** Waits until `probe` returns a truthy value, or fails after the deadline with `what` in the error. */
export async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 5_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Waits until the app has taken `total` deliveries in all (`app.inFlight.total`) and none is being
 * handled any more: the proof that the work of every delivery sent so far is over (a repeat skipped,
 * an event that publishes nothing), so that a "nothing more happened" check is made after it, not
 * after a guess of how long it takes.
 */
export function deliveriesDone(app: { inFlight: { total: number; size: number } }, total: number, timeoutMs = 10_000): Promise<unknown> {
  return waitFor(`${total} deliveries taken and none in flight`, () => app.inFlight.total >= total && app.inFlight.size === 0, timeoutMs);
}
