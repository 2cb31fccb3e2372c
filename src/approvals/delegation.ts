import { z } from 'zod';
import { type ApprovalAction, roleToDecideAny } from '../domain/approvals';
import { type Role, roleAllows } from '../domain/roles';
import { addDays, type CalendarDate, isoDateOf, parseIsoDate, saoPauloStartOfDay, saoPauloToday } from '../domain/sao-paulo-date';
import { PixOpsError } from '../errors';

// Delegation while away: an approver names someone who decides in their stead until the end of a day,
// São Paulo time. What a delegation is, when it holds, and which new one is refused, as rules; the
// records are delegations-repo.ts's, and who may decide with one is who-may-decide.ts's.

/** A delegation as it is kept, under the away person's user ID. */
export const DelegationSchema = z.object({
  delegate: z.string().regex(/^[UW][A-Z0-9]{2,}$/),
  /** The last day away, `YYYY-MM-DD`: it holds until that day ends in São Paulo. */
  until: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  setAt: z.string(),
});
export type Delegation = z.infer<typeof DelegationSchema>;

/** A delegation in force: who is away, and who decides for them. */
export interface ActiveDelegation extends Delegation {
  awayUserId: string;
}

/** How far ahead a delegation may end, in days from today. */
const MAX_DAYS_AWAY = 90;

/** Ends already worked out, by last day: every tick and decision asks again of the same few days. */
const endsAt = new Map<string, number>();
const MAX_ENDS_KEPT = 1_000;

/** A delegation's last day is not a calendar date (its schema checks the shape only: `2026-02-30` passes). */
export class NotADateError extends PixOpsError {
  readonly code = 'pixops_not_a_date';
}

/** When a delegation ends: the start of the day after its last, in São Paulo. */
export function delegationEndsAt(until: string): Date {
  let at = endsAt.get(until);
  if (at === undefined) {
    const day = parseIsoDate(until);
    if (!day) throw new NotADateError(`Not a date: ${until}`);
    at = saoPauloStartOfDay(addDays(day, 1)).getTime();
    if (endsAt.size >= MAX_ENDS_KEPT) endsAt.clear();
    endsAt.set(until, at);
  }
  return new Date(at);
}

export const isActive = (delegation: Delegation, now: Date): boolean => now.getTime() < delegationEndsAt(delegation.until).getTime();

const USER_ID = /^[UW][A-Z0-9]{2,}$/;
/** A user as Slack sends a mention in an escaped command (`<@U…|name>`, or `<@U…>`). */
const MENTION = /^<@([UW][A-Z0-9]{2,})(?:\|[^>]*)?>$/;

/** The user a word names: a mention or a bare user ID; undefined for anything else (`@name` as typed, unescaped). */
export function userOf(word: string): string | undefined {
  return MENTION.exec(word)?.[1] ?? (USER_ID.test(word) ? word : undefined);
}

/** `/pix away`'s two words, in either order: the last day away and the delegate. */
export function parseAway(words: string[]): { until: CalendarDate; delegate: string } | { problem: 'date' | 'user' } {
  const [a = '', b = ''] = words;
  const [dateWord, userWord] = parseIsoDate(a) || /^\d/.test(a) ? [a, b] : [b, a];
  const delegate = userOf(userWord);
  if (!delegate) return { problem: 'user' };
  const until = parseIsoDate(dateWord);
  if (!until) return { problem: 'date' };
  return { until, delegate };
}

/** Why a delegation is refused. */
export type DelegationRefusal =
  | { kind: 'self' }
  | { kind: 'past' }
  | { kind: 'too-far'; last: string }
  | { kind: 'delegate-away'; delegate: string; until: string }
  | { kind: 'approves-nothing' }
  /** The delegate holds no role that decides an action that may wait (`role`: the lowest that does). */
  | { kind: 'delegate-decides-nothing'; delegate: string; role?: Role };

/**
 * Why `userId` may not hand their decisions to `delegate` until the end of `until`, or undefined when
 * they may: only someone who may approve something delegates; never to themselves, to someone who
 * holds no role that decides one of the actions that may wait (a delegate lends the away person's
 * place among the approvers, never a role: they would be named in reminders and escalations, and
 * decide nothing), to someone away themselves, from a day already gone, or more than MAX_DAYS_AWAY
 * days ahead.
 */
export function refusalToDelegate(input: {
  userId: string;
  delegate: string;
  until: CalendarDate;
  now: Date;
  mayApproveSomething: boolean;
  /** The delegate's role, looked up afresh. */
  delegateRole: Role | undefined;
  /** The actions that may wait for a checker: those of APPROVALS, and those that always wait. */
  mayWait: Iterable<ApprovalAction>;
  /** The delegate's own delegation, when they have one. */
  delegateAway?: Delegation;
}): DelegationRefusal | undefined {
  if (!input.mayApproveSomething) return { kind: 'approves-nothing' };
  if (input.delegate === input.userId) return { kind: 'self' };
  const needed = roleToDecideAny(input.mayWait);
  if (needed === undefined || !roleAllows(input.delegateRole, needed))
    return { kind: 'delegate-decides-nothing', delegate: input.delegate, ...(needed ? { role: needed } : {}) };
  const today = saoPauloToday(input.now);
  const until = isoDateOf(input.until);
  if (until < isoDateOf(today)) return { kind: 'past' };
  const last = isoDateOf(addDays(today, MAX_DAYS_AWAY));
  if (until > last) return { kind: 'too-far', last };
  if (input.delegateAway && isActive(input.delegateAway, input.now))
    return { kind: 'delegate-away', delegate: input.delegate, until: input.delegateAway.until };
  return undefined;
}
