import { approve, cancel, checkReject, reject } from '../src/approvals/deciding';
import { settleEnded } from '../src/approvals/running';
import type { Actor } from '../src/approvals/who-may-decide';
import { APPROVAL_ROW_ROLE } from '../src/domain/approvals';
import type { ActionArgs, EntryContext, EntryRow } from '../src/entry/table';
import { refreshHome } from '../src/home';
import { messages } from '../src/i18n';
import { infoModal } from '../views/accounts';
import { APPROVAL_ACTION_IDS, APPROVAL_REJECT_CALLBACK, REASON_BLOCK, REASON_MAX, rejectModal } from '../views/approvals';
import { ApprovalIdSchema, RejectMetaSchema, readCarried } from '../views/carried';
import { inlineErrorText, plain, section } from '../views/message';
import { APPROVAL_KINDS } from './approval-kinds';
import { buttonValue } from './confirm';

// The approval buttons of a pending root (or of the Home tab) and the reject form. Their rows need the
// lowest role any approval needs; whether this user may decide this approval (its action's role,
// ACCESS_APPROVERS, not their own) depends on the action: src/approvals/who-may-decide.ts answers it.

const actorOf = (ctx: EntryContext): Actor => ({ userId: ctx.userId, role: ctx.role, locale: ctx.locale });

function approvalId(args: ActionArgs): string | undefined {
  const parsed = ApprovalIdSchema.safeParse(buttonValue(args.action));
  return parsed.success ? parsed.data : undefined;
}

/** Tells the clicker alone: ephemerally where the button was, or in a DM from the Home tab (which has no response_url). */
async function tell(args: ActionArgs, ctx: EntryContext, text: string): Promise<void> {
  const message = ctx.present(plain(text));
  if (args.body.response_url) {
    await args.respond({ response_type: 'ephemeral', replace_original: false, ...message });
    return;
  }
  await ctx.deps.slack.retried.chat.postMessage({ channel: ctx.userId, ...message }).catch((err: unknown) => {
    ctx.deps.logger.info({ user: ctx.userId, err: String(err) }, 'could not answer an approval button');
  });
}

/** From the Home tab, the tab shows the approval gone once it is decided. */
async function refreshIfHome(args: ActionArgs, ctx: EntryContext): Promise<void> {
  if (args.body.view?.type === 'home') await refreshHome(ctx.deps, ctx.userId, { role: ctx.role, locale: ctx.locale });
}

const approveRow: EntryRow = {
  kind: 'action',
  id: APPROVAL_ACTION_IDS.approve,
  role: APPROVAL_ROW_ROLE,
  what: 'approveOrReject',
  async handler(args, ctx) {
    const id = approvalId(args);
    if (!id) return tell(args, ctx, messages(ctx.locale).approvals.notFound);
    const answer = await approve(ctx.deps, APPROVAL_KINDS, id, actorOf(ctx));
    if (answer) await tell(args, ctx, answer);
    await refreshIfHome(args, ctx);
  },
};

const rejectRow: EntryRow = {
  kind: 'action',
  id: APPROVAL_ACTION_IDS.reject,
  role: APPROVAL_ROW_ROLE,
  what: 'approveOrReject',
  async handler(args, ctx) {
    const id = approvalId(args);
    if (!id) return tell(args, ctx, messages(ctx.locale).approvals.notFound);
    const found = await checkReject(ctx.deps, APPROVAL_KINDS, id, actorOf(ctx));
    if ('answer' in found) return tell(args, ctx, found.answer);
    await ctx.deps.slack.retried.views.open({
      trigger_id: args.body.trigger_id,
      view: rejectModal(ctx.locale, { record: found.record, sandbox: ctx.deps.sandboxMode }),
    });
  },
};

const cancelRow: EntryRow = {
  kind: 'action',
  id: APPROVAL_ACTION_IDS.cancel,
  role: APPROVAL_ROW_ROLE,
  what: 'cancelApproval',
  async handler(args, ctx) {
    const id = approvalId(args);
    if (!id) return tell(args, ctx, messages(ctx.locale).approvals.notFound);
    const answer = await cancel(ctx.deps, APPROVAL_KINDS, id, actorOf(ctx));
    if (answer) await tell(args, ctx, answer);
    await refreshIfHome(args, ctx);
  },
};

/** The reject form: the reason is required; the same checks again (the form may have stayed open a while). */
const rejectSubmitted: EntryRow = {
  kind: 'view',
  id: APPROVAL_REJECT_CALLBACK,
  role: APPROVAL_ROW_ROLE,
  what: 'approveOrReject',
  errorBlock: REASON_BLOCK,
  async handler({ ack, view }, ctx) {
    const { deps, locale } = ctx;
    const m = messages(locale);
    const errors = (text: string) => ack({ response_action: 'errors', errors: { [REASON_BLOCK]: inlineErrorText(text) } });
    const meta = readCarried(RejectMetaSchema, view.private_metadata);
    if (!meta) return errors(m.common.formOutOfDate);
    const reason = (view.state.values[REASON_BLOCK]?.reason?.value ?? '').trim();
    if (reason === '') return errors(m.approvals.reasonRequired);
    const result = await reject(deps, APPROVAL_KINDS, meta.approvalId, actorOf(ctx), reason.slice(0, REASON_MAX));
    if ('answer' in result) return errors(result.answer);
    await ack({
      response_action: 'update',
      view: infoModal(locale, m.approvals.rejectTitle, [section(m.approvals.rejectedDone)], deps.sandboxMode),
    });
    await settleEnded(deps, APPROVAL_KINDS, result.record);
  },
};

export const approvalRows: EntryRow[] = [approveRow, rejectRow, cancelRow, rejectSubmitted];
