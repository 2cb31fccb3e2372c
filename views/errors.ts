import type { PixApiError } from '../src/pix/errors';
import { escapeMrkdwn, plain, type SlackMessage } from './message';

/**
 * A Pix API failure in words, the same way everywhere: the API's own text when it sent one, "not
 * found" for 404 (never "forbidden"), the missing scope by name, and for no answer, that nothing was
 * done (or, for a write, that it may have been).
 */
export function pixErrorText(err: PixApiError, action: string, options: { write?: boolean } = {}): string {
  if (err.kind === 'network' || err.kind === 'timeout') {
    return options.write
      ? `The Pix service did not answer while trying to ${action}; it may or may not have been done. Check before trying again.`
      : `The Pix service could not be reached, so I could not ${action}. Nothing was changed; try again in a moment.`;
  }
  if (err.kind === 'invalid_response') {
    return `The Pix service answered in a form I do not understand while trying to ${action}. Nothing more was done.`;
  }
  const scope = err.missingScope;
  if (scope) return `Could not ${action}: the application lacks the Pix API scope \`${scope}\` (${quote(err.error)}).`;
  if (err.status === 404) return `Could not ${action}: not found${err.error ? ` (${quote(err.error)})` : ''}.`;
  if (err.status === 401) return `Could not ${action}: the Pix API did not accept the configured AppID${err.error ? ` (${quote(err.error)})` : ''}.`;
  if (err.error) return `Could not ${action}: ${quote(err.error)}`;
  if (err.status >= 500) return `Could not ${action}: the Pix service failed (HTTP ${err.status}). Nothing was changed; try again later.`;
  return `Could not ${action}: the Pix service answered HTTP ${err.status}.`;
}

export function pixErrorMessage(err: PixApiError, action: string, options: { write?: boolean } = {}): SlackMessage {
  return plain(pixErrorText(err, action, options));
}

function quote(text: string | undefined): string {
  return `“${escapeMrkdwn(text ?? '')}”`;
}
