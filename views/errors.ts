import { FileOverCapError } from '../src/domain/proof-files';
import type { ErrorCode } from '../src/errors';
import { type ActionKey, type Locale, messages } from '../src/i18n';
import { NoDefaultAccountError } from '../src/pix/default-account';
import { PixApiError } from '../src/pix/errors';
import { escapeClipped, escapeMrkdwn, plain, type SlackMessage } from './message';

/**
 * The API's own error text is quoted whole up to this many characters (then cut with an ellipsis),
 * so that it fits, with the words around it, in one of Slack's 3,000-character texts.
 */
export const API_TEXT_MAX = 1000;

/** The API's own error text, escaped for mrkdwn and cut to API_TEXT_MAX. */
export function apiText(text: string): string {
  return escapeClipped(text, API_TEXT_MAX);
}

/**
 * A Pix API failure in words, the same way everywhere, in the reader's language: the API's own text
 * when it sent one (quoted as it came, never translated), "not found" for 404 (never "forbidden"),
 * the missing scope by name, and for no answer, that nothing was done (or, for a write that may have
 * reached the service, that it may have been: PixApiError.mayHaveWritten).
 */
export function pixErrorText(locale: Locale, err: PixApiError, actionKey: ActionKey, options: { write?: boolean } = {}): string {
  const m = messages(locale);
  const action = m.actions[actionKey];
  const e = m.pixErrors;
  // A write with no usable answer from the service itself (no answer, an unreadable one, a gateway's
  // 502 or 504) may have happened: say so, whatever the kind.
  if (options.write && err.mayHaveWritten) return e.noAnswerWrite(action);
  if (err.kind === 'network' || err.kind === 'timeout') return e.unreachable(action);
  if (err.kind === 'invalid_response') return e.invalidResponse(action);
  const apiText = err.error ? quote(err.error) : undefined;
  const scope = err.missingScope;
  if (scope) return e.missingScope({ action, scope, apiText: quote(err.error) });
  if (err.status === 404) return e.notFound({ action, apiText });
  if (err.status === 401) return e.badAppId({ action, apiText });
  if (apiText) return e.apiText({ action, apiText });
  if (err.status >= 500) return e.serverError({ action, status: err.status });
  return e.httpStatus({ action, status: err.status });
}

/** The store's failure, told by its code: views/ reads no module that does I/O. */
const STORE_UNAVAILABLE: ErrorCode = 'pixops_store_unavailable';

/**
 * Any failure in words: a Pix API failure (above), the store unavailable, no default account, or "something went wrong"
 * followed by what it means: nothing more was done (a read), check before trying again (a write
 * that may have happened), or nothing when the caller says what follows (`afterwards: 'none'`).
 */
export function failureText(
  locale: Locale,
  err: unknown,
  actionKey: ActionKey,
  options: { write?: boolean; afterwards?: 'nothingMore' | 'check' | 'none' } = {},
): string {
  if (err instanceof PixApiError) return pixErrorText(locale, err, actionKey, options);
  const m = messages(locale).common;
  // Nothing could be recorded, so nothing was sent: the person is told so, not that something went wrong somewhere.
  if ((err as { code?: unknown } | undefined)?.code === STORE_UNAVAILABLE) return m.storeUnavailable;
  if (err instanceof NoDefaultAccountError) return m.noDefaultAccount;
  if (err instanceof FileOverCapError) return messages(locale).files.overCap(escapeMrkdwn(err.fileName));
  const action = messages(locale).actions[actionKey];
  const then = options.afterwards ?? (options.write ? 'check' : 'nothingMore');
  return then === 'none' ? m.wentWrong(action) : then === 'check' ? m.wentWrongCheck(action) : m.wentWrongNothingMore(action);
}

export function pixErrorMessage(locale: Locale, err: PixApiError, actionKey: ActionKey, options: { write?: boolean } = {}): SlackMessage {
  return plain(pixErrorText(locale, err, actionKey, options));
}

function quote(text: string | undefined): string {
  return `“${apiText(text ?? '')}”`;
}
