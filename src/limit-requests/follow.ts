import { limitRequestRootMessage } from '../../views/limit-request';
import { presentMessage } from '../../views/message';
import type { Deps } from '../deps';
import { ClaimLostError, describeError } from '../errors';
import type { Locale } from '../i18n';
import type { PostedMessage } from '../slack/post-once';
import { postThreadRoot } from '../slack/thread-root';
import type { FilingIntent } from '../store/filing-intents';
import { holdClaim } from '../store/held-claim';
import type { TrackedRequest } from '../store/tracked-requests';

/**
 * How long the filing of a request holds its intent (`filing:<intentId>`), so that reconciliation
 * leaves a filing in progress alone: renewed every third of it while the filing works (its proofs'
 * uploads may take minutes), so it lapses only this long after the filing process died (at once on a
 * restart with sqlite, whose claims live in the process).
 */
export const FILING_CLAIM_MS = 5 * 60_000;

export const filingClaimKey = (intentId: string) => `filing:${intentId}`;

/** A filing's claim, held while it works. */
export interface FilingHold {
  /**
   * Renews the claim; throws ClaimLostError when it lapsed (reconciliation may have settled its intent
   * meanwhile): called just before the request is sent.
   */
  check(): Promise<void>;
  release(): Promise<void>;
}

/** Takes a new filing's claim (nobody else knows its intent yet) and keeps it renewed until released. */
export async function holdFiling(deps: Deps, intentId: string): Promise<FilingHold> {
  const claim = await holdClaim(deps.store, filingClaimKey(intentId), FILING_CLAIM_MS, (err) =>
    deps.logger.warn({ intentId, ...describeError(err) }, 'could not renew a filing claim'),
  );
  return {
    async check() {
      if (!(await claim?.stillHeld())) throw new ClaimLostError(`the claim on filing intent ${intentId} lapsed`);
    },
    release: async () => claim?.release(),
  };
}

export interface FollowOutcome {
  /** The request is in the store, so the poller follows it. */
  tracked: boolean;
  /** Its thread root, when one is posted (or was found). */
  root?: PostedMessage;
}

/**
 * What follows a filed request, in this order, each step safe to run again: it is tracked (before
 * anything is posted, so that a failure of Slack cannot leave it unfollowed), its thread root is
 * posted (once: with `lookFirst`, a root an earlier run posted is found instead) and recorded, and its
 * filing intent is deleted. Never throws: the outcome says what stands. A request left without a root
 * still gets its decision, in the requester's DM (deliver.ts); a request filed by an approval takes the
 * approval's root as its own; a request that could not be tracked
 * keeps its intent, which a later tick reconciles (reconcile.ts).
 */
export async function followFiled(
  deps: Deps,
  input: { intent: FilingIntent; request: { id: string; createdAt?: string }; locale: Locale; lookFirst: boolean },
): Promise<FollowOutcome> {
  const { intent, request, locale } = input;
  const id = request.id;
  const fields: Omit<TrackedRequest, 'closed' | 'reply' | 'rootTs'> = {
    limitRequestId: id,
    accountId: intent.accountId,
    requesterId: intent.requesterId,
    channel: intent.channel,
    current: intent.current,
    requested: intent.requested,
    documents: intent.documents,
    source: 'filed',
    createdAt: request.createdAt ?? intent.createdAt,
    ...(intent.approval
      ? {
          approval: {
            makerId: intent.approval.makerId,
            checkerId: intent.approval.checkerId,
            approvedAt: intent.approval.approvedAt,
            ...(intent.approval.checkers ? { checkers: intent.approval.checkers } : {}),
          },
        }
      : {}),
  };
  let record: TrackedRequest | undefined;
  try {
    record = (await deps.store.trackedRequests.get(id)) ?? (await deps.store.trackedRequests.track(fields));
  } catch (err) {
    deps.logger.error(
      { limitRequestId: id, ...describeError(err) },
      'a filed limit request could not be tracked yet; its filing intent stays for a later tick',
    );
  }

  let root = record?.rootTs ? { channel: record.channel, ts: record.rootTs } : undefined;
  if (!root && intent.approval && record) {
    // The approval's root is the request's thread root: recorded, not posted again (the approval
    // shows it as the request's root once it settles).
    try {
      record = await deps.store.trackedRequests.attachRoot(id, intent.approval.root);
      root = intent.approval.root;
    } catch (err) {
      deps.logger.warn({ limitRequestId: id, ...describeError(err) }, 'the approval’s root could not be recorded as the request’s');
    }
  }
  if (!root && !intent.approval) {
    // For everyone in the channel, in the language of the requester (the decision reply follows it).
    const message = presentMessage(limitRequestRootMessage(locale, { ...fields, closed: false }, 'IN_REVIEW'), locale, deps.sandboxMode);
    root = await postThreadRoot(deps.slack.exact, deps.logger, {
      channel: intent.channel,
      userId: intent.requesterId,
      limitRequestId: id,
      message,
      ...(input.lookFirst ? { lookFirst: { since: Date.parse(intent.createdAt) } } : {}),
    });
    if (root && record) {
      try {
        record = await deps.store.trackedRequests.attachRoot(id, root);
      } catch (err) {
        // The poller finds the root again before it delivers the decision (deliver.ts).
        deps.logger.warn({ limitRequestId: id, ...describeError(err) }, 'the thread root is posted but could not be recorded');
      }
    }
  }
  // An approval's root not recorded yet: the intent stays, so a later tick records it.
  if (record && (root || !intent.approval)) {
    await deps.store.filingIntents.delete(intent.intentId).catch((err: unknown) => {
      deps.logger.warn(
        { intentId: intent.intentId, ...describeError(err) },
        'a settled filing intent could not be deleted; a later tick does it',
      );
    });
  }
  return { tracked: record !== undefined, ...(root ? { root } : {}) };
}
