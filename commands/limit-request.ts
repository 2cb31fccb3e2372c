import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { defaultAccountId, NoDefaultAccountError } from '../src/default-account';
import type { Deps } from '../src/deps';
import type { EntryContext, Entry } from '../src/entries';
import { BLOCK, FormMetaSchema, readLimitForm, type FormMeta, type LimitForm } from '../src/limit-form';
import { splitLimits } from '../src/limits';
import { PixApiError } from '../src/pix/errors';
import { checkProofFiles, uploadCheckedFiles, type CheckedFile } from '../src/proof-check';
import { fileLabel } from '../src/slack/files';
import { postThreadRoot } from '../src/slack/thread-root';
import type { TrackedRequest } from '../src/store/tracked-requests';
import { pixErrorText } from '../views/errors';
import { ACCOUNT_ACTION, formModal, LIMIT_REQUEST_CALLBACK, loadingModal, progressModal } from '../views/limit-request-modal';
import { limitRequestRootMessage } from '../views/limit-request';
import { escapeMrkdwn, plain, section } from '../views/message';
import { messageModal } from '../views/modal';
import { PixIdSchema } from './parse';
import { UsageError, type CommandDef } from './types';

const TITLE = 'Limit increase';
const WHAT = 'file a limit request';

export const limitRequestCommand: CommandDef = {
  path: ['limit', 'request'],
  argsUsage: '[accountId]',
  summary: 'open the form to raise an account’s limits, with proof files',
  action: 'open the limit-request form',
  role: 'operator',
  minArgs: 0,
  maxArgs: 1,
  async run({ deps, args, triggerId, channelId }) {
    const [given] = args;
    if (given !== undefined && !PixIdSchema.safeParse(given).success) throw new UsageError('That is not an account id.');
    await openForm(deps, { triggerId, channelId, accountId: given, attached: [] });
    return null;
  },
};

/**
 * Opens the modal before any Pix API call (the trigger lives three seconds), then fills it in once
 * the accounts and the chosen account's limits are read.
 */
export async function openForm(deps: Deps, input: { triggerId: string; channelId: string; accountId?: string; attached: FormMeta['attached'] }) {
  const meta: FormMeta = { channelId: input.channelId, accountId: input.accountId, current: {}, attached: input.attached };
  const opened = await deps.slack.views.open({ trigger_id: input.triggerId, view: loadingModal(meta) });
  const viewId = opened.view?.id;
  if (!viewId) throw new Error('Slack opened no view');
  let view: ModalView;
  try {
    view = await buildForm(deps, meta, input.accountId);
  } catch (err) {
    view = messageModal(TITLE, plain(failureText(err, 'read the account’s limits')));
  }
  await deps.slack.views.update({ view_id: viewId, hash: opened.view?.hash, view });
}

async function buildForm(deps: Deps, meta: FormMeta, given: string | undefined, keep: { description?: string; reason?: string } = {}) {
  // With the account known, both reads at once; else the list first, to find the default account.
  const [accounts, accountId, limits] = given
    ? await Promise.all([deps.pix.listAccounts(deps.mainAppId), given, deps.pix.getLimits(deps.mainAppId, given)])
    : await deps.pix.listAccounts(deps.mainAppId).then(async (list) => {
        const id = defaultAccountId(list);
        return [list, id, await deps.pix.getLimits(deps.mainAppId, id)] as const;
      });
  const current = Object.fromEntries(splitLimits(limits).requestable.map((l) => [l.field, l.cents]));
  return formModal({
    meta: { ...meta, accountId, current },
    accounts,
    accountId,
    limits,
    description: keep.description,
    reason: keep.reason,
    sandbox: deps.sandboxMode,
  });
}

function failureText(err: unknown, action: string, options: { write?: boolean } = {}): string {
  if (err instanceof PixApiError) return pixErrorText(err, action, options);
  if (err instanceof NoDefaultAccountError) return err.message;
  return `Something went wrong while trying to ${action}.`;
}

function readMeta(raw: string | undefined): FormMeta | undefined {
  try {
    return FormMetaSchema.parse(JSON.parse(raw ?? ''));
  } catch {
    return undefined;
  }
}

/** Choosing another account re-reads its limits and rebuilds the amounts. */
const accountChanged: Entry = {
  kind: 'action',
  actionId: ACCOUNT_ACTION,
  role: 'operator',
  what: WHAT,
  async handle({ body, action, client }, ctx) {
    const view = body.view;
    const meta = readMeta(view?.private_metadata);
    const accountId = action.type === 'static_select' ? action.selected_option?.value : undefined;
    if (!view || !meta || !accountId || !PixIdSchema.safeParse(accountId).success) return;
    const state = view.state?.values ?? {};
    const text = (block: string) => state[block]?.text?.value ?? undefined;
    let next: ModalView;
    try {
      next = await buildForm(ctx.deps, meta, accountId, { description: text(BLOCK.description), reason: text(BLOCK.reason) });
    } catch (err) {
      next = messageModal(TITLE, plain(failureText(err, 'read the account’s limits')));
    }
    // The hash makes Slack refuse this update if the user changed the form again meanwhile.
    await client.views.update({ view_id: view.id, hash: view.hash, view: next }).catch((err: unknown) => {
      ctx.deps.logger.info({ err: err instanceof Error ? err.message : String(err) }, 'limit form not updated (changed meanwhile?)');
    });
  },
};

const submitted: Entry = {
  kind: 'view',
  callbackId: LIMIT_REQUEST_CALLBACK,
  role: 'operator',
  what: WHAT,
  errorBlock: BLOCK.account,
  async handle({ ack, body, view }, ctx) {
    const meta = readMeta(view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'errors', errors: { [BLOCK.account]: 'This form is out of date; close it and open it again.' } });
      return;
    }
    const read = readLimitForm(view.state.values, meta);
    if (!read.ok) {
      await ack({ response_action: 'errors', errors: read.errors });
      return;
    }
    const checked = await checkProofFiles(ctx.deps, read.form.files);
    if (!checked.ok) {
      await ack({ response_action: 'errors', errors: { [BLOCK.documents]: checked.problem } });
      return;
    }
    const total = checked.files.length;
    await ack({ response_action: 'update', view: progressModal(`Uploading proof 1 of ${total}…`, 0, total) });
    await fileRequest(ctx, { viewId: view.id, userId: body.user.id, meta, form: read.form, proofs: checked.files });
  },
};

/**
 * After the acknowledgement: streams each proof from Slack into the Pix API (upload first, always),
 * files the request in exact cents, posts the thread root and tracks the request. The modal shows
 * progress; a failure shows the API's own words there (or in a DM if the modal was closed).
 */
async function fileRequest(
  ctx: EntryContext,
  job: { viewId: string; userId: string; meta: FormMeta; form: LimitForm; proofs: CheckedFile[] },
): Promise<void> {
  const { deps } = ctx;
  const show = async (view: ModalView) => {
    try {
      await deps.slack.views.update({ view_id: job.viewId, view });
      return true;
    } catch {
      return false;
    }
  };
  const total = job.proofs.length;
  let stage: 'upload' | 'file' = 'upload';
  try {
    const fileIds = await uploadCheckedFiles(deps, job.proofs, 'ACCOUNT_LIMIT_REQUEST', (i, proof) =>
      i > 0 ? show(progressModal(`Uploading proof ${i + 1} of ${total}: ${fileLabel(proof.file)}`, i, total)) : Promise.resolve(),
    );
    stage = 'file';
    await show(progressModal('Filing the request…', total, total));
    const request = await deps.pix.createLimitRequest(deps.mainAppId, {
      companyBankAccountId: job.form.accountId,
      limits: job.form.limits,
      documents: fileIds.map((fileId) => ({ fileId })),
      description: job.form.description,
      limitRequestReason: job.form.limitRequestReason,
    });

    const tracked: Omit<TrackedRequest, 'closed' | 'reply'> = {
      limitRequestId: request.id,
      accountId: job.form.accountId,
      requesterId: job.userId,
      channel: job.meta.channelId,
      rootTs: '',
      current: Object.fromEntries(Object.keys(job.form.limits).map((f) => [f, job.meta.current[f] ?? 0])),
      requested: job.form.limits,
      documents: job.proofs.map((p) => ({ fileName: fileLabel(p.file), contentType: p.type.mime })),
      source: 'filed',
      createdAt: request.createdAt ?? new Date().toISOString(),
    };
    const root = await postThreadRoot(deps, {
      channel: job.meta.channelId,
      userId: job.userId,
      limitRequestId: request.id,
      message: ctx.present(limitRequestRootMessage({ ...tracked, closed: false }, 'IN_REVIEW')),
    });
    if (root) await deps.store.trackedRequests.track({ ...tracked, channel: root.channel, rootTs: root.ts });
    deps.logger.info({ limitRequestId: request.id, user: job.userId, files: total }, 'limit request filed');
    const where = root ? ` Its thread is in <#${root.channel}>; the decision will be posted there.` : ' I could not post its message in the channel or in a DM, so the decision will not be announced: check it with `/pix limit status`.';
    await show(messageModal(TITLE, plain(`:white_check_mark: Request \`${escapeMrkdwn(request.id)}\` filed and in review.${where}`)));
  } catch (err) {
    deps.logger.warn({ err: err instanceof PixApiError ? { operation: err.operation, status: err.status } : String(err), user: job.userId }, 'limit request not filed');
    const action = stage === 'upload' ? 'upload the proof files' : 'file the limit request';
    const text = `${failureText(err, action, { write: true })}\nNo request message was posted.`;
    if (!(await show(messageModal(TITLE, { text, blocks: [section(text)] })))) {
      await deps.slack.chat.postMessage({ channel: job.userId, ...ctx.present(plain(text)) }).catch(() => undefined);
    }
  }
}

const MessageFilesSchema = z.array(z.looseObject({ id: z.string(), name: z.string().nullish(), title: z.string().nullish() }));

/** "Request limit increase with these files": the same form, with the message's files as proofs. */
const withTheseFiles: Entry = {
  kind: 'shortcut',
  callbackId: 'limit_request_with_files',
  role: 'operator',
  what: WHAT,
  async handle({ shortcut, respond }, ctx) {
    const files = MessageFilesSchema.catch([]).parse(shortcut.message.files ?? []);
    if (files.length === 0) {
      await respond({ response_type: 'ephemeral', ...ctx.present(plain('That message has no files. Use `/pix limit request` and attach the proofs in the form.')) });
      return;
    }
    await openForm(ctx.deps, {
      triggerId: shortcut.trigger_id,
      channelId: shortcut.channel.id,
      attached: files.slice(0, 20).map((f) => ({ id: f.id, name: (f.name ?? f.title ?? f.id).slice(0, 100) })),
    });
  },
};

export const limitRequestEntries: Entry[] = [accountChanged, submitted, withTheseFiles];
