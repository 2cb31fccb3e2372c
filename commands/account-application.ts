import type { KnownBlock } from '@slack/types';
import type { Deps } from '../src/deps';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import type { Application } from '../src/pix/schemas';
import { noticeMetadata, postToUser } from '../src/slack/post-once';
import { accountAnnouncements, quoted, retryButton, secretBlocks, uncertainBlocks } from '../views/accounts';
import type { AppRetry } from '../views/carried';
import { failureText } from '../views/errors';
import { code, context, type SlackMessage, section } from '../views/message';
import { announcementMissedText, logFailure, PENDING_APP_ID, postAnnouncement, postEphemeral, present, sleep } from './account-shared';

// A campaign account's application, the step after its account (account-create.ts) and the one a
// retry makes again (account-retry.ts): created once, its AppID stored, the channel and the admin told.

export interface AppStep {
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
export type CampaignResult = { ok: true; accountId: string; clientId?: string } | { ok: false; problem: string; accountId?: string };

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
export async function reportAppFailure(
  deps: Deps,
  step: AppStep,
  outcome: { refused: string } | { uncertain: string },
): Promise<CampaignResult> {
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

export async function createApplicationStep(deps: Deps, step: AppStep): Promise<CampaignResult> {
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
