import type { KnownBlock, ModalView } from '@slack/types';
import { context, escapeMrkdwn, section, type SlackMessage } from './message';
import { modalTitle } from './modal';

export const EVIDENCE_CALLBACK = 'dispute_evidence';
export const EVIDENCE_BLOCK = { documents: 'documents', note: 'note' } as const;
/** What Slack's file input allows at once; the API states no limit of its own. */
export const MAX_EVIDENCE_FILES = 10;
const TITLE = 'Dispute evidence';

export interface EvidenceMeta {
  channelId: string;
  disputeId: string;
}

/** The form: the files (checked and uploaded like limit proofs) and an optional note. */
export function evidenceModal(meta: EvidenceMeta, sandbox: boolean): ModalView {
  const blocks: KnownBlock[] = [
    section(`Evidence for dispute \`${escapeMrkdwn(meta.disputeId)}\``),
    context('Each file is uploaded to the Pix service as dispute evidence, then attached to the dispute by its file id.'),
    {
      type: 'input',
      block_id: EVIDENCE_BLOCK.documents,
      label: { type: 'plain_text', text: 'Evidence files' },
      hint: { type: 'plain_text', text: `PDF, PNG, JPEG or WebP, at most 10 MiB each, ${MAX_EVIDENCE_FILES} files at once.` },
      element: { type: 'file_input', action_id: 'files', filetypes: ['pdf', 'png', 'jpg', 'jpeg', 'webp'], max_files: MAX_EVIDENCE_FILES },
    },
    {
      type: 'input',
      block_id: EVIDENCE_BLOCK.note,
      optional: true,
      label: { type: 'plain_text', text: 'Note' },
      hint: {
        type: 'plain_text',
        text: 'Posted in this channel with the record of what was sent. The Pix API has no documented field for a note, so it is not sent to the service.',
      },
      element: { type: 'plain_text_input', action_id: 'text', multiline: true, max_length: 2000 },
    },
  ];
  if (sandbox) blocks.push(context(':test_tube: *SANDBOX*: a local test Pix API, no real accounts or money.'));
  return {
    type: 'modal',
    callback_id: EVIDENCE_CALLBACK,
    title: modalTitle(TITLE),
    submit: { type: 'plain_text', text: 'Send evidence' },
    close: { type: 'plain_text', text: 'Cancel' },
    private_metadata: JSON.stringify(meta),
    blocks,
  };
}

/** Shown while the files go up: the modal stays open, with progress. */
export function evidenceProgressModal(step: string, done: number, total: number): ModalView {
  const bar = total > 0 ? `${'▓'.repeat(done)}${'░'.repeat(total - done)}  ` : '';
  return {
    type: 'modal',
    callback_id: `${EVIDENCE_CALLBACK}_progress`,
    title: modalTitle(TITLE),
    close: { type: 'plain_text', text: 'Close' },
    blocks: [section(`:hourglass_flowing_sand: ${step}`), context(`${bar}You can close this window: the files keep going up, and the result is posted in the channel.`)],
  };
}

export interface EvidenceRecord {
  disputeId: string;
  userId: string;
  fileNames: string[];
  fileIds: string[];
  note?: string;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The channel's record of what was attached. */
export function evidenceSentMessage(record: EvidenceRecord): SlackMessage {
  const files = record.fileNames.map((name, i) => `• ${escapeMrkdwn(name)} (file \`${escapeMrkdwn(record.fileIds[i] ?? '?')}\`)`);
  const blocks: KnownBlock[] = [
    section(`*Dispute evidence sent* for dispute \`${escapeMrkdwn(record.disputeId)}\` by <@${record.userId}>`),
    section(files.join('\n')),
  ];
  if (record.note) blocks.push(section(`*Note:* ${escapeMrkdwn(clip(record.note, 2000))}`));
  return { text: `Dispute evidence sent for dispute ${record.disputeId}: ${record.fileNames.length} file(s)`, blocks };
}

/** The 403 `DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED`, in words. */
export function evidenceFeatureText(apiText: string | undefined): string {
  return [
    ':no_entry: The Pix service does not accept evidence by uploaded file for this company: the feature `DISPUTE_EVIDENCE_FILE_ID` is not enabled for it',
    `(error code \`DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED\`${apiText ? `, “${escapeMrkdwn(apiText)}”` : ''}).`,
    'Ask the Pix service to enable it for the company, then send the evidence again.',
    'The files were uploaded, but nothing was attached to the dispute.',
  ].join(' ');
}
