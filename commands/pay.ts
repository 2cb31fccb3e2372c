import type { ModalView } from '@slack/types';
import { askApproval } from '../src/approvals/request';
import type { Deps } from '../src/deps';
import type { PayPayload, Receiver } from '../src/domain/money-out';
import { PAY_BLOCK, type PayForm, type PayFormMeta, PayFormMetaSchema, type PayFormTyped, readPayForm } from '../src/domain/pay-form';
import { maskTaxId } from '../src/domain/pix-key-mask';
import { formatSaoPauloInstant } from '../src/domain/sao-paulo-date';
import type { CommandRow, EntryContext, EntryRow, OptionsRow } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import type { KeyCheckOutcome } from '../src/payments/key-check';
import { defaultAccountId } from '../src/pix/default-account';
import { IncompleteSlackAnswerError } from '../src/slack/incomplete-answer';
import { modalUpdater } from '../src/slack/modal-updates';
import { noticeMetadata, postToUser } from '../src/slack/post-once';
import { infoModal } from '../views/accounts';
import { readCarried } from '../views/carried';
import { failureText } from '../views/errors';
import { accountOptions } from '../views/limit-request-modal';
import { inlineErrorText, plain, section } from '../views/message';
import { PAY_ACCOUNT_ACTION, PAY_CALLBACK, payFormModal, payLoadingModal } from '../views/pay-form';
import { claimOnce } from './account-shared';
import { optionalAccountIdArg } from './parse';

/**
 * How long the submission waits for the key check before it answers Slack (which gives a submission
 * three seconds, part of them already spent on the role check). A check answered by then has its
 * problem shown inline on the form; one that takes longer is not cut short — once sent it may have
 * cost the company look-up tokens, and it is never sent again — the modal says the key is being
 * checked, and its outcome replaces it when it comes, within the Pix client's own time limit
 * (PIX_TIMEOUT_MS: the check is sent once, so that is the longest it takes). The same budget as the
 * AppID check of `/pix account link`.
 */
const KEY_CHECK_BUDGET_MS = 2_000;

/** `/pix pay [accountId]`: the payment form, opened before any Pix API call. */
export const payCommand: CommandRow = {
  kind: 'command',
  id: 'pay',
  argsUsage: '[accountId]',
  summary: 'pay',
  what: 'openPaymentForm',
  role: 'operator',
  minArgs: 0,
  maxArgs: 1,
  async handler({ deps, args, triggerId, channelId, locale }) {
    const accountId = optionalAccountIdArg(locale, args[0]);
    await openPayForm(deps, locale, triggerId, { channelId, ...(accountId ? { accountId } : {}) });
    return null;
  },
};

/** Opens the modal at once (the trigger lives three seconds), then fills it in once the accounts are read. */
async function openPayForm(deps: Deps, locale: Locale, triggerId: string, meta: PayFormMeta): Promise<void> {
  const opened = await deps.slack.retried.views.open({ trigger_id: triggerId, view: payLoadingModal(locale, meta) });
  const viewId = opened.view?.id;
  if (!viewId) throw new IncompleteSlackAnswerError('Slack opened no view');
  const view = await payFormOrFailure(deps, locale, meta);
  await deps.slack.retried.views.update({ view_id: viewId, hash: opened.view?.hash, view });
}

/** The form with the company's accounts (each with its available balance), or why they could not be read. */
async function payFormOrFailure(
  deps: Deps,
  locale: Locale,
  meta: PayFormMeta,
  again: { typed: PayFormTyped; problem: string } | undefined = undefined,
) {
  let view: ModalView;
  try {
    const accounts = await deps.pix.listAccounts(deps.mainAppId);
    const accountId = meta.accountId ?? defaultAccountId(accounts);
    view = payFormModal(locale, { meta, accounts, accountId, sandbox: deps.sandboxMode, ...again });
  } catch (err) {
    const text = failureText(locale, err, 'readAccounts', { afterwards: 'none' });
    view = infoModal(locale, messages(locale).pay.title, [section(again ? `${again.problem}\n${text}` : text)], deps.sandboxMode);
  }
  return view;
}

/** What the key check decided for this payment: go on with the receiver, or the problem to show and where. */
type CheckDecision = { ok: true; receiver: Receiver; pixKeyEndToEndId?: string } | { ok: false; problem: string };

/** The check's outcome as the audit trail keeps it: the holder's tax ID masked, never their name. */
function auditCheck(deps: Deps, form: PayForm, outcome: KeyCheckOutcome & { fresh: boolean }): void {
  const from = outcome.fresh ? '' : ' (checked in the last 5 minutes)';
  const entry = (() => {
    switch (outcome.kind) {
      case 'found':
        return {
          outcome: 'ok' as const,
          detail: `checked: found${outcome.receiver.taxId ? `, holder ${maskTaxId(outcome.receiver.taxId)}` : ''}${from}`,
        };
      case 'unverified':
        return { outcome: 'ok' as const, detail: `checked: the receiver cannot be verified (no key check)${from}` };
      case 'notFound':
        return { outcome: 'failed' as const, detail: `checked: registered at no bank${from}` };
      case 'tokensLow':
        return { outcome: 'refused' as const, detail: 'checked: not looked up, too few look-up tokens' };
      case 'failed':
        return { outcome: 'failed' as const, detail: 'checked: the Pix API failed' };
    }
  })();
  void deps.audit.record({ target: { account: form.sourceAccountId, pixKey: form.destinationAlias }, ...entry });
}

/** The key checked once (src/payments/key-check.ts), and what that means for the payment. */
async function checkKey(ctx: EntryContext, form: PayForm): Promise<CheckDecision> {
  const { deps, locale } = ctx;
  const m = messages(locale).pay;
  const outcome = await deps.keyChecks.check(deps.pix, deps.mainAppId, form.destinationAlias);
  auditCheck(deps, form, outcome);
  switch (outcome.kind) {
    case 'found':
      return { ok: true, receiver: outcome.receiver, ...(outcome.pixKeyEndToEndId ? { pixKeyEndToEndId: outcome.pixKeyEndToEndId } : {}) };
    case 'unverified':
      return { ok: true, receiver: { verified: false } };
    case 'notFound':
      return { ok: false, problem: m.notFound };
    case 'tokensLow': {
      const when = outcome.refillAt && outcome.refillAt.getTime() > Date.now() ? outcome.refillAt : undefined;
      return { ok: false, problem: when ? m.tokensLow(formatSaoPauloInstant(when, locale)) : m.tokensLowSoon };
    }
    case 'failed':
      deps.logger.warn({ ...describeError(outcome.err), user: ctx.userId }, 'Pix key not checked');
      return { ok: false, problem: `${failureText(locale, outcome.err, 'checkPixKey', { afterwards: 'none' })} ${m.nothingPosted}` };
  }
}

/** The decision if it comes within `ms`, else undefined (it goes on all the same). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms, undefined);
  });
  try {
    return await Promise.race([work, budget]);
  } finally {
    clearTimeout(timer);
  }
}

const paySubmitted: EntryRow = {
  kind: 'view',
  id: PAY_CALLBACK,
  role: 'operator',
  what: 'askPayment',
  errorBlock: PAY_BLOCK.key,
  async handler({ ack, view }, ctx) {
    const { deps, locale, userId } = ctx;
    const m = messages(locale);
    const meta = readCarried(PayFormMetaSchema, view.private_metadata);
    if (!meta) return void (await ack({ response_action: 'errors', errors: { [PAY_BLOCK.key]: m.common.formOutOfDate } }));
    // Everything that can be judged without the service, before any Pix call: a malformed key would cost a look-up.
    const read = readPayForm(locale, view.state.values, meta);
    if (!read.ok) {
      const errors = Object.fromEntries(Object.entries(read.errors).map(([block, text]) => [block, inlineErrorText(text)]));
      return void (await ack({ response_action: 'errors', errors }));
    }
    const { form } = read;
    deps.audit.about({ account: form.sourceAccountId, pixKey: form.destinationAlias });
    const checking = checkKey(ctx, form);
    const show = modalUpdater(deps.slack.retried, view.id);
    const progress = (text: string) => infoModal(locale, m.pay.title, [section(`:hourglass_flowing_sand: ${text}`)], deps.sandboxMode);
    const outcome = (text: string) => infoModal(locale, m.pay.title, [section(text)], deps.sandboxMode);
    const early = await within(checking, KEY_CHECK_BUDGET_MS);
    let decided: CheckDecision;
    if (early) {
      if (!early.ok) return void (await ack({ response_action: 'errors', errors: { [PAY_BLOCK.key]: inlineErrorText(early.problem) } }));
      if (!(await claimOnce(deps, `pay:${view.id}`)))
        return void (await ack({ response_action: 'update', view: outcome(m.accounts.alreadySubmitted) }));
      await ack({ response_action: 'update', view: progress(m.approvals.requesting) });
      decided = early;
    } else {
      await ack({ response_action: 'update', view: progress(m.pay.checking) });
      decided = await checking;
      if (!decided.ok) {
        // The form again, as it was typed, with the problem on top; if the modal was closed, a direct message.
        const again = await payFormOrFailure(deps, locale, meta, { typed: read.typed, problem: decided.problem });
        if (!(await show(again))) {
          await postToUser(deps.slack.exact, userId, ctx.present(plain(decided.problem)), noticeMetadata()).catch(() => undefined);
        }
        return;
      }
      if (!(await claimOnce(deps, `pay:${view.id}`))) return void (await show(outcome(m.accounts.alreadySubmitted)));
      await show(progress(m.approvals.requesting));
    }
    const payload: PayPayload = {
      action: 'pay',
      sourceAccountId: form.sourceAccountId,
      value: form.value,
      destinationAlias: form.destinationAlias,
      destinationAliasType: form.destinationAliasType,
      ...(form.comment ? { comment: form.comment } : {}),
      ...(decided.pixKeyEndToEndId ? { pixKeyEndToEndId: decided.pixKeyEndToEndId } : {}),
      receiver: decided.receiver,
    };
    // A payment always waits for a checker, whatever APPROVALS says: nothing reaches the payment endpoints here.
    const told = await askApproval(deps, { maker: { userId, locale }, channel: meta.channelId, payload });
    await show(outcome(told));
  },
};

/** The accounts of the form's select, searched as the user types, when there are more than a static select holds. */
const payAccountOptions: OptionsRow = {
  kind: 'options',
  id: PAY_ACCOUNT_ACTION,
  role: 'operator',
  what: 'openPaymentForm',
  async handler({ payload }, { deps, locale }) {
    return accountOptions(locale, await deps.pix.listAccounts(deps.mainAppId), payload.value ?? '');
  },
};

export const payRows: EntryRow[] = [payCommand, paySubmitted, payAccountOptions];
