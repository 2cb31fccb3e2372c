import type { KnownBlock, ModalView } from '@slack/types';
import { type Locale, messages } from '../src/i18n';
import type { EvidenceMeta } from './carried';
import { API_TEXT_MAX } from './errors';
import { FILE_NAME_MAX } from './limit-request';
import { context, escapeClipped, escapeMrkdwn, type SlackMessage, sandboxNoteBlocks, section, sections, TEXT_MAX } from './message';
import { modalTitle } from './modal';

export const EVIDENCE_CALLBACK = 'dispute_evidence';
export const EVIDENCE_BLOCK = { documents: 'documents', note: 'note', disputeId: 'dispute_id' } as const;
/** What Slack's file input allows at once; the API states no limit of its own. */
export const MAX_EVIDENCE_FILES = 10;

/** The form: the files (checked and uploaded like limit proofs) and an optional note. */
export function evidenceModal(locale: Locale, meta: EvidenceMeta, sandbox: boolean): ModalView {
  const m = messages(locale).evidence;
  const e = messages(locale).pixEvents;
  const head: KnownBlock[] = meta.disputeId
    ? [section(m.intro(`\`${escapeMrkdwn(meta.disputeId)}\``))]
    : [
        {
          type: 'input',
          block_id: EVIDENCE_BLOCK.disputeId,
          label: { type: 'plain_text', text: e.disputeIdInput },
          hint: { type: 'plain_text', text: e.disputeIdHint },
          element: { type: 'plain_text_input', action_id: 'text', max_length: 64 },
        },
      ];
  const blocks: KnownBlock[] = [
    ...head,
    context(m.introNote),
    {
      type: 'input',
      block_id: EVIDENCE_BLOCK.documents,
      label: { type: 'plain_text', text: m.filesLabel },
      hint: { type: 'plain_text', text: m.filesHint(MAX_EVIDENCE_FILES) },
      element: { type: 'file_input', action_id: 'files', filetypes: ['pdf', 'png', 'jpg', 'jpeg', 'webp'], max_files: MAX_EVIDENCE_FILES },
    },
    {
      type: 'input',
      block_id: EVIDENCE_BLOCK.note,
      optional: true,
      label: { type: 'plain_text', text: m.noteLabel },
      hint: { type: 'plain_text', text: m.noteHint },
      element: { type: 'plain_text_input', action_id: 'text', multiline: true, max_length: 2000 },
    },
    ...sandboxNoteBlocks(locale, sandbox),
  ];
  return {
    type: 'modal',
    callback_id: EVIDENCE_CALLBACK,
    title: modalTitle(m.title),
    submit: { type: 'plain_text', text: m.submit },
    close: { type: 'plain_text', text: messages(locale).common.cancel },
    private_metadata: JSON.stringify(meta),
    blocks,
  };
}

/** Shown while the files go up: the modal stays open, with progress. */
export function evidenceProgressModal(locale: Locale, step: string, done: number, total: number): ModalView {
  const m = messages(locale);
  const bar = total > 0 ? `${'▓'.repeat(done)}${'░'.repeat(total - done)}  ` : '';
  return {
    type: 'modal',
    callback_id: `${EVIDENCE_CALLBACK}_progress`,
    title: modalTitle(m.evidence.title),
    close: { type: 'plain_text', text: m.common.close },
    blocks: [section(`:hourglass_flowing_sand: ${step}`), context(`${bar}${m.evidence.progressNote}`)],
  };
}

export interface EvidenceRecord {
  disputeId: string;
  userId: string;
  fileNames: string[];
  fileIds: string[];
  note?: string;
}

/** The channel's record of what was attached, in the language of the person who sent it. */
export function evidenceSentMessage(locale: Locale, record: EvidenceRecord): SlackMessage {
  const m = messages(locale).evidence;
  const files = record.fileNames.map((name, i) =>
    m.fileLine({ name: escapeClipped(name, FILE_NAME_MAX), fileId: `\`${escapeMrkdwn(record.fileIds[i] ?? '?')}\`` }),
  );
  const blocks: KnownBlock[] = [
    section(m.sentTitle({ dispute: `\`${escapeMrkdwn(record.disputeId)}\``, user: `<@${record.userId}>` })),
    ...sections(files),
  ];
  // The note (up to 2,000 characters as typed) whole when it fits a section, escaped.
  if (record.note) blocks.push(section(m.note(escapeClipped(record.note, TEXT_MAX.section - 100))));
  return { text: m.sentText({ disputeId: record.disputeId, count: record.fileNames.length }), blocks };
}

/** The 403 `DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED`, in words (the API's own text quoted as it came). */
export function evidenceFeatureText(locale: Locale, apiText: string | undefined): string {
  return messages(locale).evidence.featureOff(apiText ? escapeClipped(apiText, API_TEXT_MAX) : undefined);
}
