import { z } from 'zod';
import { FileOverCapError } from '../src/domain/proof-files';
import type { EntryContext, EntryRow } from '../src/entry/table';
import { type CommandRow, UsageError } from '../src/entry/table';
import { type Locale, messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import { fileLabel } from '../src/slack/files';
import { modalUpdater } from '../src/slack/modal-updates';
import { noticeMetadata, postOnce } from '../src/slack/post-once';
import { type CheckedFile, checkProofFiles, uploadCheckedFiles } from '../src/slack/proof-check';
import { isStoreUnavailable } from '../src/store/errors';
import { type EvidenceMeta, EvidenceMetaSchema, readCarried } from '../views/carried';
import {
  EVIDENCE_BLOCK,
  EVIDENCE_CALLBACK,
  evidenceFeatureText,
  evidenceModal,
  evidenceProgressModal,
  evidenceSentMessage,
  MAX_EVIDENCE_FILES,
} from '../views/dispute-evidence';
import { failureText, pixErrorText } from '../views/errors';
import { escapeMrkdwn, plain, section } from '../views/message';
import { messageModal } from '../views/modal';
import { PixIdSchema } from './parse';

export const FEATURE_ERROR_CODE = 'DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED';

export const disputeEvidenceCommand: CommandRow = {
  kind: 'command',
  id: 'dispute-evidence',
  argsUsage: '<disputeId>',
  summary: 'disputeEvidence',
  what: 'openEvidenceForm',
  role: 'operator',
  minArgs: 1,
  maxArgs: 1,
  async handler({ deps, args, triggerId, channelId, locale }) {
    const disputeId = args[0] ?? '';
    if (!PixIdSchema.safeParse(disputeId).success) throw new UsageError(messages(locale).usage.notDisputeId);
    // Nothing to read first: the form opens at once, well inside the trigger's three seconds.
    await deps.slack.retried.views.open({ trigger_id: triggerId, view: evidenceModal(locale, { channelId, disputeId }, deps.sandboxMode) });
    return null;
  },
};

const StateSchema = z.looseObject({
  value: z.string().nullish(),
  files: z.array(z.looseObject({ id: z.string() })).nullish(),
});

/** The first element of a block (block ids are the contract, action ids may change). */
function element(values: Record<string, Record<string, unknown>>, blockId: string) {
  const block = values[blockId];
  const parsed = StateSchema.safeParse((block && Object.values(block)[0]) ?? {});
  return parsed.success ? parsed.data : {};
}

const submitted: EntryRow = {
  kind: 'view',
  id: EVIDENCE_CALLBACK,
  role: 'operator',
  what: 'sendDisputeEvidence',
  errorBlock: EVIDENCE_BLOCK.documents,
  async handler({ ack, body, view }, ctx) {
    const { locale } = ctx;
    const m = messages(locale);
    const read = readCarried(EvidenceMetaSchema, view.private_metadata);
    if (!read) {
      await ack({ response_action: 'errors', errors: { [EVIDENCE_BLOCK.documents]: m.common.formOutOfDate } });
      return;
    }
    const values = view.state.values as Record<string, Record<string, unknown>>;
    // Opened from a dispute's root that did not say the dispute's id: the form asked for it.
    const disputeId = read.disputeId ?? element(values, EVIDENCE_BLOCK.disputeId).value?.trim();
    if (!disputeId || !PixIdSchema.safeParse(disputeId).success) {
      await ack({ response_action: 'errors', errors: { [EVIDENCE_BLOCK.disputeId]: m.pixEvents.disputeIdRequired } });
      return;
    }
    const meta = { channelId: read.channelId, disputeId };
    const files = element(values, EVIDENCE_BLOCK.documents).files ?? [];
    if (files.length === 0) {
      await ack({ response_action: 'errors', errors: { [EVIDENCE_BLOCK.documents]: m.evidence.attachEvidence } });
      return;
    }
    if (files.length > MAX_EVIDENCE_FILES) {
      await ack({
        response_action: 'errors',
        errors: { [EVIDENCE_BLOCK.documents]: m.evidence.tooManyFiles({ max: MAX_EVIDENCE_FILES, count: files.length }) },
      });
      return;
    }
    const checked = await checkProofFiles(locale, ctx.deps, files);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: { [EVIDENCE_BLOCK.documents]: checked.problem } });
      return;
    }
    const note = element(values, EVIDENCE_BLOCK.note).value?.trim() || undefined;
    const total = checked.files.length;
    await ack({ response_action: 'update', view: evidenceProgressModal(locale, m.evidence.uploading({ index: 1, total }), 0, total) });
    await sendEvidence(ctx, { viewId: view.id, userId: body.user.id, meta, files: checked.files, note });
  },
};

/**
 * After the acknowledgement: streams each file from Slack into `POST /api/v1/files` (purpose
 * DISPUTE_EVIDENCE), then attaches them all with `documents: [{ fileId }]` (never a url beside it).
 */
async function sendEvidence(
  ctx: EntryContext,
  job: { viewId: string; userId: string; meta: Required<EvidenceMeta>; files: CheckedFile[]; note?: string },
): Promise<void> {
  const { deps, locale } = ctx;
  const m = messages(locale);
  const show = modalUpdater(deps.slack.retried, job.viewId);
  const total = job.files.length;
  let stage: 'upload' | 'attach' = 'upload';
  const fileIds: string[] = [];
  try {
    await uploadCheckedFiles(
      deps,
      job.files,
      'DISPUTE_EVIDENCE',
      (i, checked) =>
        i > 0
          ? show(evidenceProgressModal(locale, m.evidence.uploadingNamed({ index: i + 1, total, name: fileLabel(checked.file) }), i, total))
          : Promise.resolve(),
      fileIds,
    );
    stage = 'attach';
    await show(evidenceProgressModal(locale, m.evidence.attaching, total, total));
    await deps.pix.addDisputeEvidence(deps.mainAppId, job.meta.disputeId, { documents: fileIds.map((fileId) => ({ fileId })) });
  } catch (err) {
    deps.logger.warn(
      {
        err: err instanceof PixApiError ? { operation: err.operation, status: err.status, errorCode: err.errorCode } : String(err),
        user: job.userId,
      },
      'dispute evidence not sent',
    );
    const text = evidenceFailureText(locale, err, stage, fileIds.length);
    if (!(await show(messageModal(locale, m.evidence.title, { text, blocks: [section(text)] })))) {
      await deps.slack.retried.chat.postMessage({ channel: job.userId, ...ctx.present(plain(text)) }).catch(() => undefined);
    }
    return;
  }

  deps.logger.info({ disputeId: job.meta.disputeId, user: job.userId, files: total }, 'dispute evidence sent');
  // For everyone in the channel, in the language of the person who sent the evidence.
  const record = ctx.present(
    evidenceSentMessage(locale, {
      disputeId: job.meta.disputeId,
      userId: job.userId,
      fileNames: job.files.map((f) => fileLabel(f.file)),
      fileIds,
      note: job.note,
    }),
  );
  // Each post once: no blind resend of one whose answer was lost (post-once.ts).
  const post = (channel: string) => postOnce(deps.slack.exact, { channel, text: record.text, blocks: record.blocks }, noticeMetadata());
  let where = m.evidence.recordPosted;
  try {
    await post(job.meta.channelId);
  } catch {
    where = m.evidence.recordInDm;
    await post(job.userId).catch(() => {
      where = m.evidence.recordNowhere;
    });
  }
  await show(
    messageModal(
      locale,
      m.evidence.title,
      plain(m.evidence.attached({ count: total, dispute: `\`${escapeMrkdwn(job.meta.disputeId)}\``, where })),
    ),
  );
}

function evidenceFailureText(locale: Locale, err: unknown, stage: 'upload' | 'attach', uploaded: number): string {
  const m = messages(locale).evidence;
  if (err instanceof PixApiError && err.status === 403 && err.errorCode === FEATURE_ERROR_CODE)
    return evidenceFeatureText(locale, err.error);
  if (err instanceof FileOverCapError || isStoreUnavailable(err))
    return `${failureText(locale, err, 'uploadEvidenceFiles')}\n${m.nothingAttached}`;
  const refused = err instanceof PixApiError && err.kind === 'http' && err.status < 500;
  const after = stage === 'upload' ? m.nothingAttached : refused ? m.uploadedNotAttached(uploaded) : m.uploadedMaybeAttached(uploaded);
  if (err instanceof PixApiError) {
    return `${pixErrorText(locale, err, stage === 'upload' ? 'uploadEvidenceFiles' : 'attachEvidence', { write: true })}\n${after}`;
  }
  return m.wentWrong(after);
}

export const disputeEvidenceRows: EntryRow[] = [disputeEvidenceCommand, submitted];
