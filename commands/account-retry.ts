import type { KnownBlock } from '@slack/types';
import type { ActionArgs, EntryContext, EntryRow } from '../src/entry/table';
import { describeError } from '../src/errors';
import { messages } from '../src/i18n';
import { APP_CREATE_ANYWAY_ACTION_ID, APP_RETRY_ACTION_ID, infoModal, uncertainBlocks } from '../views/accounts';
import { AppRetrySchema, readCarried } from '../views/carried';
import { code, section } from '../views/message';
import { createApplicationStep } from './account-application';
import { exclusive, isPending, present } from './account-shared';

// Retrying a campaign account's application after it failed, or, once the admin has looked, after it
// got no clear answer.

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

export const accountRetryRows: EntryRow[] = [
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
];
