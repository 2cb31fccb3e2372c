import type { SlackMessage } from '../../views/message';
import type { Deps } from '../deps';
import type { ApprovalAction, PayloadOf } from '../domain/approvals';
import { PixOpsError } from '../errors';
import type { Locale } from '../i18n';
import type { ApprovalIntent, ApprovalRecord } from '../store/approvals';

// Four-eyes approvals: one more state machine, on the same exactly-once tools as the poller. A
// pending action is a record in the store; every move out of `pending`, and the whole run of an
// approved action, happens under the claim `approval:<id>` (in the shared store, Redis or Postgres,
// or this process's memory with sqlite), so two checkers, on one instance or two, make one set of Pix
// calls. Before each write the action records its intent; an instance that dies in `approving` lets
// its claim lapse, and the poller's tick resumes the approval, looking at the Pix side before writing
// again.
// The rooms of it: requesting (request.ts), deciding (deciding.ts, which asks who-may-decide.ts),
// running the approved action and settling it (running.ts), reminders (reminders.ts), the poller's
// part (tick.ts), all under the claim (claim.ts), in the approval's thread (thread.ts).

/** What an approved action's write path is given. */
export interface ApprovalRun {
  /** The deps of whoever runs it (the checker's delivery, or the poller's tick). */
  deps: Deps;
  record: ApprovalRecord;
  /** The maker's language: the thread and the root are in it. */
  locale: Locale;
  /** Records the write about to be made, before it is made (with what tells afterwards whether it was). */
  intent(step: string, data?: unknown): Promise<void>;
  /** Shows a message to the maker alone, in a direct message (a secret the action made). False when Slack refused. */
  toMaker(message: SlackMessage): Promise<boolean>;
  /** Whether a direct message with the maker opens: asked before a write whose secret only they may see. */
  makerReachable(): Promise<boolean>;
  /**
   * Posts the record of what was done in the root's thread, saying who asked and who approved. `key`
   * names the post (one per key and approval, also across a resumption); default `outcome`.
   */
  inThread(message: SlackMessage, key?: string): Promise<boolean>;
}

export type ApprovalResult = { ok: true; limitRequestId?: string } | { ok: false; problem: string };

/**
 * Thrown by a write path when its write was sent but got no answer: whether it happened is not known
 * yet. The approval stays `approving`, and the tick resumes it (looking at the Pix side) once the
 * claim is free.
 */
export class ApprovalInDoubtError extends PixOpsError {
  readonly code = 'pixops_approval_in_doubt';
}

/** One action that can wait for approval: its write path, and how it finishes after a crash. */
export interface ApprovalKind<A extends ApprovalAction = ApprovalAction> {
  action: A;
  /** The action's own write path (the one it runs without approvals), with the payload the maker's flow checked. */
  execute(run: ApprovalRun, payload: PayloadOf<A>): Promise<ApprovalResult>;
  /**
   * After an instance died in `approving` with `intent` the last write it was about to make: tells
   * from the Pix side whether that write happened, and writes only what did not. When the Pix side
   * cannot tell, nothing is written again.
   */
  resume(run: ApprovalRun, payload: PayloadOf<A>, intent: ApprovalIntent | undefined): Promise<ApprovalResult>;
  /**
   * Asked under the claim at the approval that would run it (the last one needed), before it leaves
   * `pending`: a refusal is told to that checker (in their language) and recorded, and the approval
   * stays pending. Money out reserves the day's limit (PAY_DAY_LIMIT) here.
   */
  beforeRun?(
    deps: Deps,
    record: ApprovalRecord,
    input: { locale: Locale; at: Date },
  ): Promise<{ text: string; detail: string } | undefined>;
  /**
   * Asked as an approval that never ran (rejected, cancelled, expired) is settled: undoes what
   * `beforeRun` may have left when the approval did not leave `pending` after it (an instance died,
   * the store failed). Settling waits for it, so a failure is tried again by the tick.
   */
  notRun?(deps: Deps, record: ApprovalRecord): Promise<void>;
  /** The root once done, when the action makes it something else (a limit request's thread root). */
  doneRoot?(deps: Deps, record: ApprovalRecord): Promise<SlackMessage | undefined>;
}

export type ApprovalKinds = { readonly [A in ApprovalAction]: ApprovalKind<A> };

/** The kind of an action, as the code that handles any action sees it. */
export const kindOf = (kinds: ApprovalKinds, action: ApprovalAction) => kinds[action] as ApprovalKind;
