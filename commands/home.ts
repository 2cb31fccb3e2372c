import type { ModalView } from '@slack/types';
import type { ActionArgs, EntryContext, EntryRow, EventRow } from '../src/entry/table';
import { describeError } from '../src/errors';
import { refreshHome } from '../src/home';
import { messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import { HomeKeysSchema, readCarried } from '../views/carried';
import { pixErrorText } from '../views/errors';
import { HOME_ACTIONS, keysModal } from '../views/home';
import { plain } from '../views/message';
import { buttonValue } from './confirm';
import { openForm } from './limit-request';

// The Home tab's entry points: the tab itself (for anyone: without a role it shows only how to get
// access) and its buttons. Building and publishing the tab is src/home's, which the poller uses too.

const opened: EventRow = {
  kind: 'event',
  id: 'app_home_opened',
  role: 'anyone',
  what: 'seeHome',
  async handler({ event }, ctx) {
    if (event.tab !== undefined && event.tab !== 'home') return;
    await refreshHome(ctx.deps, ctx.userId, { role: ctx.role ?? null, locale: ctx.locale });
  },
};

/** "Request a limit increase": the same form as `/pix limit request`; its thread root goes to a DM. */
async function requestLimit(args: ActionArgs, ctx: EntryContext): Promise<void> {
  const { deps, userId, locale } = ctx;
  try {
    // A user ID as the channel: the request's thread root goes to the app's DM with them.
    await openForm(deps, locale, { triggerId: args.body.trigger_id, channelId: userId, attached: [] });
  } catch (err) {
    deps.logger.warn({ user: userId, ...describeError(err) }, 'could not open the limit-request form from Home');
    await deps.slack.retried.chat
      .postMessage({ channel: userId, ...ctx.present(plain(messages(locale).limitForm.homeFormFailed)) })
      .catch(() => undefined);
  }
}

/** "Pix keys" of an account: a read-only modal, opened at once, filled once the keys are read. */
async function showKeys(args: ActionArgs, ctx: EntryContext): Promise<void> {
  const { deps, locale } = ctx;
  const value = readCarried(HomeKeysSchema, buttonValue(args.action));
  if (!value) return;
  const opened = await deps.slack.retried.views.open({
    trigger_id: args.body.trigger_id,
    view: keysModal(locale, { accountId: value.accountId, sandbox: deps.sandboxMode }),
  });
  const viewId = opened.view?.id;
  if (!viewId) return;
  let view: ModalView;
  try {
    // The keys are read with the AppID of the account that owns them: the main one for the default account.
    const stored = value.isDefault ? undefined : await deps.store.accountApps.get(value.accountId);
    const appId = value.isDefault ? deps.mainAppId : stored?.appId;
    if (stored?.staleSince) {
      view = keysModal(locale, {
        accountId: value.accountId,
        problem: messages(locale).accounts.staleAppId({ account: `\`${value.accountId}\``, accountId: value.accountId }),
        sandbox: deps.sandboxMode,
      });
    } else if (!appId) {
      view = keysModal(locale, { accountId: value.accountId, problem: messages(locale).home.noAppId, sandbox: deps.sandboxMode });
    } else {
      const { pixKeys } = await deps.pix.listPixKeys(appId);
      view = keysModal(locale, { accountId: value.accountId, keys: pixKeys, sandbox: deps.sandboxMode });
    }
  } catch (err) {
    const m = messages(locale);
    const problem = err instanceof PixApiError ? pixErrorText(locale, err, 'readPixKeys') : m.common.wentWrong(m.actions.readPixKeys);
    view = keysModal(locale, { accountId: value.accountId, problem, sandbox: deps.sandboxMode });
  }
  await deps.slack.retried.views.update({ view_id: viewId, hash: opened.view?.hash, view }).catch(() => undefined);
}

export const homeRows: EntryRow[] = [
  opened,
  { kind: 'action', id: HOME_ACTIONS.limitRequest, role: 'operator', what: 'fileLimitRequest', handler: requestLimit },
  { kind: 'action', id: HOME_ACTIONS.keys, role: 'viewer', what: 'readPixKeys', handler: showKeys },
  {
    kind: 'action',
    id: HOME_ACTIONS.refresh,
    role: 'viewer',
    what: 'seeHome',
    handler: async (_args, ctx) => void (await refreshHome(ctx.deps, ctx.userId, { role: ctx.role, locale: ctx.locale })),
  },
];
