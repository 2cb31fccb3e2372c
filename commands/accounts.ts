import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { ActionArgs, Entry, EntryContext } from '../src/entries';
import { PixApiError } from '../src/pix/errors';
import type { Account, Application } from '../src/pix/schemas';
import {
  ACCOUNT_CREATE_CALLBACK,
  ACCOUNT_LINK_CALLBACK,
  accountAudit,
  accountMessage,
  accountsMessage,
  APP_ID_BLOCK,
  APP_RETRY_ACTION_ID,
  code,
  createAccountModal,
  infoModal,
  linkModal,
  NAME_BLOCK,
  progressBlocks,
  quoted,
  retryButton,
  secretBlocks,
  type AppStatus,
} from '../views/accounts';
import { context, section, type SlackMessage } from '../views/message';
import {
  ALREADY_SUBMITTED,
  auditMissedText,
  claimOnce,
  exclusive,
  failureText,
  isPending,
  logFailure,
  PENDING_APP_ID,
  postAudit,
  postEphemeral,
  present,
  readJson,
  sleep,
} from './account-shared';
import { PixIdSchema } from './parse';
import { UsageError, type CommandDef } from './types';
import type { Deps } from '../src/deps';

const CREATE_TITLE = 'New campaign account';
const LINK_TITLE = 'Link an AppID';
/** A view submission must be answered within three seconds: the AppID check gets this long inline. */
const LINK_CHECK_BUDGET_MS = 2_000;
const MAX_NAME = 80;

export const MASTER_MISSING_TEXT =
  'Campaign accounts are created with the MASTER application, and no `PIX_MASTER_APP_ID` is set. Set it in the bot’s environment and restart it. Nothing was created.';

const ChannelSchema = z.string().regex(/^[A-Z0-9]{2,30}$/);
const CreateMetaSchema = z.object({ c: ChannelSchema });
const LinkMetaSchema = z.object({ c: ChannelSchema, a: PixIdSchema });
/** The retry button: the account, the campaign name, the channel, and the channel message (if known). */
const RetrySchema = z.object({ a: PixIdSchema, n: z.string().min(1).max(MAX_NAME), c: ChannelSchema, t: z.string().max(40).optional() });
type RetryValue = z.infer<typeof RetrySchema>;

const parseWith =
  <T>(schema: z.ZodType<T>) =>
  (v: unknown) => {
    const r = schema.safeParse(v);
    return r.success ? r.data : undefined;
  };

async function appStatusOf(deps: Deps, account: Account): Promise<AppStatus> {
  try {
    const stored = await deps.store.accountApps.get(account.accountId);
    if (stored && isPending(stored)) return { kind: 'pending', name: stored.name };
    if (stored) return { kind: 'stored', name: stored.name, clientId: stored.clientId };
  } catch (err) {
    deps.logger.warn({ accountId: account.accountId, err: err instanceof Error ? err.message : String(err) }, 'could not read a stored AppID');
  }
  return account.isDefault === true ? { kind: 'main' } : { kind: 'none' };
}

const accountsCommand: CommandDef = {
  path: ['accounts'],
  argsUsage: '',
  summary: 'the company’s accounts: balance, default flag, withdraw key, withdraw block',
  action: 'read the accounts',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 0,
  async run({ deps }) {
    const accounts = await deps.pix.listAccounts(deps.mainAppId);
    const rows = await Promise.all(accounts.map(async (account) => ({ account, app: await appStatusOf(deps, account) })));
    return accountsMessage(rows);
  },
};

const accountCommand: CommandDef = {
  path: ['account'],
  argsUsage: '<accountId>',
  summary: 'one account',
  action: 'read the account',
  role: 'viewer',
  minArgs: 1,
  maxArgs: 1,
  async run({ deps, args }) {
    const id = args[0] ?? '';
    if (!PixIdSchema.safeParse(id).success) throw new UsageError('That is not an account id.');
    const account = await deps.pix.getAccount(deps.mainAppId, id);
    return accountMessage({ account, app: await appStatusOf(deps, account) });
  },
};

const createCommand: CommandDef = {
  path: ['account', 'create'],
  argsUsage: '',
  summary: 'create a campaign account with its own application',
  action: 'open the campaign-account form',
  role: 'admin',
  minArgs: 0,
  maxArgs: 0,
  async run({ deps, triggerId, channelId }) {
    if (!deps.masterAppId) return { text: MASTER_MISSING_TEXT, blocks: [section(MASTER_MISSING_TEXT)] };
    await deps.slack.views.open({
      trigger_id: triggerId,
      view: createAccountModal({ privateMetadata: JSON.stringify({ c: channelId }), sandbox: deps.sandboxMode }),
    });
    return null;
  },
};

const linkCommand: CommandDef = {
  path: ['account', 'link'],
  argsUsage: '<accountId>',
  summary: 'register the AppID of an account created elsewhere',
  action: 'open the AppID form',
  role: 'admin',
  minArgs: 1,
  maxArgs: 1,
  async run({ deps, args, triggerId, channelId }) {
    const accountId = args[0] ?? '';
    if (!PixIdSchema.safeParse(accountId).success) throw new UsageError('That is not an account id.');
    await deps.slack.views.open({
      trigger_id: triggerId,
      view: linkModal({ accountId, privateMetadata: JSON.stringify({ c: channelId, a: accountId }), sandbox: deps.sandboxMode }),
    });
    return null;
  },
};

export const accountCommands: CommandDef[] = [accountsCommand, accountCommand, createCommand, linkCommand];

// Creating a campaign account: the account, then its application, each step once.

interface AppStep {
  accountId: string;
  name: string;
  channel: string;
  userId: string;
  masterAppId: string;
  /** True for the step right after the account's creation; false for a retry. */
  first: boolean;
  /** Shows blocks to the admin alone (the modal, or an ephemeral answer); false when that failed. */
  answer(blocks: KnownBlock[]): Promise<boolean>;
  /** The channel message that announced the failure, to close once the application exists. */
  failureMessage?: { channel: string; ts: string };
}

async function saveAppId(deps: Deps, entry: { accountId: string; appId: string; clientId?: string; name: string }): Promise<boolean> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      await deps.store.accountApps.save(entry);
      return true;
    } catch (err) {
      deps.logger.error({ accountId: entry.accountId, attempt, err: err instanceof Error ? err.message : String(err) }, 'could not store an AppID');
      if (attempt < 3) await sleep(200 * attempt);
    }
  }
  return false;
}

async function closeFailureMessage(deps: Deps, step: AppStep, clientId: string | undefined, byUserId: string): Promise<void> {
  if (!step.failureMessage) return;
  const m = present(deps, accountAudit.appFailedResolved({ accountId: step.accountId, name: step.name, byUserId, clientId }));
  await deps.slack.chat.update({ channel: step.failureMessage.channel, ts: step.failureMessage.ts, text: m.text, blocks: m.blocks }).catch((err: unknown) => {
    deps.logger.info({ err: err instanceof Error ? err.message : String(err) }, 'could not close the failure message');
  });
}

/** Shows the client secret to the admin once: where they are, else ephemerally in the channel. */
async function showSecretOnce(deps: Deps, step: AppStep, blocks: KnownBlock[]): Promise<void> {
  if (await step.answer(blocks)) return;
  const message: SlackMessage = { text: `The application of account ${step.accountId} was created.`, blocks };
  if (await postEphemeral(deps, step.channel, step.userId, message)) return;
  deps.logger.warn({ accountId: step.accountId, user: step.userId }, 'could not show the new client secret');
  const fallback = `The application of account \`${step.accountId}\` was created, but I could not show you its client secret. Get a new one with \`/pix rotate-secret <clientId>\`.`;
  await deps.slack.chat.postMessage({ channel: step.userId, ...present(deps, { text: fallback, blocks: [section(fallback)] }) }).catch(() => undefined);
}

async function createApplicationStep(ctx: EntryContext, step: AppStep): Promise<void> {
  const { deps } = ctx;
  let app: Application;
  try {
    app = await deps.pix.createApplication(step.masterAppId, { accountId: step.accountId, name: step.name });
  } catch (err) {
    logFailure(deps, err, 'create an application');
    const problem = failureText(err, 'create the application', { write: true });
    const value: RetryValue = { a: step.accountId, n: step.name, c: step.channel };
    let missed = '';
    if (step.first) {
      const posted = await postAudit(
        deps,
        step.channel,
        accountAudit.appFailed({ userId: step.userId, accountId: step.accountId, name: step.name, problem, retryValue: JSON.stringify(value) }),
      );
      if (posted) value.t = posted.ts;
      else missed = auditMissedText(step.channel);
    } else if (step.failureMessage) {
      value.t = step.failureMessage.ts;
    }
    const lead = step.first
      ? `:warning: The account ${code(step.accountId)} (${quoted(step.name)}) was created, but its application could not be: ${problem}`
      : `:warning: The application of account ${code(step.accountId)} could still not be created: ${problem}`;
    await step.answer([
      section(`${lead}${missed}`),
      context('The account exists, without an application (and so without an AppID). Retrying creates only the application, for this account.'),
      retryButton(JSON.stringify(value)),
    ]);
    return;
  }

  // Secrets first: from here on, any line that might carry them is scrubbed.
  deps.secrets.add(app.appID);
  deps.secrets.add(app.clientSecret);
  const stored = app.appID ? await saveAppId(deps, { accountId: step.accountId, appId: app.appID, clientId: app.clientId, name: step.name }) : false;
  deps.logger.info({ accountId: step.accountId, clientId: app.clientId, user: step.userId, stored }, 'campaign application created');

  const who = { userId: step.userId, accountId: step.accountId, name: step.name, clientId: app.clientId, stored };
  const audit = step.first ? accountAudit.created(who) : accountAudit.appRetried(who);
  const posted = await postAudit(deps, step.channel, audit);
  await closeFailureMessage(deps, step, app.clientId, step.userId);

  const blocks = secretBlocks({
    accountId: step.accountId,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    unstoredAppId: app.appID && !stored ? app.appID : undefined,
  });
  if (!app.appID) blocks.push(section(`:warning: The service’s answer had no AppID, so none was stored. Register it with \`/pix account link ${step.accountId}\`.`));
  if (!posted) blocks.push(section(auditMissedText(step.channel).trim()));
  await showSecretOnce(deps, step, blocks);
}

async function createCampaign(ctx: EntryContext, job: { viewId: string; channel: string; name: string; masterAppId: string }): Promise<void> {
  const { deps, userId } = ctx;
  const show = (blocks: KnownBlock[]) =>
    deps.slack.views.update({ view_id: job.viewId, view: infoModal(CREATE_TITLE, blocks, deps.sandboxMode) }).then(
      () => true,
      () => false,
    );

  let account: Account;
  try {
    account = await deps.pix.createAccount(job.masterAppId);
  } catch (err) {
    logFailure(deps, err, 'create an account');
    const nothing = err instanceof PixApiError && err.kind === 'http' ? ' No account was created.' : '';
    await show([section(`${failureText(err, 'create the account', { write: true })}${nothing}`)]);
    return;
  }
  const accountId = account.accountId;
  deps.logger.info({ accountId, user: userId }, 'campaign account created');
  // Remembered before the second step: the account is ours and waits for its application.
  await deps.store.accountApps.save({ accountId, appId: PENDING_APP_ID, name: job.name }).catch((err: unknown) => {
    deps.logger.warn({ accountId, err: err instanceof Error ? err.message : String(err) }, 'could not remember the new account');
  });
  await show(progressBlocks(`Account ${code(accountId)} created. Creating its application…`));
  await createApplicationStep(ctx, {
    accountId,
    name: job.name,
    channel: job.channel,
    userId,
    masterAppId: job.masterAppId,
    first: true,
    answer: show,
  });
}

const createSubmitted: Entry = {
  kind: 'view',
  callbackId: ACCOUNT_CREATE_CALLBACK,
  role: 'admin',
  what: 'create a campaign account',
  errorBlock: NAME_BLOCK,
  async handle({ ack, view }, ctx) {
    const meta = readJson(view.private_metadata, parseWith(CreateMetaSchema));
    if (!meta) {
      await ack({ response_action: 'errors', errors: { [NAME_BLOCK]: 'This form is out of date; close it and run /pix account create again.' } });
      return;
    }
    const name = (view.state.values[NAME_BLOCK]?.name?.value ?? '').trim().replace(/\s+/g, ' ');
    if (name === '') {
      await ack({ response_action: 'errors', errors: { [NAME_BLOCK]: 'Enter the campaign name.' } });
      return;
    }
    if (name.length > MAX_NAME) {
      await ack({ response_action: 'errors', errors: { [NAME_BLOCK]: `At most ${MAX_NAME} characters.` } });
      return;
    }
    const masterAppId = ctx.deps.masterAppId;
    if (!masterAppId) {
      await ack({ response_action: 'errors', errors: { [NAME_BLOCK]: MASTER_MISSING_TEXT.replace(/`/g, '') } });
      return;
    }
    if (!claimOnce(ctx.deps, `account-create:${view.id}`)) {
      await ack({ response_action: 'update', view: infoModal(CREATE_TITLE, [section(ALREADY_SUBMITTED)], ctx.deps.sandboxMode) });
      return;
    }
    await ack({ response_action: 'update', view: infoModal(CREATE_TITLE, progressBlocks('Creating the account…'), ctx.deps.sandboxMode) });
    await createCampaign(ctx, { viewId: view.id, channel: meta.c, name, masterAppId });
  },
};

/** "Retry creating the application": only that step, for that account, and only if still missing. */
async function retryApplication(args: ActionArgs, ctx: EntryContext): Promise<void> {
  const { deps } = ctx;
  const { body, action } = args;
  const fromView = body.view?.type === 'modal' ? body.view : undefined;
  const answer = async (blocks: KnownBlock[]): Promise<boolean> => {
    try {
      if (fromView) {
        await deps.slack.views.update({ view_id: fromView.id, view: infoModal(CREATE_TITLE, blocks, deps.sandboxMode) });
        return true;
      }
      if (body.response_url) {
        await args.respond({ response_type: 'ephemeral', replace_original: false, ...present(deps, { text: 'Campaign account', blocks }) });
        return true;
      }
    } catch (err) {
      deps.logger.info({ err: err instanceof Error ? err.message : String(err) }, 'could not answer a retry');
    }
    return false;
  };

  const raw = 'value' in action && typeof action.value === 'string' ? action.value : undefined;
  const value = readJson(raw, parseWith(RetrySchema));
  if (!value) {
    await answer([section('This button does not name an account. Nothing was done.')]);
    return;
  }
  const masterAppId = deps.masterAppId;
  if (!masterAppId) {
    await answer([section(MASTER_MISSING_TEXT)]);
    return;
  }
  const container = body.container as { type?: string; is_ephemeral?: boolean } | undefined;
  const failureMessage = fromView
    ? value.t
      ? { channel: value.c, ts: value.t }
      : undefined
    : body.message?.ts && container?.is_ephemeral !== true
      ? { channel: body.channel?.id ?? value.c, ts: body.message.ts }
      : undefined;

  const run = await exclusive(deps, `app:${value.a}`, async () => {
    const stored = await deps.store.accountApps.get(value.a);
    if (stored && !isPending(stored)) {
      await answer([section(`Account ${code(value.a)} already has its application${stored.clientId ? ` ${code(stored.clientId)}` : ''}. Nothing was created.`)]);
      return;
    }
    await createApplicationStep(ctx, {
      accountId: value.a,
      name: stored?.name ?? value.n,
      channel: value.c,
      userId: ctx.userId,
      masterAppId,
      first: false,
      answer,
      failureMessage,
    });
  });
  if (!run.ran) await answer([section(`The application of account ${code(value.a)} is being created right now. Nothing more was done.`)]);
}

// Registering the AppID of an account created elsewhere.

type LinkCheck = { ok: true } | { ok: false; problem: string };

/** Inline modal errors are plain text. */
const plainText = (text: string) => text.replace(/[`*_]/g, '');

/** A read with the AppID: it must work and belong to that very account. Then it is stored, encrypted. */
async function checkAndStore(deps: Deps, accountId: string, appId: string): Promise<LinkCheck> {
  let bound: string | undefined;
  try {
    bound = (await deps.pix.listPixKeys(appId)).account?.accountId;
  } catch (err) {
    logFailure(deps, err, 'check an AppID');
    if (err instanceof PixApiError && err.kind === 'http' && err.status === 401) {
      return { ok: false, problem: `The Pix API does not accept this AppID${err.error ? ` (“${err.error}”)` : ''}. Nothing was stored.` };
    }
    return { ok: false, problem: `${plainText(failureText(err, 'check the AppID'))} Nothing was stored.` };
  }
  if (!bound) return { ok: false, problem: 'The Pix API did not say which account this AppID belongs to, so it was not stored.' };
  if (bound !== accountId) return { ok: false, problem: `This AppID belongs to another account (${bound}), not ${accountId}. Nothing was stored.` };
  try {
    const existing = await deps.store.accountApps.get(accountId).catch(() => undefined);
    const sameApp = existing?.appId === appId;
    await deps.store.accountApps.save({ accountId, appId, name: existing?.name, clientId: sameApp ? existing?.clientId : undefined });
  } catch (err) {
    deps.logger.error({ accountId, err: err instanceof Error ? err.message : String(err) }, 'could not store an AppID');
    return { ok: false, problem: 'The AppID is right, but it could not be stored. Try again in a moment.' };
  }
  deps.logger.info({ accountId }, 'AppID registered for an account');
  return { ok: true };
}

function linkedBlocks(accountId: string): KnownBlock[] {
  return [section(`:white_check_mark: The AppID of account ${code(accountId)} was checked with the Pix API and stored encrypted. Its Pix keys can now be managed with \`/pix keys ${accountId}\`.`)];
}

const linkSubmitted: Entry = {
  kind: 'view',
  callbackId: ACCOUNT_LINK_CALLBACK,
  role: 'admin',
  what: 'register an account’s AppID',
  errorBlock: APP_ID_BLOCK,
  async handle({ ack, body, view }, ctx) {
    const { deps } = ctx;
    const errors = (text: string) => ack({ response_action: 'errors', errors: { [APP_ID_BLOCK]: text } });
    const meta = readJson(view.private_metadata, parseWith(LinkMetaSchema));
    if (!meta) return errors('This form is out of date; close it and run /pix account link again.');
    const appId = (view.state.values[APP_ID_BLOCK]?.app_id?.value ?? '').trim();
    if (appId === '') return errors('Enter the AppID.');
    if (/\s/.test(appId) || appId.length > 1000) return errors('That is not an AppID: it has no spaces or line breaks.');
    deps.secrets.add(appId);

    const check = checkAndStore(deps, meta.a, appId);
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, LINK_CHECK_BUDGET_MS, undefined);
    });
    const early = await Promise.race([check, budget]);
    clearTimeout(timer);
    let result: LinkCheck;
    if (early) {
      if (!early.ok) return errors(early.problem);
      await ack({ response_action: 'update', view: infoModal(LINK_TITLE, linkedBlocks(meta.a), deps.sandboxMode) });
      result = early;
    } else {
      await ack({ response_action: 'update', view: infoModal(LINK_TITLE, progressBlocks('Checking the AppID with the Pix API…'), deps.sandboxMode) });
      result = await check;
      const next = result.ok
        ? infoModal(LINK_TITLE, linkedBlocks(meta.a), deps.sandboxMode)
        : linkModal({ accountId: meta.a, privateMetadata: view.private_metadata, sandbox: deps.sandboxMode, problem: result.problem });
      await deps.slack.views.update({ view_id: view.id, view: next }).catch(() => undefined);
    }
    if (result.ok) await postAudit(deps, meta.c, accountAudit.linked({ userId: body.user.id, accountId: meta.a }));
  },
};

export const accountEntries: Entry[] = [
  createSubmitted,
  { kind: 'action', actionId: APP_RETRY_ACTION_ID, role: 'admin', what: 'retry creating a campaign account’s application', handle: retryApplication },
  linkSubmitted,
];
