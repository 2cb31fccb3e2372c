import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { ApprovalKind, ApprovalResult, ApprovalRun } from '../src/approvals/kinds';
import { approvalsOn, askApproval } from '../src/approvals/request';
import type { Deps } from '../src/deps';
import type { PayloadOf } from '../src/domain/approvals';
import type { ActionArgs, CommandRow, EntryContext, EntryRow } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import type { Account, Application } from '../src/pix/schemas';
import { noticeMetadata, postToUser } from '../src/slack/post-once';
import {
  ACCOUNT_CREATE_CALLBACK,
  ACCOUNT_LINK_CALLBACK,
  ACCOUNTS_NEXT_ACTION_ID,
  ACCOUNTS_PREV_ACTION_ID,
  APP_CREATE_ANYWAY_ACTION_ID,
  APP_ID_BLOCK,
  APP_RETRY_ACTION_ID,
  type AppStatus,
  accountAnnouncements,
  accountMessage,
  accountsMessage,
  CAMPAIGN_NAME_MAX,
  createAccountModal,
  infoModal,
  linkModal,
  NAME_BLOCK,
  progressBlocks,
  quoted,
  retryButton,
  secretBlocks,
  uncertainBlocks,
} from '../views/accounts';
import { AccountCreateMetaSchema, AccountLinkMetaSchema, type AppRetry, AppRetrySchema, readCarried } from '../views/carried';
import { apiText, failureText } from '../views/errors';
import { code, context, inlineErrorText, type SlackMessage, section } from '../views/message';
import {
  announcementMissedText,
  claimOnce,
  exclusive,
  isPending,
  logFailure,
  PENDING_APP_ID,
  postAnnouncement,
  postEphemeral,
  present,
  sleep,
} from './account-shared';
import { pageTurner, parsePage } from './paging';
import { accountIdArg, PixIdSchema } from './parse';

/** A view submission must be answered within three seconds: the AppID check gets this long inline. */
const LINK_CHECK_BUDGET_MS = 2_000;

async function appStatusOf(deps: Deps, account: Account): Promise<AppStatus> {
  try {
    const stored = await deps.store.accountApps.get(account.accountId);
    if (stored && isPending(stored))
      return stored.uncertainSince ? { kind: 'uncertain', name: stored.name } : { kind: 'pending', name: stored.name };
    if (stored) return { kind: stored.staleSince ? 'stale' : 'stored', name: stored.name, clientId: stored.clientId };
  } catch (err) {
    deps.logger.warn({ accountId: account.accountId, ...describeError(err) }, 'could not read a stored AppID');
  }
  return account.isDefault === true ? { kind: 'main' } : { kind: 'none' };
}

const accountsCommand: CommandRow = {
  kind: 'command',
  id: 'accounts',
  argsUsage: '',
  summary: 'accounts',
  what: 'readAccounts',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 0,
  async handler({ deps, locale }) {
    return accountsPage(deps, locale, 1);
  },
};

/** A page of `/pix accounts`: the list is read again each time (the stored AppIDs too). */
async function accountsPage(deps: Deps, locale: Locale, page: number): Promise<SlackMessage> {
  const accounts = await deps.pix.listAccounts(deps.mainAppId);
  const rows = await Promise.all(accounts.map(async (account) => ({ account, app: await appStatusOf(deps, account) })));
  return accountsMessage(locale, rows, page);
}

const turnAccountsPage = pageTurner('readAccounts', async ({ deps, locale }, value) => {
  const page = parsePage(value);
  return page === undefined ? undefined : accountsPage(deps, locale, page);
});

const accountCommand: CommandRow = {
  kind: 'command',
  id: 'account',
  argsUsage: '<accountId>',
  summary: 'account',
  what: 'readAccount',
  role: 'viewer',
  minArgs: 1,
  maxArgs: 1,
  async handler({ deps, args, locale }) {
    const id = accountIdArg(locale, args[0]);
    const account = await deps.pix.getAccount(deps.mainAppId, id);
    return accountMessage(locale, { account, app: await appStatusOf(deps, account) });
  },
};

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

const linkCommand: CommandRow = {
  kind: 'command',
  id: 'account link',
  argsUsage: '<accountId>',
  summary: 'accountLink',
  what: 'openAppIdForm',
  role: 'admin',
  minArgs: 1,
  maxArgs: 1,
  async handler({ deps, args, triggerId, channelId, locale }) {
    const accountId = accountIdArg(locale, args[0]);
    await deps.slack.retried.views.open({
      trigger_id: triggerId,
      view: linkModal(locale, { meta: { channelId, accountId }, sandbox: deps.sandboxMode }),
    });
    return null;
  },
};

// Creating a campaign account: the account, then its application, each step once.

interface AppStep {
  /** The admin's language: their answers, and the channel's record of what they did. */
  locale: Locale;
  accountId: string;
  name: string;
  channel: string;
  /** The thread the channel's record goes in (an approval's root), if any. */
  threadTs?: string;
  userId: string;
  masterAppId: string;
  /** True for the step right after the account's creation; false for a retry. */
  first: boolean;
  /** Shows blocks to the admin alone (the modal, an ephemeral answer, a DM); false when that failed. */
  answer(blocks: KnownBlock[]): Promise<boolean>;
  /** The channel message that announced the failure, to close once the application exists. */
  failureMessage?: { channel: string; ts: string };
}

/** How creating a campaign ended: its account (if it got that far) and application, or what went wrong. */
type CampaignResult = { ok: true; accountId: string; clientId?: string } | { ok: false; problem: string; accountId?: string };

async function saveAppId(deps: Deps, entry: { accountId: string; appId: string; clientId?: string; name: string }): Promise<boolean> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await deps.store.accountApps.save(entry);
      return true;
    } catch (err) {
      deps.logger.error({ accountId: entry.accountId, attempt, ...describeError(err) }, 'could not store an AppID');
      if (attempt < 3) await sleep(200 * attempt);
    }
  }
  return false;
}

async function closeFailureMessage(deps: Deps, step: AppStep, clientId: string | undefined, byUserId: string): Promise<void> {
  if (!step.failureMessage) return;
  const m = present(
    deps,
    step.locale,
    accountAnnouncements(step.locale).appFailedResolved({ accountId: step.accountId, name: step.name, byUserId, clientId }),
  );
  await deps.slack.retried.chat
    .update({ channel: step.failureMessage.channel, ts: step.failureMessage.ts, text: m.text, blocks: m.blocks })
    .catch((err: unknown) => {
      deps.logger.info({ ...describeError(err) }, 'could not close the failure message');
    });
}

/** Shows the client secret to the admin once: where they are, else ephemerally in the channel. */
async function showSecretOnce(deps: Deps, step: AppStep, blocks: KnownBlock[]): Promise<void> {
  if (await step.answer(blocks)) return;
  const m = messages(step.locale).accounts;
  const message: SlackMessage = { text: m.appCreatedText(step.accountId), blocks };
  if (await postEphemeral(deps, step.locale, step.channel, step.userId, message)) return;
  deps.logger.warn({ accountId: step.accountId, user: step.userId }, 'could not show the new client secret');
  const fallback = m.secretNotShown(code(step.accountId));
  await postToUser(
    deps.slack.exact,
    step.userId,
    present(deps, step.locale, { text: fallback, blocks: [section(fallback)] }),
    noticeMetadata(),
  ).catch(() => undefined);
}

/** Why a creation that got no clear answer may have happened all the same, in words. */
function uncertainReason(locale: Locale, err: unknown): string {
  const m = messages(locale).appCreation;
  if (!(err instanceof PixApiError)) return m.reasonUnknown;
  switch (err.kind) {
    case 'timeout':
      return m.reasonTimeout;
    case 'network':
      return m.reasonNetwork;
    case 'invalid_response':
      return m.reasonUnreadable;
    case 'http':
      return m.reasonGateway(err.status);
  }
}

/**
 * The application was not created, or may have been: the channel is told (the first time) and the
 * admin too. After a clear refusal a retry is safe and offered; when the outcome is unknown it is not
 * (the Pix API cannot list an account's applications), and the admin is told how to find out.
 */
async function reportAppFailure(deps: Deps, step: AppStep, outcome: { refused: string } | { uncertain: string }): Promise<CampaignResult> {
  const { locale } = step;
  const m = messages(locale).accounts;
  const announcements = accountAnnouncements(locale);
  const value: AppRetry = { accountId: step.accountId, name: step.name, channelId: step.channel };
  let missed = '';
  if (step.first) {
    const announcement =
      'refused' in outcome
        ? announcements.appFailed({
            userId: step.userId,
            accountId: step.accountId,
            name: step.name,
            problem: outcome.refused,
            retryValue: value,
          })
        : announcements.appUncertain({
            userId: step.userId,
            accountId: step.accountId,
            name: step.name,
            reason: outcome.uncertain,
            value,
          });
    const posted = await postAnnouncement(deps, locale, step.channel, announcement, step.threadTs);
    if (posted) value.failureTs = posted.ts;
    else missed = announcementMissedText(locale, step.channel);
  } else if (step.failureMessage) {
    value.failureTs = step.failureMessage.ts;
  }
  if ('refused' in outcome) {
    const lead = step.first
      ? m.createdButAppFailed({ account: code(step.accountId), name: quoted(step.name), problem: outcome.refused })
      : m.appStillFailed({ account: code(step.accountId), problem: outcome.refused });
    await step.answer([section(`${lead}${missed}`), context(m.retryNote), retryButton(locale, value)]);
    return { ok: false, problem: lead, accountId: step.accountId };
  }
  const c = messages(locale).appCreation;
  const lead = step.first
    ? c.uncertain({ account: code(step.accountId), name: quoted(step.name), reason: outcome.uncertain })
    : c.uncertainAgain({ account: code(step.accountId), reason: outcome.uncertain });
  await step.answer(uncertainBlocks(locale, { lead: `${lead}${missed}`, accountId: step.accountId, value }));
  return { ok: false, problem: lead, accountId: step.accountId };
}

async function createApplicationStep(deps: Deps, step: AppStep): Promise<CampaignResult> {
  const { locale } = step;
  const m = messages(locale).accounts;
  const announcements = accountAnnouncements(locale);
  // Recorded before it is sent: should no clear answer come (or this process die waiting for it),
  // the application may exist, and no retry creates another one blindly.
  try {
    await deps.store.accountApps.save({
      accountId: step.accountId,
      appId: PENDING_APP_ID,
      name: step.name,
      uncertainSince: new Date().toISOString(),
    });
  } catch (err) {
    deps.logger.error({ accountId: step.accountId, ...describeError(err) }, 'could not record an application creation before sending it');
    return reportAppFailure(deps, step, { refused: messages(locale).appCreation.notMarked });
  }
  let app: Application;
  try {
    app = await deps.pix.createApplication(step.masterAppId, { accountId: step.accountId, name: step.name });
  } catch (err) {
    logFailure(deps, err, 'create an application');
    if (err instanceof PixApiError && !err.mayHaveWritten) {
      // The service's own refusal: nothing was created, and a retry is safe again.
      await deps.store.accountApps.save({ accountId: step.accountId, appId: PENDING_APP_ID, name: step.name }).catch((e: unknown) => {
        deps.logger.warn({ accountId: step.accountId, ...describeError(e) }, 'could not clear the mark of an application creation');
      });
      return reportAppFailure(deps, step, { refused: failureText(locale, err, 'createApplication', { write: true }) });
    }
    return reportAppFailure(deps, step, { uncertain: uncertainReason(locale, err) });
  }

  // Secrets first: from here on, any line that might carry them is scrubbed.
  deps.secrets.add(app.appID);
  deps.secrets.add(app.clientSecret);
  const stored = app.appID
    ? await saveAppId(deps, { accountId: step.accountId, appId: app.appID, clientId: app.clientId, name: step.name })
    : false;
  deps.logger.info({ accountId: step.accountId, clientId: app.clientId, user: step.userId, stored }, 'campaign application created');

  const who = { userId: step.userId, accountId: step.accountId, name: step.name, clientId: app.clientId, stored };
  const announcement = step.first ? announcements.created(who) : announcements.appRetried(who);
  const posted = await postAnnouncement(deps, locale, step.channel, announcement, step.threadTs);
  await closeFailureMessage(deps, step, app.clientId, step.userId);

  const blocks = secretBlocks(locale, {
    accountId: step.accountId,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    unstoredAppId: app.appID && !stored ? app.appID : undefined,
  });
  if (!app.appID) blocks.push(section(m.noAppIdInAnswer(step.accountId)));
  if (!posted) blocks.push(section(announcementMissedText(locale, step.channel).trim()));
  await showSecretOnce(deps, step, blocks);
  return { ok: true, accountId: step.accountId, clientId: app.clientId };
}

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

/**
 * "Retry creating the application": only that step, for that account, and only if still missing and
 * no earlier attempt may have made it. `anyway` ("It has none: create it", behind Slack's confirmation
 * dialog): the admin has looked in the Pix service's portal, which the app cannot.
 */
async function retryApplication(args: ActionArgs, ctx: EntryContext, anyway: boolean): Promise<void> {
  const { deps, locale } = ctx;
  const m = messages(locale).accounts;
  const { body, action } = args;
  const fromView = body.view?.type === 'modal' ? body.view : undefined;
  const answer = async (blocks: KnownBlock[]): Promise<boolean> => {
    try {
      if (fromView) {
        await deps.slack.retried.views.update({ view_id: fromView.id, view: infoModal(locale, m.createTitle, blocks, deps.sandboxMode) });
        return true;
      }
      if (body.response_url) {
        await args.respond({
          response_type: 'ephemeral',
          replace_original: false,
          ...present(deps, locale, { text: m.campaignAccount, blocks }),
        });
        return true;
      }
    } catch (err) {
      deps.logger.info({ ...describeError(err) }, 'could not answer a retry');
    }
    return false;
  };

  const raw = 'value' in action && typeof action.value === 'string' ? action.value : undefined;
  const value = readCarried(AppRetrySchema, raw);
  if (!value) {
    await answer([section(messages(locale).common.buttonNoAccount)]);
    return;
  }
  const masterAppId = deps.masterAppId;
  if (!masterAppId) {
    await answer([section(m.masterMissing)]);
    return;
  }
  const container = body.container as { type?: string; is_ephemeral?: boolean } | undefined;
  // The channel's failure message, to close once the application exists: the one clicked, or the one
  // the button names (from the modal, or an ephemeral answer).
  const failureMessage =
    !fromView && body.message?.ts && container?.is_ephemeral !== true
      ? { channel: body.channel?.id ?? value.channelId, ts: body.message.ts }
      : value.failureTs
        ? { channel: value.channelId, ts: value.failureTs }
        : undefined;

  const run = await exclusive(deps, `app:${value.accountId}`, async () => {
    const stored = await deps.store.accountApps.get(value.accountId);
    if (stored && !isPending(stored)) {
      await answer([
        section(m.alreadyHasApp({ account: code(value.accountId), ...(stored.clientId ? { clientId: code(stored.clientId) } : {}) })),
      ]);
      return;
    }
    if (stored?.uncertainSince && !anyway) {
      const lead = messages(locale).appCreation.stillUncertain(code(value.accountId));
      await answer(
        uncertainBlocks(locale, {
          lead,
          accountId: value.accountId,
          value: { ...value, ...(failureMessage ? { failureTs: failureMessage.ts } : {}) },
        }),
      );
      return;
    }
    await createApplicationStep(deps, {
      locale,
      accountId: value.accountId,
      name: stored?.name ?? value.name,
      channel: value.channelId,
      userId: ctx.userId,
      masterAppId,
      first: false,
      answer,
      failureMessage,
    });
  });
  if (!run.ran) await answer([section(m.appBeingCreated(code(value.accountId)))]);
}

// Registering the AppID of an account created elsewhere.

type LinkCheck = { ok: true } | { ok: false; problem: string };

/** Inline modal errors are plain text. */

/** A read with the AppID: it must work and belong to that very account. Then it is stored, encrypted. */
async function checkAndStore(deps: Deps, locale: Locale, accountId: string, appId: string): Promise<LinkCheck> {
  const m = messages(locale).accounts;
  let bound: string | undefined;
  try {
    bound = (await deps.pix.listPixKeys(appId)).account?.accountId;
  } catch (err) {
    logFailure(deps, err, 'check an AppID');
    if (err instanceof PixApiError && err.kind === 'http' && err.status === 401) {
      return { ok: false, problem: m.appIdRefused(err.error === undefined ? undefined : apiText(err.error)) };
    }
    return { ok: false, problem: m.nothingStored(inlineErrorText(failureText(locale, err, 'checkAppId'))) };
  }
  if (!bound) return { ok: false, problem: m.appIdNoAccount };
  if (bound !== accountId) return { ok: false, problem: m.appIdOtherAccount({ bound, accountId }) };
  try {
    const existing = await deps.store.accountApps.get(accountId).catch(() => undefined);
    const sameApp = existing?.appId === appId;
    await deps.store.accountApps.save({ accountId, appId, name: existing?.name, clientId: sameApp ? existing?.clientId : undefined });
  } catch (err) {
    deps.logger.error({ accountId, ...describeError(err) }, 'could not store an AppID');
    return { ok: false, problem: m.appIdNotStored };
  }
  deps.logger.info({ accountId }, 'AppID registered for an account');
  return { ok: true };
}

function linkedBlocks(locale: Locale, accountId: string): KnownBlock[] {
  return [section(messages(locale).accounts.linked({ account: code(accountId), accountId }))];
}

const linkSubmitted: EntryRow = {
  kind: 'view',
  id: ACCOUNT_LINK_CALLBACK,
  role: 'admin',
  what: 'registerAppId',
  errorBlock: APP_ID_BLOCK,
  async handler({ ack, body, view }, ctx) {
    const { deps, locale } = ctx;
    const m = messages(locale).accounts;
    const errors = (text: string) => ack({ response_action: 'errors', errors: { [APP_ID_BLOCK]: inlineErrorText(text) } });
    const meta = readCarried(AccountLinkMetaSchema, view.private_metadata);
    if (!meta) return errors(m.linkOutOfDate);
    const appId = (view.state.values[APP_ID_BLOCK]?.app_id?.value ?? '').trim();
    if (appId === '') return errors(m.enterAppId);
    if (/\s/.test(appId) || appId.length > 1000) return errors(m.notAnAppId);
    deps.secrets.add(appId);

    const check = checkAndStore(deps, locale, meta.accountId, appId);
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, LINK_CHECK_BUDGET_MS, undefined);
    });
    const early = await Promise.race([check, budget]);
    clearTimeout(timer);
    let result: LinkCheck;
    if (early) {
      if (!early.ok) return errors(early.problem);
      await ack({
        response_action: 'update',
        view: infoModal(locale, m.linkTitle, linkedBlocks(locale, meta.accountId), deps.sandboxMode),
      });
      result = early;
    } else {
      await ack({
        response_action: 'update',
        view: infoModal(locale, m.linkTitle, progressBlocks(locale, m.checkingAppId), deps.sandboxMode),
      });
      result = await check;
      const next = result.ok
        ? infoModal(locale, m.linkTitle, linkedBlocks(locale, meta.accountId), deps.sandboxMode)
        : linkModal(locale, { meta, sandbox: deps.sandboxMode, problem: result.problem });
      await deps.slack.retried.views.update({ view_id: view.id, view: next }).catch(() => undefined);
    }
    if (result.ok)
      await postAnnouncement(
        deps,
        locale,
        meta.channelId,
        accountAnnouncements(locale).linked({ userId: body.user.id, accountId: meta.accountId }),
      );
  },
};

export const accountRows: EntryRow[] = [
  accountsCommand,
  accountCommand,
  createCommand,
  linkCommand,
  createSubmitted,
  {
    kind: 'action',
    id: APP_RETRY_ACTION_ID,
    role: 'admin',
    what: 'retryApplication',
    handler: (args, ctx) => retryApplication(args, ctx, false),
  },
  {
    kind: 'action',
    id: APP_CREATE_ANYWAY_ACTION_ID,
    role: 'admin',
    what: 'retryApplication',
    handler: (args, ctx) => retryApplication(args, ctx, true),
  },
  { kind: 'action', id: ACCOUNTS_PREV_ACTION_ID, role: 'viewer', what: 'readAccounts', handler: turnAccountsPage },
  { kind: 'action', id: ACCOUNTS_NEXT_ACTION_ID, role: 'viewer', what: 'readAccounts', handler: turnAccountsPage },
  linkSubmitted,
];
