// The app's errors, one family (as bolt-js's errors.ts): each class derives from PixOpsError and names
// itself with a code, and every failure is described for the logs one way (describeError).

/** What went wrong, by the class that says so: stable, for the logs and for telling failures apart. */
export type ErrorCode =
  | 'pixops_config'
  | 'pixops_deadline_passed'
  | 'pixops_poller_stopped'
  | 'pixops_entry_table_invalid'
  | 'pixops_pix_api'
  | 'pixops_pix_budget_wait_aborted'
  | 'pixops_no_default_account'
  | 'pixops_file_over_cap'
  | 'pixops_usage'
  | 'pixops_store_unavailable'
  | 'pixops_store_location'
  | 'pixops_store_refused'
  | 'pixops_store_wrong_secret'
  | 'pixops_store_misuse'
  | 'pixops_store_no_such_record'
  | 'pixops_store_unreadable_sealed_value'
  | 'pixops_store_migrations_broken'
  | 'pixops_slack_post_unknown'
  | 'pixops_slack_pace'
  | 'pixops_slack_not_exact_client'
  | 'pixops_slack_upload_refused'
  | 'pixops_slack_listener_refused'
  | 'pixops_slack_incomplete_answer'
  | 'pixops_slack_upload_stalled'
  | 'pixops_slack_upload_file_short'
  | 'pixops_limit_request_delivery'
  | 'pixops_approval_in_doubt'
  | 'pixops_audit_entry_malformed'
  | 'pixops_no_start_of_day'
  | 'pixops_not_a_date'
  | 'pixops_tracked_record_missing'
  | 'pixops_webhook_keys_unavailable'
  | 'pixops_claim_lost';

export abstract class PixOpsError extends Error {
  abstract readonly code: ErrorCode;

  /** Its description for a log line: its code and message, and its cause's, described the same way. A class with more to tell says so. */
  describe(): Record<string, unknown> {
    return { code: this.code, err: this.message, ...(this.cause === undefined ? {} : { cause: describeError(this.cause) }) };
  }
}

/** The configuration cannot work (a variable missing, a path that cannot hold the store): the process does not start. */
export class ConfigError extends PixOpsError {
  readonly code = 'pixops_config';
}

/**
 * A claim the work runs under is not this holder's (it lapsed, or someone else had it first): the work
 * stops before its next write. One class for every claim held while working (an approval's, a
 * filing's: store/held-claim.ts); the message says which.
 */
export class ClaimLostError extends PixOpsError {
  readonly code = 'pixops_claim_lost';
}

/**
 * A failure's message, for a message that quotes it. Never the whole error object: a failed HTTP
 * call's error carries its request config, headers (AppIDs, tokens) included.
 */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Any failure, described for a log line: which kind, which status or code, what it says. Built from
 * known fields rather than whole error objects, which can carry request configs and headers (AppIDs,
 * tokens): the app's own errors describe themselves; Slack's (the Web API client's, Bolt's) by their
 * code, Slack's error and status, and their message; anything else by its message.
 */
export function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof PixOpsError) return err.describe();
  const e = err as
    | { code?: unknown; data?: { error?: unknown }; statusCode?: unknown; retryAfter?: unknown; message?: unknown }
    | undefined;
  if (typeof e?.code === 'string' && e.code.startsWith('slack_')) {
    return {
      slack: {
        code: e.code,
        ...(typeof e.data?.error === 'string' ? { error: e.data.error } : {}),
        ...(typeof e.statusCode === 'number' ? { status: e.statusCode } : {}),
        ...(typeof e.retryAfter === 'number' ? { retryAfter: e.retryAfter } : {}),
      },
      err: errorText(err),
    };
  }
  return { err: errorText(err) };
}
