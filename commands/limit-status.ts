import type { ActionArgs, EntryContext, EntryRow } from '../src/entry/table';
import { type CommandRow, UsageError } from '../src/entry/table';
import { describeError } from '../src/errors';
import { messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import type { LimitRequest } from '../src/pix/schemas';
import { slackErrorCode } from '../src/slack/error-code';
import { PostUnknownError, postOnce } from '../src/slack/post-once';
import { rootMetadata } from '../src/slack/thread-root';
import type { TrackedRequest } from '../src/store/tracked-requests';
import { pixErrorText } from '../views/errors';
import { limitRequestRootMessage } from '../views/limit-request';
import { limitCents, limitStatusMessage, WATCH_ACTION_ID, watchMessages } from '../views/limit-status';
import { plain, type SlackMessage } from '../views/message';
import { exclusive } from './account-shared';
import { buttonValue } from './confirm';
import { PixIdSchema } from './parse';

export const limitStatusCommand: CommandRow = {
  kind: 'command',
  id: 'limit status',
  argsUsage: '<limitRequestId>',
  summary: 'limitStatus',
  what: 'readLimitRequest',
  role: 'viewer',
  minArgs: 1,
  maxArgs: 1,
  async handler({ deps, args, locale }) {
    const id = args[0] ?? '';
    if (!PixIdSchema.safeParse(id).success) throw new UsageError(messages(locale).usage.notLimitRequestId);
    const request = await deps.pix.getLimitRequest(deps.mainAppId, id);
    const tracked = await deps.store.trackedRequests.get(request.id);
    return limitStatusMessage(locale, { request, thread: tracked && { channel: tracked.channel, closed: tracked.closed } });
  },
};

/** The thread root's data for a request filed elsewhere (in the Pix dashboard, or by the API). */
function watchedRecord(
  request: LimitRequest,
  userId: string,
  channel: string,
): Omit<TrackedRequest, 'rootTs' | 'createdAt' | 'closed' | 'reply'> {
  return {
    limitRequestId: request.id,
    accountId: request.companyBankAccountId,
    requesterId: userId,
    channel,
    requested: limitCents(request.requestedLimits),
    documents: (request.documents ?? []).map((d) => ({
      ...(d.fileName !== undefined ? { fileName: d.fileName } : {}),
      ...(d.contentType !== undefined ? { contentType: d.contentType } : {}),
    })),
    source: 'watched',
  };
}

async function watch(args: ActionArgs, ctx: EntryContext): Promise<void> {
  const { deps, userId, locale } = ctx;
  const answers = watchMessages(locale);
  const say = async (message: SlackMessage) => {
    await args.respond({ response_type: 'ephemeral', replace_original: false, ...ctx.present(message) });
  };

  const id = buttonValue(args.action);
  if (id === undefined || !PixIdSchema.safeParse(id).success) return say(answers.badValue());
  const channel = args.body.channel?.id;
  if (!channel) return say(answers.noChannel());

  // One follow at a time per request, on any instance: a double click must not post twice.
  const run = await exclusive(deps, `watch:${id}`, async () => {
    try {
      const already = await deps.store.trackedRequests.get(id);
      if (already) return await say(answers.alreadyFollowed(id, already.channel));

      let request: LimitRequest;
      try {
        request = await deps.pix.getLimitRequest(deps.mainAppId, id);
      } catch (err) {
        if (!(err instanceof PixApiError)) throw err;
        deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
        return await say(plain(pixErrorText(locale, err, 'readLimitRequest')));
      }
      if (request.status !== 'IN_REVIEW') return await say(answers.decided(request.id, request.status));

      // Followed before its root is posted, so that a root whose answer is lost is never one nobody
      // follows (the poller finds an unrecorded root by its metadata, else sends the decision by DM).
      const record = watchedRecord(request, userId, channel);
      try {
        await deps.store.trackedRequests.track(record);
      } catch (err) {
        deps.logger.error({ ...describeError(err) }, 'could not track a watched request');
        return await say(answers.notSaved());
      }
      // For everyone in the channel, in the language of the person who asked to follow it.
      const root = ctx.present(limitRequestRootMessage(locale, { ...record, createdAt: '', closed: false }, request.status));
      let postedIn = channel;
      try {
        // Once: a post whose answer was lost is looked for before it is sent again.
        const posted = await postOnce(deps.slack.exact, { channel, text: root.text, blocks: root.blocks }, rootMetadata(request.id));
        postedIn = posted.channel;
        await deps.store.trackedRequests.attachRoot(request.id, posted).catch((err: unknown) => {
          deps.logger.warn(
            { limitRequestId: request.id, ...describeError(err) },
            'root of a watched request not recorded; the poller finds it by its metadata',
          );
        });
      } catch (err) {
        const code = slackErrorCode(err);
        deps.logger.warn({ channel, ...describeError(err) }, 'could not post a watched request');
        // Maybe posted: it stays followed (see above).
        if (!(err instanceof PostUnknownError)) {
          await deps.store.trackedRequests.forget(request.id).catch((e: unknown) => {
            deps.logger.warn(
              { limitRequestId: request.id, ...describeError(e) },
              'could not forget a watched request; its decision goes to the DM',
            );
          });
          if (code === 'not_in_channel' || code === 'channel_not_found') return await say(answers.notInChannel());
          return await say(answers.postFailed(code ?? messages(locale).common.noAnswer));
        }
      }
      deps.logger.info({ limitRequestId: request.id, channel }, 'following a limit request');
      await say(answers.followed(request.id, postedIn));
    } catch (err) {
      deps.logger.error({ ...describeError(err) }, 'could not follow a limit request');
      const m = messages(locale);
      await say(plain(m.common.wentWrongNothingMore(m.actions.followTheLimitRequest))).catch(() => undefined);
    }
  });
  if (!run.ran) await say(answers.busy(id));
}

export const limitStatusRows: EntryRow[] = [
  limitStatusCommand,
  {
    kind: 'action',
    id: WATCH_ACTION_ID,
    role: 'viewer',
    what: 'followLimitRequest',
    handler: watch,
  },
];
