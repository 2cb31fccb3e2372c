import { withDeadline } from '../runtime/deadline';
import { StoreUnavailableError } from './errors';

/** Runs one store operation with the store's time limit and error rule. */
export type Guard = <T>(operation: string, run: () => Promise<T>) => Promise<T>;

export interface GuardState {
  closed: boolean;
  /** Time limit of one operation; none for sqlite (its own busy timeout bounds it). */
  timeoutMs: number | undefined;
  /** Why the store may not be used (found after start): every operation fails with it. */
  refused?: Error;
}

/**
 * Every operation either succeeds or fails with StoreUnavailableError; none hangs (a Redis that is
 * reachable but does not answer) and none runs on a closed store.
 */
export function guardOf(state: GuardState): Guard {
  return async (operation, run) => {
    if (state.closed) throw new StoreUnavailableError(operation, 'the store is closed');
    if (state.refused) throw new StoreUnavailableError(operation, state.refused);
    try {
      const work = run();
      return await (state.timeoutMs === undefined ? work : withDeadline(work, state.timeoutMs));
    } catch (err) {
      throw err instanceof StoreUnavailableError ? err : new StoreUnavailableError(operation, err);
    }
  };
}

const isListing = (fn: unknown): fn is (...args: unknown[]) => AsyncGenerator<unknown> =>
  typeof fn === 'function' && (fn as { [Symbol.toStringTag]?: string })[Symbol.toStringTag] === 'AsyncGeneratorFunction';

/** A listing guarded step by step: each step is a round trip (a SCAN page on Redis), never the whole walk under one time limit. */
async function* guardedSteps<T>(operation: string, steps: AsyncGenerator<T>, guard: Guard): AsyncGenerator<T> {
  try {
    for (;;) {
      const step = await guard(operation, () => steps.next());
      if (step.done) return;
      yield step.value;
    }
  } finally {
    // A walk left early (or failed) lets go of what the listing holds, without waiting on a step still
    // under way: one that hung would hold this up for ever.
    steps.return(undefined).catch(() => undefined);
  }
}

/**
 * A backend's part with every method guarded (`label.method` names the operation): a method as one
 * operation, a listing step by step. Guarding here, once, spares every backend doing it. Every
 * method of a part is asynchronous, and a listing is an `async *` method: that is how it is told
 * from the others before it is called (a closed store calls nothing).
 */
export function guardAll<T extends object>(label: string, part: T, guard: Guard): T {
  return new Proxy(part, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      const operation = `${label}.${String(name)}`;
      if (isListing(value)) return (...args: unknown[]) => guardedSteps(operation, value.apply(target, args), guard);
      if (typeof value === 'function') {
        return (...args: unknown[]) => guard(operation, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      }
      return value;
    },
  });
}
