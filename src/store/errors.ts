import { errorText } from '../runtime/error-text';

/**
 * The store could not be reached or did not answer in time (Redis down, restarting or hung; a sqlite
 * file that cannot be opened). Every store operation fails with this error rather than hanging, so a
 * handler can tell the person clearly (`messages(locale).common.storeUnavailable`), and the poller
 * leaves the request for a later tick.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';

  constructor(
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    super(`The store is unavailable (${operation}): ${errorText(cause)}`);
  }
}

export function isStoreUnavailable(err: unknown): err is StoreUnavailableError {
  return err instanceof StoreUnavailableError;
}

/**
 * The sqlite file cannot be used: its folder cannot be made, or the file cannot be opened as a
 * database. The message says why in words and never quotes the path (start-up names STORE_URL).
 */
export class StoreLocationError extends Error {
  override readonly name = 'StoreLocationError';
}

/**
 * The store is reachable but must not be used as it is: a Postgres schema migrated by a newer app, a
 * Redis that may evict keys. The app does not start on it; the message says why and what to change.
 */
export class StoreRefusedError extends Error {
  override readonly name = 'StoreRefusedError';
}
