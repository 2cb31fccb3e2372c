import { PixOpsError } from '../errors';

/**
 * Slack answered `ok` without a field the app needs next (a message's `ts`, a view's or a channel's
 * id, an upload URL, a bot's id): nothing can go on from that answer. The message names the method
 * and the field.
 */
export class IncompleteSlackAnswerError extends PixOpsError {
  readonly code = 'pixops_slack_incomplete_answer';
}
