import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { ApprovalKind, ApprovalResult, ApprovalRun } from '../src/approvals/kinds';
import { approvalsOn, askApproval } from '../src/approvals/request';
import type { Deps } from '../src/deps';
import type { PayloadOf } from '../src/domain/approvals';
import type { CommandRow, EntryRow } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import type { Account } from '../src/pix/schemas';
import {
  ACCOUNT_CREATE_CALLBACK,
  accountAnnouncements,
  CAMPAIGN_NAME_MAX,
  createAccountModal,
  infoModal,
  NAME_BLOCK,
  progressBlocks,
} from '../views/accounts';
import { AccountCreateMetaSchema, readCarried } from '../views/carried';
import { failureText } from '../views/errors';
import { code, inlineErrorText, section } from '../views/message';
import { type AppStep, type CampaignResult, createApplicationStep, reportAppFailure } from './account-application';
import { claimOnce, isPending, logFailure, PENDING_APP_ID } from './account-shared';
import { PixIdSchema } from './parse';

// Creating a campaign account: the account, then its application, each step once; with or without approval.

const createCommand: CommandRow = {
  kind: 'command',
  id: 'account create',
  argsUsage: '',
  summary: 'accountCreate',
  what: 'openAccountForm',
  role: 'admin',
  minArgs: 0,
  maxArgs: 0,
  async handler({ deps, triggerId, channelId, locale }) {
    const missing = messages(locale).accounts.masterMissing;
    if (!deps.masterAppId) return { text: missing, blocks: [section(missing)] };
    await deps.slack.retried.views.open({
      trigger_id: triggerId,
      view: createAccountModal(locale, { meta: { channelId }, sandbox: deps.sandboxMode }),
    });
    return null;
  },
};

/** A campaign's creation: who asks, where it is recorded, where the admin is answered. */
interface CampaignJob {
  userId: string;
  channel: string;
  threadTs?: string;
  name: string;
  masterAppId: string;
  /** Shows blocks to the admin alone (the client secret, or the retry button); false when that failed. */
  answer(blocks: KnownBlock[]): Promise<boolean>;
  /** Progress between the two steps, where the admin watches (the modal). */
  progress?(blocks: KnownBlock[]): Promise<unknown>;
  /** Runs just before each write (an approval records its intent there). */
  beforeWrite?(step: 'account' | 'application', accountId?: string): Promise<void>;
}

/**
 * The write path of `account create`, with or without approval: `POST /api/v1/account` with the
 * MASTER AppID, the account remembered as waiting for its application, then the application's step.
 */
async function createCampaign(deps: Deps, locale: Locale, job: CampaignJob): Promise<CampaignResult> {
  const m = messages(locale).accounts;
  let account: Account;
  try {
    await job.beforeWrite?.('account');
    account = await deps.pix.createAccount(job.masterAppId);
  } catch (err) {
    logFailure(deps, err, 'create an account');
    const nothing = err instanceof PixApiError && err.kind === 'http' ? m.nothingCreated : '';
    return { ok: false, problem: `${failureText(locale, err, 'createAccount', { write: true })}${nothing}` };
  }
  deps.logger.info({ accountId: account.accountId, user: job.userId }, 'campaign account created');
  return createCampaignApplication(deps, locale, job, account.accountId);
}

/** The second half: the account is ours and waits for its application (remembered before it is asked for). */
async function createCampaignApplication(deps: Deps, locale: Locale, job: CampaignJob, accountId: string): Promise<CampaignResult> {
  await deps.store.accountApps.save({ accountId, appId: PENDING_APP_ID, name: job.name }).catch((err: unknown) => {
    deps.logger.warn({ accountId, ...describeError(err) }, 'could not remember the new account');
  });
  await job.progress?.(progressBlocks(locale, messages(locale).accounts.accountCreated(code(accountId))));
  await job.beforeWrite?.('application', accountId);
  return createApplicationStep(deps, {
    locale,
    accountId,
    name: job.name,
    channel: job.channel,
    threadTs: job.threadTs,
    userId: job.userId,
    masterAppId: job.masterAppId,
    first: true,
    answer: job.answer,
  });
}

const createSubmitted: EntryRow = {
  kind: 'view',
  id: ACCOUNT_CREATE_CALLBACK,
  role: 'admin',
  what: 'createCampaignAccount',
  errorBlock: NAME_BLOCK,
  async handler({ ack, view }, ctx) {
    const { deps, locale, userId } = ctx;
    const m = messages(locale).accounts;
    const meta = readCarried(AccountCreateMetaSchema, view.private_metadata);
    if (!meta) {
      await ack({ response_action: 'errors', errors: { [NAME_BLOCK]: m.createOutOfDate } });
      return;
    }
    const name = (view.state.values[NAME_BLOCK]?.name?.value ?? '').trim().replace(/\s+/g, ' ');
    if (name === '') {
      await ack({ response_action: 'errors', errors: { [NAME_BLOCK]: m.enterName } });
      return;
    }
    if (name.length > CAMPAIGN_NAME_MAX) {
      await ack({ response_action: 'errors', errors: { [NAME_BLOCK]: m.nameTooLong(CAMPAIGN_NAME_MAX) } });
      return;
    }
    const masterAppId = deps.masterAppId;
    if (!masterAppId) {
      await ack({ response_action: 'errors', errors: { [NAME_BLOCK]: inlineErrorText(m.masterMissing) } });
      return;
    }
    if (!(await claimOnce(deps, `account-create:${view.id}`))) {
      await ack({ response_action: 'update', view: infoModal(locale, m.createTitle, [section(m.alreadySubmitted)], deps.sandboxMode) });
      return;
    }
    const show = (blocks: KnownBlock[]) =>
      deps.slack.retried.views.update({ view_id: view.id, view: infoModal(locale, m.createTitle, blocks, deps.sandboxMode) }).then(
        () => true,
        () => false,
      );
    if (approvalsOn(deps, 'account-create')) {
      await ack({
        response_action: 'update',
        view: infoModal(locale, m.createTitle, progressBlocks(locale, messages(locale).approvals.requesting), deps.sandboxMode),
      });
      const told = await askApproval(deps, {
        maker: { userId, locale },
        channel: meta.channelId,
        payload: { action: 'account-create', name },
      });
      await show([section(told)]);
      return;
    }
    await ack({
      response_action: 'update',
      view: infoModal(locale, m.createTitle, progressBlocks(locale, m.creatingAccount), deps.sandboxMode),
    });
    const result = await createCampaign(deps, locale, { userId, channel: meta.channelId, name, masterAppId, answer: show, progress: show });
    if (!result.ok && !result.accountId) await show([section(result.problem)]);
  },
};

const AccountsSnapshotSchema = z.object({ accounts: z.array(z.string()) });

const fromCampaign = (result: CampaignResult): ApprovalResult => (result.ok ? { ok: true } : { ok: false, problem: result.problem });

/**
 * The approved `account create`: the same two steps; the client secret (or the retry button) goes to
 * the maker's DM. `undelivered` learns when that DM failed (nothing else is tried: an ephemeral
 * message reaches only a Slack window open at that moment); the thread then says so.
 */
function campaignJobFor(
  run: ApprovalRun,
  p: PayloadOf<'account-create'>,
  masterAppId: string,
  undelivered: () => void = () => undefined,
): CampaignJob {
  const { deps, locale, record } = run;
  const m = messages(locale);
  return {
    userId: record.makerId,
    channel: record.channel,
    threadTs: record.rootTs || undefined,
    name: p.name,
    masterAppId,
    async answer(blocks) {
      const lead = m.approvals.secretLead(m.approvals.actionTitle('account-create'));
      if (!(await run.toMaker({ text: lead, blocks: [section(lead), ...blocks] }))) undelivered();
      return true;
    },
    async beforeWrite(step, accountId) {
      if (step === 'application') return run.intent('application', { accountId });
      // The accounts before the write tell the new one apart, should the app stop before it learns its id.
      const before = (await deps.pix.listAccounts(deps.mainAppId)).map((a) => a.accountId);
      await run.intent('account', { accounts: before });
    },
  };
}

export const accountCreateApproval: ApprovalKind<'account-create'> = {
  action: 'account-create',
  async execute(run, p) {
    const masterAppId = run.deps.masterAppId;
    if (!masterAppId) return { ok: false, problem: messages(run.locale).accounts.masterMissing };
    // The client secret goes to the maker's DM: unless it opens, nothing is created.
    const m = messages(run.locale).approvalRules;
    if (!(await run.makerReachable())) return { ok: false, problem: m.makerUnreachable(`<@${run.record.makerId}>`) };
    let undelivered = false;
    const result = await createCampaign(
      run.deps,
      run.locale,
      campaignJobFor(run, p, masterAppId, () => (undelivered = true)),
    );
    if (result.ok && undelivered) {
      // Never lost silently: the thread says so, and what to do.
      const text = m.secretUndelivered({ maker: `<@${run.record.makerId}>`, clientId: result.clientId ?? '<clientId>' });
      await run.inThread({ text, blocks: [section(text)] }, 'secret-undelivered');
    }
    return fromCampaign(result);
  },
  async resume(run, p, intent) {
    const { deps, locale, record } = run;
    const masterAppId = deps.masterAppId;
    if (!masterAppId) return { ok: false, problem: messages(locale).accounts.masterMissing };
    const m = messages(locale);
    if (intent?.step === 'application') {
      const accountId = z.object({ accountId: PixIdSchema }).parse(intent.data).accountId;
      const stored = await deps.store.accountApps.get(accountId);
      if (stored && !isPending(stored)) {
        await run.inThread(
          accountAnnouncements(locale).created({
            userId: record.makerId,
            accountId,
            name: p.name,
            clientId: stored.clientId,
            stored: true,
          }),
        );
        const text = m.accounts.secretNotShown(code(accountId));
        await run.toMaker({ text, blocks: [section(text)] });
        return { ok: true };
      }
      const job = campaignJobFor(run, p, masterAppId);
      // Marked before it is sent (uncertainSince): without the mark it never was, and it is made now.
      if (!stored?.uncertainSince) return fromCampaign(await createCampaignApplication(deps, locale, job, accountId));
      // The interface lists no applications: whether this one was made cannot be told, so it is not
      // asked for again; the thread and the maker are told how to find out, as without approvals.
      const step: AppStep = {
        locale,
        accountId,
        name: p.name,
        channel: job.channel,
        threadTs: job.threadTs,
        userId: record.makerId,
        masterAppId,
        first: true,
        answer: job.answer,
      };
      return fromCampaign(await reportAppFailure(deps, step, { uncertain: m.appCreation.reasonUnknown }));
    }
    if (intent?.step === 'account') {
      const before = AccountsSnapshotSchema.parse(intent.data).accounts;
      const fresh = (await deps.pix.listAccounts(deps.mainAppId)).filter((a) => !before.includes(a.accountId));
      const ours: string[] = [];
      for (const account of fresh) {
        const stored = await deps.store.accountApps.get(account.accountId);
        if (!stored || (isPending(stored) && stored.name === p.name)) ours.push(account.accountId);
      }
      if (ours.length > 1) return { ok: false, problem: m.approvals.interrupted };
      if (ours.length === 1) {
        return fromCampaign(await createCampaignApplication(deps, locale, campaignJobFor(run, p, masterAppId), ours[0]!));
      }
    }
    return accountCreateApproval.execute(run, p);
  },
};

export const accountCreateRows: EntryRow[] = [createCommand, createSubmitted];
