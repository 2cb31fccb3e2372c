import { escapeMrkdwn, plain, type SlackMessage } from './message';

/** `03/2027`. */
export const periodText = (month: number, year: number) => `${String(month).padStart(2, '0')}/${year}`;

const REPEAT_IS_SAFE = 'Repeating this command does not charge again: the Pix service issues each installment only once.';

export interface BookletInput {
  subscriptionId: string;
  month: number;
  year: number;
}

/** `<subscription>-<yyyy>-<mm>.pdf`: the file's name in Slack. */
export function bookletFileName(input: BookletInput): string {
  return `${input.subscriptionId}-${input.year}-${String(input.month).padStart(2, '0')}.pdf`;
}

export function bookletTitle(input: BookletInput): string {
  return `Payment booklet ${input.subscriptionId} up to ${periodText(input.month, input.year)}`;
}

/** The comment posted with the PDF in the channel (plain text: Slack shows it above the file). */
export function bookletComment(input: BookletInput & { userId: string }): string {
  return `Payment booklet of subscription ${input.subscriptionId}: the installments up to ${periodText(input.month, input.year)}, issued by <@${input.userId}>.`;
}

/** The ephemeral answer once the PDF is in the channel. */
export function bookletPostedMessage(input: BookletInput & { fileName: string; bytes: number }): SlackMessage {
  const size = input.bytes >= 1024 * 1024 ? `${(input.bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.max(1, Math.round(input.bytes / 1024))} KiB`;
  return plain(
    `:white_check_mark: Payment booklet of subscription \`${escapeMrkdwn(input.subscriptionId)}\` up to ${periodText(input.month, input.year)} posted here as \`${escapeMrkdwn(input.fileName)}\` (${size}).\n${REPEAT_IS_SAFE}`,
  );
}

export const bookletMessages = {
  /** The bot is not in the channel: the booklet was issued, the file not posted. */
  notInChannel: (input: BookletInput): SlackMessage =>
    plain(
      `The booklet of subscription \`${escapeMrkdwn(input.subscriptionId)}\` up to ${periodText(input.month, input.year)} was issued, but I cannot post files in this channel. Invite me with \`/invite @Pix Ops\` (or run the command in a DM with me) and run it again. ${REPEAT_IS_SAFE}`,
    ),
  postFailed: (input: BookletInput, slackError: string): SlackMessage =>
    plain(
      `The booklet of subscription \`${escapeMrkdwn(input.subscriptionId)}\` up to ${periodText(input.month, input.year)} was issued, but Slack refused the file (\`${escapeMrkdwn(slackError)}\`), so it was not posted. ${REPEAT_IS_SAFE}`,
    ),
  notAPdf: (input: BookletInput): SlackMessage =>
    plain(
      `The Pix service answered the booklet of subscription \`${escapeMrkdwn(input.subscriptionId)}\` with something that is not a PDF, so nothing was posted. ${REPEAT_IS_SAFE}`,
    ),
  /** No answer (or a 5xx) to a read that issues charges: some may have been issued. */
  noAnswer: (input: BookletInput, detail: string): SlackMessage =>
    plain(
      `The Pix service did not answer properly while issuing the booklet of subscription \`${escapeMrkdwn(input.subscriptionId)}\` up to ${periodText(input.month, input.year)} (${detail}); some installments may have been issued. Nothing was posted. ${REPEAT_IS_SAFE}`,
    ),
};
