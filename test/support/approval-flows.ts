import type { ApprovalAction } from '../../src/domain/approvals';
import type { SandboxHandle } from '../../src/sandbox';
import type { SlackStandIn } from '../../src/slack-standin/web-api';
import { clickButton, type ModalView, openedModal, sandboxApi, submitModal, viewUpdates } from './accounts-harness';
import type { AppProcess } from './app-process';
import { answerOn, type PendingRoot, pendingRoot } from './approvals';
import { type Harness, messageText, poster, sendSlash } from './harness';
import { addProof, openLimitForm, submitLimitForm } from './limit-form';
import { waitFor } from './wait';

// Each approval action's maker flow, driven as Slack drives it (the command, its modal or its
// confirmation, up to the pending root), against an app in this process (the harness) or in a child
// process (processDriver).

/** What a maker's flow ends with: the pending root, what the maker was told, and (when the flow set something up on the Pix side first) the sandbox's calls after that. */
export interface Asked {
  root: PendingRoot;
  shown(): Promise<string>;
  since?: number;
  /** The proof of a limit request, as the fake Slack holds it. */
  proof?: Record<string, unknown>;
}

export interface FlowSetup {
  channel: string;
  operator: string;
  admin: string;
  /** An account with its AppID stored in the app's store (for the Pix keys). */
  campaignAccountId: string;
  campaignAppId: string;
  /** An application whose secret is rotated. */
  rotateClientId: string;
  /** The account limit requests and the withdraw key are for (its withdraw-key API enabled). */
  accountId: string;
}

let n = 0;

/** The maker's flows of money out: an operator paying from `account` (the main company's default unless told), in `channel`. */
export function paymentFlows(h: Harness, s: { channel: string; operator: string; account?: string }) {
  const account = s.account ?? h.sandbox.companies.main.defaultAccountId;
  return makerFlows(h, {
    channel: s.channel,
    operator: s.operator,
    admin: s.operator,
    campaignAccountId: account,
    campaignAppId: h.sandbox.companies.main.mainAppId,
    rotateClientId: 'unused',
    accountId: account,
  });
}

/** The maker's flow of each action; `options` picks a value where a test needs its own. */
export function makerFlows(h: Harness, s: FlowSetup) {
  const modalAnswer = (from: number, viewId: string) => async () =>
    messageText(
      (
        await waitFor(
          'the form’s answer',
          () => viewUpdates(h, from, viewId).find((c) => messageText(c.args.view).includes('waiting for approval')),
          10_000,
        )
      ).args.view,
    );

  /** `/pix withdraw-key` or `/pix rotate-secret`, then its Confirm: the pending root. */
  const confirmed = async (text: string, confirmId: string): Promise<Asked> => {
    const res = await h.slash(s.admin, text, { channelId: s.channel });
    const ask = await answerOn(h, res.responseId);
    const button = (ask.blocks as Array<{ elements?: Array<{ action_id: string; value: string }> }>)
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === confirmId)!;
    const from = h.slack.calls.length;
    const click = await clickButton(h, { userId: s.admin, actionId: confirmId, value: button.value, channelId: s.channel });
    return { root: await pendingRoot(h, from), shown: async () => messageText(await answerOn(h, click.responseId)) };
  };

  return {
    'limit-request': async (options: { proofName?: string } = {}): Promise<Asked> => {
      const from = h.slack.calls.length;
      const form = await openLimitForm(h, { userId: s.operator, accountId: s.accountId, channelId: s.channel });
      const proof = addProof(h.slack, options.proofName ?? 'statement-nov.pdf');
      const res = await submitLimitForm(h, form, { userId: s.operator, dayLimit: '7000', files: [proof] });
      if (res.body?.response_action !== 'update') throw new Error(`submission not accepted: ${JSON.stringify(res.body)}`);
      return { root: await pendingRoot(h, from), shown: modalAnswer(from, form.viewId), proof };
    },
    'key-add': async (options: { value?: string } = {}): Promise<Asked> => {
      const from = h.slack.calls.length;
      await h.slash(s.operator, `key add ${s.campaignAccountId}`, { channelId: s.channel });
      const form = await openedModal(h, from, 'pix_key_add');
      await submitModal(h, s.operator, form, {
        type: { type: { type: 'static_select', selected_option: { value: 'EMAIL' } } },
        pixKey: { value: { type: 'plain_text_input', value: options.value ?? `approved-${++n}@example.com` } },
      });
      return { root: await pendingRoot(h, from), shown: modalAnswer(from, form.viewId) };
    },
    'key-delete': async (): Promise<Asked> => {
      const key = `to-delete-${++n}@example.com`;
      await sandboxApi(h, 'POST', '/api/v1/pix-keys', s.campaignAppId, { pixKey: key, type: 'EMAIL' });
      const since = h.sandbox.calls.length;
      const res = await h.slash(s.admin, `key delete ${s.campaignAccountId} ${key}`, { channelId: s.channel });
      const confirm = await answerOn(h, res.responseId);
      const button = (confirm.blocks as Array<{ elements?: Array<{ action_id: string; value: string }> }>)
        .flatMap((b) => b.elements ?? [])
        .find((e) => e.action_id === 'pix_key_delete_confirm')!;
      const from = h.slack.calls.length;
      const click = await clickButton(h, {
        userId: s.admin,
        actionId: 'pix_key_delete_confirm',
        value: button.value,
        channelId: s.channel,
      });
      return { root: await pendingRoot(h, from), shown: async () => messageText(await answerOn(h, click.responseId)), since };
    },
    'withdraw-key': async (): Promise<Asked> => {
      const key = `treasury-${++n}@example.com`;
      await sandboxApi(h, 'POST', '/sandbox/dict', undefined, { pixKey: key, type: 'EMAIL', holderTaxId: h.sandbox.companies.main.taxId });
      return confirmed(`withdraw-key ${s.accountId} ${key}`, 'withdraw_key_confirm');
    },
    'account-create': async (): Promise<Asked> => {
      const from = h.slack.calls.length;
      await h.slash(s.admin, 'account create', { channelId: s.channel });
      const form = await openedModal(h, from, 'account_create');
      await submitModal(h, s.admin, form, { name: { name: { type: 'plain_text_input', value: `Campaign ${++n}` } } });
      return { root: await pendingRoot(h, from), shown: modalAnswer(from, form.viewId) };
    },
    'rotate-secret': (): Promise<Asked> => confirmed(`rotate-secret ${s.rotateClientId}`, 'rotate_secret_confirm'),
    /** `/pix pay` on the account, its form typed and sent (the key checked by the form): the pending root. */
    pay: async (options: { value?: string; key?: string; type?: string; comment?: string } = {}): Promise<Asked> => {
      const from = h.slack.calls.length;
      await h.slash(s.operator, `pay ${s.accountId}`, { channelId: s.channel });
      const update = await waitFor('the payment form', () =>
        h.slack.calls
          .slice(from)
          .find((c) => c.method === 'views.update' && (c.args.view as ModalView).blocks.some((b) => b.type === 'input')),
      );
      const form = { view: update.args.view as ModalView, viewId: String(update.args.view_id) };
      const typed: Record<string, string | undefined> = {
        destinationAlias: options.key ?? 'financeiro@graficarapida.com.br',
        value: options.value ?? '123.45',
        comment: options.comment,
      };
      const values: Record<string, Record<string, unknown>> = {};
      for (const b of form.view.blocks as Array<{ type: string; block_id?: string; element?: Record<string, unknown> }>) {
        if (b.type !== 'input' || !b.block_id || !b.element) continue;
        const actionId = String(b.element.action_id);
        if (b.block_id === 'sourceAccountId')
          values[b.block_id] = { [actionId]: { type: b.element.type, selected_option: { value: s.accountId } } };
        else if (b.block_id === 'destinationAliasType')
          values[b.block_id] = { [actionId]: { type: 'static_select', selected_option: options.type ? { value: options.type } : null } };
        else values[b.block_id] = { [actionId]: { type: 'plain_text_input', value: typed[b.block_id] ?? null } };
      }
      await submitModal(h, s.operator, form, values);
      return { root: await pendingRoot(h, from), shown: modalAnswer(from, form.viewId) };
    },
    withdraw: async (options: { amount?: string } = {}): Promise<Asked> => {
      const from = h.slack.calls.length;
      const res = await h.slash(s.operator, `withdraw ${s.accountId} ${options.amount ?? '10,00'}`, { channelId: s.channel });
      return { root: await pendingRoot(h, from), shown: async () => messageText(await answerOn(h, res.responseId)) };
    },
  } satisfies Record<ApprovalAction, (options?: never) => Promise<Asked>>;
}

/** An app in a child process, driven like the harness's (the fake Slack and the sandbox are this process's). */
export function processDriver(proc: AppProcess, slack: SlackStandIn, sandbox: SandboxHandle): Harness {
  const post = poster(proc.eventsUrl, slack);
  const slash: Harness['slash'] = (userId, text, opts = {}) => sendSlash(post, slack, userId, text, opts, `proc-${++n}`);
  return { slack, sandbox, post, slash } as unknown as Harness;
}
