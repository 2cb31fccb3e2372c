import { randomUUID } from 'node:crypto';
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { ApprovalInDoubtError, type ApprovalKind, type ApprovalRun } from '../src/approvals/kinds';
import { approvalsOn, askApproval } from '../src/approvals/request';
import type { Deps } from '../src/deps';
import type { PayloadOf } from '../src/domain/approvals';
import { splitLimits } from '../src/domain/limit-fields';
import { BLOCK, type FormMeta, FormMetaSchema, readLimitForm } from '../src/domain/limit-form';
import type { CommandRow, EntryContext, EntryRow } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import { type FilingHold, type FollowOutcome, followFiled, holdFiling } from '../src/limit-requests/follow';
import { CLOCK_SKEW_MS, INTENT_SETTLE_MS, listSince, matchIntent } from '../src/limit-requests/reconcile';
import { defaultAccountId } from '../src/pix/default-account';
import { PixApiError } from '../src/pix/errors';
import type { LimitRequest } from '../src/pix/schemas';
import { fileLabel, resolveSlackFile, type SlackFile } from '../src/slack/files';
import { IncompleteSlackAnswerError } from '../src/slack/incomplete-answer';
import { modalUpdater } from '../src/slack/modal-updates';
import { noticeMetadata, postToUser } from '../src/slack/post-once';
import { type CheckedFile, checkProofFiles, uploadCheckedFiles } from '../src/slack/proof-check';
import { isStoreUnavailable } from '../src/store/errors';
import type { FilingIntent } from '../src/store/filing-intents';
import { failureText } from '../views/errors';
import { limitRequestRootMessage } from '../views/limit-request';
import { ACCOUNT_ACTION, formModal, LIMIT_REQUEST_CALLBACK, loadingModal, progressModal } from '../views/limit-request-modal';
import { escapeMrkdwn, plain, section } from '../views/message';
import { messageModal } from '../views/modal';
import { optionalAccountIdArg, PixIdSchema } from './parse';

export const limitRequestCommand: CommandRow = {
  kind: 'command',
  id: 'limit request',
  argsUsage: '[accountId]',
  summary: 'limitRequest',
  what: 'openLimitRequestForm',
  role: 'operator',
  minArgs: 0,
  maxArgs: 1,
  async handler({ deps, args, triggerId, channelId, locale }) {
    await openForm(deps, locale, { triggerId, channelId, accountId: optionalAccountIdArg(locale, args[0]), attached: [] });
    return null;
  },
};

/**
 * Opens the modal before any Pix API call (the trigger lives three seconds), then fills it in once
 * the accounts and the chosen account's limits are read.
 */
export async function openForm(
  deps: Deps,
  locale: Locale,
  input: { triggerId: string; channelId: string; accountId?: string; attached: FormMeta['attached'] },
) {
  const meta: FormMeta = { channelId: input.channelId, accountId: input.accountId, current: {}, attached: input.attached };
  const opened = await deps.slack.retried.views.open({ trigger_id: input.triggerId, view: loadingModal(locale, meta) });
  const viewId = opened.view?.id;
  if (!viewId) throw new IncompleteSlackAnswerError('Slack opened no view');
  let view: ModalView;
  try {
    view = await buildForm(deps, locale, meta, input.accountId);
  } catch (err) {
    view = messageModal(
      locale,
      messages(locale).limitForm.title,
      plain(failureText(locale, err, 'readAccountLimits', { afterwards: 'none' })),
    );
  }
  await deps.slack.retried.views.update({ view_id: viewId, hash: opened.view?.hash, view });
}

async function buildForm(
  deps: Deps,
  locale: Locale,
  meta: FormMeta,
  given: string | undefined,
  keep: { description?: string; reason?: string } = {},
) {
  // With the account known, both reads at once; else the list first, to find the default account.
  const [accounts, accountId, limits] = given
    ? await Promise.all([deps.pix.listAccounts(deps.mainAppId), given, deps.pix.getLimits(deps.mainAppId, given)])
    : await deps.pix.listAccounts(deps.mainAppId).then(async (list) => {
        const id = defaultAccountId(list);
        return [list, id, await deps.pix.getLimits(deps.mainAppId, id)] as const;
      });
  const current = Object.fromEntries(splitLimits(limits).requestable.map((l) => [l.field, l.cents]));
  return formModal(locale, {
    meta: { ...meta, accountId, current },
    accounts,
    accountId,
    limits,
    description: keep.description,
    reason: keep.reason,
    sandbox: deps.sandboxMode,
  });
}

function readMeta(raw: string | undefined): FormMeta | undefined {
  try {
    return FormMetaSchema.parse(JSON.parse(raw ?? ''));
  } catch {
    return undefined;
  }
}

/** Choosing another account re-reads its limits and rebuilds the amounts. */
const accountChanged: EntryRow = {
  kind: 'action',
  id: ACCOUNT_ACTION,
  role: 'operator',
  what: 'fileLimitRequest',
  async handler({ body, action }, ctx) {
    const { locale } = ctx;
    const view = body.view;
    const meta = readMeta(view?.private_metadata);
    // A static select, or with more accounts than it holds, a search (external select).
    const accountId = action.type === 'static_select' || action.type === 'external_select' ? action.selected_option?.value : undefined;
    if (!view || !meta || !accountId || !PixIdSchema.safeParse(accountId).success) return;
    const state = view.state?.values ?? {};
    const text = (block: string) => state[block]?.text?.value ?? undefined;
    let next: ModalView;
    try {
      next = await buildForm(ctx.deps, locale, meta, accountId, { description: text(BLOCK.description), reason: text(BLOCK.reason) });
    } catch (err) {
      next = messageModal(
        locale,
        messages(locale).limitForm.title,
        plain(failureText(locale, err, 'readAccountLimits', { afterwards: 'none' })),
      );
    }
    // The hash makes Slack refuse this update if the user changed the form again meanwhile.
    await ctx.deps.slack.retried.views.update({ view_id: view.id, hash: view.hash, view: next }).catch((err: unknown) => {
      ctx.deps.logger.info({ ...describeError(err) }, 'limit form not updated (changed meanwhile?)');
    });
  },
};

const submitted: EntryRow = {
  kind: 'view',
  id: LIMIT_REQUEST_CALLBACK,
  role: 'operator',
  what: 'fileLimitRequest',
  errorBlock: BLOCK.account,
  async handler({ ack, body, view }, ctx) {
    const { locale } = ctx;
    const meta = readMeta(view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'errors', errors: { [BLOCK.account]: messages(locale).common.formOutOfDate } });
      return;
    }
    const read = readLimitForm(locale, view.state.values, meta);
    if (!read.ok) {
      await ack({ response_action: 'errors', errors: read.errors });
      return;
    }
    const checked = await checkProofFiles(locale, ctx.deps, read.form.files);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: { [BLOCK.documents]: checked.problem } });
      return;
    }
    const total = checked.files.length;
    const payload: PayloadOf<'limit-request'> = {
      action: 'limit-request',
      accountId: read.form.accountId,
      limits: read.form.limits,
      current: Object.fromEntries(Object.keys(read.form.limits).map((f) => [f, meta.current[f] ?? 0])),
      files: checked.files.map((p) => ({ id: p.file.id, name: fileLabel(p.file).slice(0, 255) })),
      ...(read.form.description ? { description: read.form.description } : {}),
      ...(read.form.limitRequestReason ? { limitRequestReason: read.form.limitRequestReason } : {}),
    };
    if (approvalsOn(ctx.deps, 'limit-request') && needsApproval(ctx.deps, payload)) {
      const m = messages(locale);
      await ack({ response_action: 'update', view: messageModal(locale, m.limitForm.title, plain(m.approvals.requesting)) });
      const told = await askApproval(ctx.deps, { maker: { userId: body.user.id, locale }, channel: meta.channelId, payload });
      await modalUpdater(ctx.deps.slack.retried, view.id)(messageModal(locale, m.limitForm.title, plain(told)));
      return;
    }
    await ack({
      response_action: 'update',
      view: progressModal(locale, messages(locale).limitForm.uploading({ index: 1, total }), 0, total),
    });
    await fileRequest(ctx, { viewId: view.id, userId: body.user.id, channel: meta.channelId, payload, proofs: checked.files });
  },
};

/**
 * APPROVAL_LIMIT_ABOVE: a limit request waits for approval only when some requested field is above
 * it. One below is filed at once, and its audit entry says why no approval was needed.
 */
function needsApproval(deps: Deps, payload: PayloadOf<'limit-request'>): boolean {
  const above = deps.approvals.limitAboveCents;
  if (above === undefined || Object.values(payload.limits).some((cents) => cents > above)) return true;
  deps.audit.note('no approval: below APPROVAL_LIMIT_ABOVE');
  return false;
}

/** What a filing is: who asks, where its root goes, what is asked, the checked proofs. */
interface FilingJob {
  userId: string;
  channel: string;
  payload: PayloadOf<'limit-request'>;
  proofs: CheckedFile[];
  /** Filed by an approval: its root becomes the request's thread root. */
  approval?: NonNullable<FilingIntent['approval']>;
  /** Before each upload (`index` from 0) and before the filing itself. */
  progress?(stage: 'upload' | 'file', index: number, proof?: CheckedFile): Promise<unknown>;
  /**
   * Before each record of the filing intent: before the uploads (`upload`), and again with its new time
   * just before the filing (`file`). An approval records its own intent there, under its claim: a claim
   * lapsed meanwhile stops the run before the Pix API sees the request.
   */
  beforeWrite?(intent: FilingIntent, step: 'upload' | 'file'): Promise<void>;
}

/** How a filing ended: filed (and followed as far as it got), or what failed and whether the request may exist. */
type FilingOutcome =
  | { ok: true; request: LimitRequest; followed: FollowOutcome }
  | { ok: false; err: unknown; action: 'uploadProofFiles' | 'fileTheLimitRequest'; maybeFiled: boolean };

/**
 * The write path of a limit request, with or without approval: records the filing intent, streams each
 * proof from Slack into the Pix API (upload first, always), records the intent again with the time the
 * request is sent, files the request in exact cents, then follows it (limit-requests/follow.ts:
 * tracked first, then its thread root posted once and recorded).
 *
 * The intent comes first because the uploads are writes to the Pix API too: a store that cannot
 * record it stops the filing before anything is sent. A process that dies during the uploads leaves
 * the intent, which the poller settles as not filed (its requester told).
 *
 * Once the request is filed, nothing that fails after it is reported as "not filed": whatever is left
 * (tracking it, its root) is finished by the poller from the intent (limit-requests/reconcile.ts), which also
 * settles a filing whose process died.
 */
async function fileLimitRequest(deps: Deps, locale: Locale, job: FilingJob): Promise<FilingOutcome> {
  const { payload } = job;
  const recorded: FilingIntent = {
    intentId: randomUUID(),
    requesterId: job.userId,
    channel: job.channel,
    accountId: payload.accountId,
    current: payload.current,
    requested: payload.limits,
    documents: job.proofs.map((p) => ({ fileName: fileLabel(p.file), contentType: p.type.mime })),
    createdAt: new Date().toISOString(),
    ...(job.approval ? { approval: job.approval } : {}),
  };
  let hold: FilingHold | undefined;
  const notFiled = async (err: unknown, action: 'uploadProofFiles' | 'fileTheLimitRequest'): Promise<FilingOutcome> => {
    deps.logger.warn({ ...describeError(err), user: job.userId }, 'limit request not filed');
    await deps.store.filingIntents.delete(recorded.intentId).catch(() => undefined);
    await hold?.release();
    return { ok: false, err, action, maybeFiled: false };
  };
  try {
    // Held until the filing is done, so that reconciliation leaves it alone meanwhile.
    hold = await holdFiling(deps, recorded.intentId);
    await job.beforeWrite?.(recorded, 'upload');
    await deps.store.filingIntents.record(recorded);
  } catch (err) {
    return notFiled(err, 'fileTheLimitRequest');
  }
  let fileIds: string[];
  try {
    fileIds = await uploadCheckedFiles(
      deps,
      job.proofs,
      'ACCOUNT_LIMIT_REQUEST',
      (i, proof) => job.progress?.('upload', i, proof) ?? Promise.resolve(),
    );
  } catch (err) {
    return notFiled(err, 'uploadProofFiles');
  }
  // Its time is when the request is sent: a request filed is recognized from then on (limit-requests/reconcile.ts).
  const intent: FilingIntent = { ...recorded, createdAt: new Date().toISOString() };
  try {
    await job.progress?.('file', job.proofs.length);
    await hold.check();
    await job.beforeWrite?.(intent, 'file');
    await deps.store.filingIntents.record(intent);
  } catch (err) {
    return notFiled(err, 'fileTheLimitRequest');
  }

  try {
    let request: LimitRequest;
    try {
      request = await deps.pix.createLimitRequest(deps.mainAppId, {
        companyBankAccountId: payload.accountId,
        limits: payload.limits,
        documents: fileIds.map((fileId) => ({ fileId })),
        description: payload.description,
        limitRequestReason: payload.limitRequestReason,
      });
    } catch (err) {
      deps.logger.warn({ ...describeError(err), user: job.userId }, 'limit request not filed');
      // Without an answer the request may exist: its intent stays, and the poller finds it (or, when it
      // is not in the company's list, tells the requester it was not filed).
      const maybeFiled = !isStoreUnavailable(err) && (!(err instanceof PixApiError) || err.mayHaveWritten);
      if (!maybeFiled) await deps.store.filingIntents.delete(intent.intentId).catch(() => undefined);
      return { ok: false, err, action: 'fileTheLimitRequest', maybeFiled };
    }
    const followed = await followFiled(deps, { intent, request, locale, lookFirst: false });
    deps.logger.info(
      { limitRequestId: request.id, user: job.userId, files: job.proofs.length, ...followed, root: Boolean(followed.root) },
      'limit request filed',
    );
    return { ok: true, request, followed };
  } finally {
    await hold.release();
  }
}

/** The form's filing, after its acknowledgement: progress in the modal; the outcome there (or in a DM if the modal was closed). */
async function fileRequest(
  ctx: EntryContext,
  job: { viewId: string } & Omit<FilingJob, 'progress' | 'beforeWrite' | 'approval'>,
): Promise<void> {
  const { deps, locale } = ctx;
  const m = messages(locale);
  const show = modalUpdater(deps.slack.retried, job.viewId);
  const total = job.proofs.length;
  /** In the modal; in a DM when the modal was closed and the news is not all good. */
  const tell = async (text: string, options: { dmIfClosed: boolean }) => {
    if (!(await show(messageModal(locale, m.limitForm.title, { text, blocks: [section(text)] }))) && options.dmIfClosed) {
      await postToUser(deps.slack.exact, job.userId, ctx.present(plain(text)), noticeMetadata()).catch(() => undefined);
    }
  };
  const outcome = await fileLimitRequest(deps, locale, {
    ...job,
    progress: (stage, i, proof) =>
      stage === 'file'
        ? show(progressModal(locale, m.limitForm.filing, total, total))
        : i > 0 && proof
          ? show(progressModal(locale, m.limitForm.uploadingNamed({ index: i + 1, total, name: fileLabel(proof.file) }), i, total))
          : Promise.resolve(),
  });
  if (!outcome.ok) {
    const text = failureText(locale, outcome.err, outcome.action, { write: true, afterwards: 'none' });
    await tell(`${text}\n${outcome.maybeFiled ? m.tracking.maybeFiled : m.limitForm.notPosted}`, { dmIfClosed: true });
    return;
  }
  const { request, followed } = outcome;
  const where = followed.root ? m.limitForm.filedThread(`<#${followed.root.channel}>`) : m.tracking.filedByDm;
  const filed = m.limitForm.filed({ id: `\`${escapeMrkdwn(request.id)}\``, where });
  const complete = followed.tracked && followed.root !== undefined;
  await tell(followed.tracked ? filed : `${filed}\n${m.tracking.filedNotRecorded}`, { dmIfClosed: !complete });
}

/** How long an approved filing may take its proofs' checks: no modal is waiting on it. */
const APPROVAL_FILE_CHECK_MS = 20_000;

/**
 * The proofs of an approved request, fetched from Slack again: a file deleted (or no longer readable)
 * since the request was made is named, and nothing is filed.
 */
async function proofsNow(
  run: ApprovalRun,
  p: PayloadOf<'limit-request'>,
): Promise<{ ok: true; proofs: CheckedFile[] } | { ok: false; problem: string }> {
  const { deps, locale } = run;
  const m = messages(locale).approvals;
  const files: SlackFile[] = [];
  for (const f of p.files) {
    try {
      files.push(await resolveSlackFile(deps.slack.retried, { id: f.id }));
    } catch (err) {
      deps.logger.info({ file: f.id, ...describeError(err) }, 'an approved request’s proof cannot be read any more');
      return { ok: false, problem: m.proofsGone(m.fileGone(escapeMrkdwn(f.name))) };
    }
  }
  const checked = await checkProofFiles(locale, deps, files, APPROVAL_FILE_CHECK_MS);
  return checked.ok ? { ok: true, proofs: checked.files } : { ok: false, problem: m.proofsGone(checked.problem) };
}

const FileStepSchema = z.object({ intentId: z.string() });

export const limitRequestApproval: ApprovalKind<'limit-request'> = {
  action: 'limit-request',
  async execute(run, p) {
    const { deps, locale, record } = run;
    const proofs = await proofsNow(run, p);
    if (!proofs.ok) return proofs;
    const outcome = await fileLimitRequest(deps, locale, {
      userId: record.makerId,
      channel: record.channel,
      payload: p,
      proofs: proofs.proofs,
      approval: {
        makerId: record.makerId,
        checkerId: record.checkerId ?? '',
        approvedAt: record.decidedAt ?? new Date().toISOString(),
        root: { channel: record.channel, ts: record.rootTs },
        ...(record.approvedBy ? { checkers: record.approvedBy } : {}),
      },
      beforeWrite: (intent, step) => run.intent(step, { intentId: intent.intentId }),
    });
    if (outcome.ok) return { ok: true, limitRequestId: outcome.request.id };
    // Sent without an answer: left to the tick, which looks for it among the company's requests.
    if (outcome.maybeFiled) throw new ApprovalInDoubtError('the limit request may have been filed');
    return {
      ok: false,
      problem: `${failureText(locale, outcome.err, outcome.action, { write: true, afterwards: 'none' })}\n${messages(locale).limitForm.notPosted}`,
    };
  },
  /**
   * Before its filing there is nothing to look for: it runs again (proofs fetched and uploaded again),
   * the intent of the uploads cut short dropped first, so that reconciliation does not tell the maker
   * it was not filed. After, the request is looked for among the company's requests, as the poller
   * does for any filing cut short; found, it is followed with the approval's root; not there once a
   * filing would have shown, it was not filed (nothing is sent again).
   */
  async resume(run, p, intent) {
    const { deps, locale, record } = run;
    if (intent?.step === 'upload') await deps.store.filingIntents.delete(FileStepSchema.parse(intent.data).intentId);
    if (intent?.step !== 'file') return limitRequestApproval.execute(run, p);
    const { intentId } = FileStepSchema.parse(intent.data);
    // No claim on the filing: whoever follows it (this, or the poller's reconciliation of intents)
    // only tracks it and records the approval's root, which is safe twice; nothing is posted.
    const filing = (await deps.store.filingIntents.list()).find((i) => i.intentId === intentId);
    const sought = filing ?? { accountId: p.accountId, requested: p.limits, createdAt: intent.at };
    const listed = await listSince(deps, Date.parse(sought.createdAt) - CLOCK_SKEW_MS);
    const request = matchIntent(listed, {
      ...sought,
      intentId,
      requesterId: record.makerId,
      channel: record.channel,
      current: p.current,
      documents: [],
    });
    if (request) {
      if (filing) await followFiled(deps, { intent: filing, request, locale, lookFirst: true });
      return { ok: true, limitRequestId: request.id };
    }
    if (Date.now() - Date.parse(intent.at) < INTENT_SETTLE_MS) throw new ApprovalInDoubtError('the filing is not settled yet');
    if (filing) await deps.store.filingIntents.delete(intentId);
    return { ok: false, problem: messages(locale).approvals.notFiled };
  },
  /** Filed: the root is the request's thread root, showing where it stands. */
  async doneRoot(deps, record) {
    const id = record.outcome?.limitRequestId;
    const tracked = id ? await deps.store.trackedRequests.get(id) : undefined;
    if (!tracked) return undefined;
    return limitRequestRootMessage(record.makerLocale, tracked, tracked.reply?.status ?? 'IN_REVIEW', tracked.reply?.approved);
  },
};

const MessageFilesSchema = z.array(z.looseObject({ id: z.string(), name: z.string().nullish(), title: z.string().nullish() }));

/** The message shortcut "Request limit increase": the same form, with the message's files as proofs. */
const withTheseFiles: EntryRow = {
  kind: 'shortcut',
  id: 'limit_request_with_files',
  role: 'operator',
  what: 'fileLimitRequest',
  async handler({ shortcut, respond }, ctx) {
    const files = MessageFilesSchema.catch([]).parse(shortcut.message.files ?? []);
    if (files.length === 0) {
      await respond({ response_type: 'ephemeral', ...ctx.present(plain(messages(ctx.locale).limitForm.shortcutNoFiles)) });
      return;
    }
    await openForm(ctx.deps, ctx.locale, {
      triggerId: shortcut.trigger_id,
      channelId: shortcut.channel.id,
      attached: files.slice(0, 20).map((f) => ({ id: f.id, name: (f.name ?? f.title ?? f.id).slice(0, 100) })),
    });
  },
};

export const limitRequestRows: EntryRow[] = [limitRequestCommand, accountChanged, submitted, withTheseFiles];
