import type { KnownBlock } from '@slack/types';
import type { Deps } from '../src/deps';
import type { CommandRow, EntryRow } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import { ACCOUNT_LINK_CALLBACK, APP_ID_BLOCK, accountAnnouncements, infoModal, linkModal, progressBlocks } from '../views/accounts';
import { AccountLinkMetaSchema, readCarried } from '../views/carried';
import { apiText, failureText } from '../views/errors';
import { code, inlineErrorText, section } from '../views/message';
import { logFailure, postAnnouncement } from './account-shared';
import { accountIdArg } from './parse';

// Registering the AppID of an account created elsewhere: checked against the Pix API, then stored.

/** A view submission must be answered within three seconds: the AppID check gets this long inline. */
const LINK_CHECK_BUDGET_MS = 2_000;

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

type LinkCheck = { ok: true } | { ok: false; problem: string };

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

export const accountLinkRows: EntryRow[] = [linkCommand, linkSubmitted];
