import { PixApiError } from '../pix/errors';
import { errorText } from '../runtime/error-text';

/**
 * A short description of a failure for the log: which kind, which status or code. Built from known
 * fields rather than whole error objects, which can carry request configs and headers (AppIDs, tokens).
 */
export function describeError(err: unknown): Record<string, unknown> {
  if (err instanceof PixApiError) {
    return { pix: { operation: err.operation, kind: err.kind, status: err.status, ...(err.error ? { error: err.error } : {}) } };
  }
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
    };
  }
  return { err: errorText(err) };
}
