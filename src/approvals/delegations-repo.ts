import type { Store } from '../store';
import { recordsOf } from '../store/records';
import { type ActiveDelegation, type Delegation, DelegationSchema, delegationEndsAt, isActive } from './delegation';

/** The records' kind of delegations: one per away person, keyed by their user ID. */
const KIND = 'delegation';
/** Delegations read at most by one listing: one per person who may approve, and no team has this many. */
const MAX_LISTED = 1_000;

/** The delegations in force, kept in the store's keyed records: each lapses on its own once its last day ends. */
export interface Delegations {
  /** The user's delegation, when one is in force. */
  of(userId: string, now: Date): Promise<Delegation | undefined>;
  /** Sets (or replaces) the user's delegation; it lapses at the end of its last day. */
  set(userId: string, delegation: Delegation, now: Date): Promise<void>;
  /** Ends the user's delegation; the one ended, when there was one. */
  end(userId: string, now: Date): Promise<Delegation | undefined>;
  /** Every delegation in force. */
  active(now: Date): Promise<ActiveDelegation[]>;
  /** The delegations in force whose delegate is this user: whom they decide for. */
  forDelegate(delegate: string, now: Date): Promise<ActiveDelegation[]>;
}

export function delegationsIn(store: Pick<Store, 'records'>): Delegations {
  const records = recordsOf(store.records, KIND, DelegationSchema);
  const inForce = (d: Delegation | undefined, now: Date) => (d && isActive(d, now) ? d : undefined);
  const active = async (now: Date) =>
    (await records.list(MAX_LISTED)).filter(({ value }) => isActive(value, now)).map(({ key, value }) => ({ ...value, awayUserId: key }));
  return {
    of: async (userId, now) => inForce(await records.get(userId), now),
    async set(userId, delegation, now) {
      await records.set(userId, delegation, Math.max(1, delegationEndsAt(delegation.until).getTime() - now.getTime()));
    },
    async end(userId, now) {
      const ended = inForce(await records.get(userId), now);
      await records.delete(userId);
      return ended;
    },
    active,
    forDelegate: async (delegate, now) => (await active(now)).filter((d) => d.delegate === delegate),
  };
}
