import { errorText, PixOpsError } from '../errors';
/**
 * The store could not be reached or did not answer in time (Redis down, restarting or hung; a sqlite
 * file that cannot be opened). Every store operation fails with this error rather than hanging, so a
 * handler can tell the person clearly (`messages(locale).common.storeUnavailable`), and the poller
 * leaves the request for a later tick.
 */
export class StoreUnavailableError extends PixOpsError {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'pixops_store_unavailable';

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
export class StoreLocationError extends PixOpsError {
  override readonly name = 'StoreLocationError';
  readonly code = 'pixops_store_location';
}

/**
 * The store is reachable but must not be used as it is: a Postgres schema migrated by a newer app, a
 * Redis that may evict keys. The app does not start on it; the message says why and what to change.
 */
export class StoreRefusedError extends PixOpsError {
  override readonly name = 'StoreRefusedError';
  readonly code = 'pixops_store_refused';
}

/** The place holds no store of this app (nothing there, or under another namespace): a copy's source must hold one. */
export class NoStoreError extends StoreRefusedError {}

/**
 * The store's format is not this app's: newer (written by a newer app: it is never used), or, for a
 * store opened as it is (a copy's source, which is never changed), older. `where` names the store.
 */
export class StoreVersionError extends StoreRefusedError {
  constructor(
    where: string,
    readonly found: number,
    readonly known: number,
  ) {
    super(
      found > known
        ? `${where} is at version ${found}, newer than this app knows (version ${known}): run the app that wrote it (or a newer one), or restore a backup taken before`
        : `${where} is at version ${found}, older than this app's (version ${known}): start this version of the app on it once (it upgrades the store as it starts), then copy`,
    );
  }
}

/**
 * The store was asked what it cannot take: a record kind or key outside its rules, a lifetime or a
 * listing limit that is not a positive number, a value that is not JSON, a listing of keys from an
 * adapter that cannot list. A defect of the calling code, never of the data.
 */
export class StoreMisuseError extends PixOpsError {
  override readonly name = 'StoreMisuseError';
  readonly code = 'pixops_store_misuse';
}

/** A record to change is not there (an approval, a tracked request): nothing was written. */
export class NoSuchRecordError extends PixOpsError {
  override readonly name = 'NoSuchRecordError';
  readonly code = 'pixops_store_no_such_record';
}

/** A sealed value that is not one this app wrote (damaged, or not sealed at all): it cannot be opened, whatever the secret. */
export class UnreadableSealedValueError extends PixOpsError {
  override readonly name = 'UnreadableSealedValueError';
  readonly code = 'pixops_store_unreadable_sealed_value';
}

/** The Postgres migrations shipped with the app skip or repeat a number, or are missing: a broken build or install. */
export class BrokenMigrationsError extends PixOpsError {
  override readonly name = 'BrokenMigrationsError';
  readonly code = 'pixops_store_migrations_broken';
}
