import { z } from 'zod';
import { type RecordsOf, type RecordsRepo, recordsOf } from './records';

/**
 * One scheduled time of the morning digest (its key: the time, ISO 8601 UTC): who took it, and how it
 * ended. Taken first-wins, so however many instances fire at that time one posts; kept long after the
 * time has passed, so an instance restarted within it does not post it again.
 */
const DigestSlotSchema = z.object({
  /** The instance (its store's holder) that posts it. */
  holder: z.string(),
  state: z.enum(['posting', 'posted', 'undelivered']),
  /** While posting: until when its holder is taken to be at work (renewed as it works). */
  leaseUntil: z.string(),
  /** Posted: the message's ts. */
  ts: z.string().optional(),
  /** Undelivered: why (Slack's error code, such as `not_in_channel`). */
  error: z.string().optional(),
});
export type DigestSlot = z.infer<typeof DigestSlotSchema>;

const LatestSchema = z.object({ slot: z.string() });
const PostedSchema = z.object({ slot: z.string() });

/** How long a slot's record outlives its time: far past any instance's firing of it. */
const DIGEST_SLOT_KEEP_MS = 2 * 24 * 60 * 60 * 1000;

export type SlotEnd = { state: 'posted'; ts: string } | { state: 'undelivered'; error: string };

/** The digest's scheduled times, on the store's keyed records. */
export class DigestSlots {
  private readonly slots: RecordsOf<DigestSlot>;
  private readonly latestSlot: RecordsOf<z.infer<typeof LatestSchema>>;
  private readonly postedSlot: RecordsOf<z.infer<typeof PostedSchema>>;

  constructor(
    records: RecordsRepo,
    private readonly keepMs = DIGEST_SLOT_KEEP_MS,
  ) {
    this.slots = recordsOf(records, 'digest-slot', DigestSlotSchema);
    this.latestSlot = recordsOf(records, 'digest-latest', LatestSchema);
    this.postedSlot = recordsOf(records, 'digest-posted', PostedSchema);
  }

  /** First one wins: true when `holder` took the slot (nobody had). It is then the latest slot. */
  async claim(slot: string, holder: string, leaseMs: number, now = Date.now()): Promise<boolean> {
    const won = await this.slots.setIfAbsent(slot, { holder, state: 'posting', leaseUntil: iso(now + leaseMs) }, this.keepMs);
    if (won) await this.latestSlot.set('slot', { slot }, this.keepMs);
    return won;
  }

  get(slot: string): Promise<DigestSlot | undefined> {
    return this.slots.get(slot);
  }

  /** The slot claimed last by any instance (where a restart looks for one left mid-way). */
  async latest(): Promise<string | undefined> {
    return (await this.latestSlot.get('slot'))?.slot;
  }

  /**
   * Takes over a slot whose holder stopped mid-way (its lease lapsed while posting): true when `holder`
   * has it now. Of several instances trying, one gets it.
   */
  async takeOver(slot: string, holder: string, leaseMs: number, now = Date.now()): Promise<boolean> {
    const seen = await this.slots.get(slot);
    if (seen?.state !== 'posting' || Date.parse(seen.leaseUntil) > now) return false;
    return this.slots.compareAndSet(slot, seen, { holder, state: 'posting', leaseUntil: iso(now + leaseMs) });
  }

  /** Keeps the slot while working on it; false when `holder` no longer has it (taken over, or ended). */
  async renew(slot: string, holder: string, leaseMs: number, now = Date.now()): Promise<boolean> {
    const seen = await this.slots.get(slot);
    if (seen?.state !== 'posting' || seen.holder !== holder) return false;
    return this.slots.compareAndSet(slot, seen, { ...seen, leaseUntil: iso(now + leaseMs) });
  }

  /** Ends the slot: posted, or undelivered and why. False when `holder` no longer had it. */
  async finish(slot: string, holder: string, end: SlotEnd, now = Date.now()): Promise<boolean> {
    const seen = await this.slots.get(slot);
    if (seen?.state !== 'posting' || seen.holder !== holder) return false;
    const done = await this.slots.compareAndSet(slot, seen, { holder, leaseUntil: iso(now), ...end });
    if (done && end.state === 'posted') await this.postedSlot.set('slot', { slot });
    return done;
  }

  /** The time of the latest digest posted (what "since the last digest" counts from); undefined before the first. */
  async lastPosted(): Promise<string | undefined> {
    return (await this.postedSlot.get('slot'))?.slot;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
