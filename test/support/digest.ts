import type { SandboxHandle } from '../../src/sandbox';
import type { SlackApiCall, StoredMessage } from '../../src/slack-standin/web-api';
import type { Store } from '../../src/store';
import { control } from '../sandbox/helpers';

/** What waits, written into a store as the app's own flows leave it (sizes no flow reaches in a test). */

export const MAKER = 'U0MAKER01';
export const WAITING_CHANNEL = 'C0WAITING';

/** An id of the form the service issues, unique by `n` and kind. */
export const idOf = (kind: 'a' | 'b' | 'c' | 'd', n: number) => `${kind}${n.toString(16).padStart(23, '0')}`;

/** `n` minutes before now, ISO. */
export const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

/** Pending approvals with their root posted: the first one the oldest (asked `count` minutes ago). */
export async function seedApprovals(store: Store, count: number, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    const id = idOf('d', i);
    await store.approvals.create(
      {
        id,
        makerId: MAKER,
        makerLocale: 'en',
        channel: WAITING_CHANNEL,
        payload: { action: 'key-add', accountId: idOf('a', i), pixKey: `waiting-${i}@example.com`, type: 'EMAIL' },
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      new Date(Date.parse(minutesAgo(10_000 - i))),
    );
    await store.approvals.update(id, (r) => ({ ...r, rootTs: `1700000000.${String(i).padStart(6, '0')}` }));
    ids.push(id);
  }
  return ids;
}

/** Limit requests in review that the app follows: the first one the oldest. */
export async function seedRequestsInReview(store: Store, count: number, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    const id = idOf('b', i);
    await store.trackedRequests.track({
      limitRequestId: id,
      accountId: idOf('c', i),
      requesterId: MAKER,
      channel: WAITING_CHANNEL,
      rootTs: `1700000001.${String(i).padStart(6, '0')}`,
      requested: { pixDayLimit: 1_000_000 },
      documents: [],
      source: 'filed',
      createdAt: minutesAgo(20_000 - i),
    });
    ids.push(id);
  }
  return ids;
}

/** Open disputes (as the dispute desk records them): the first one the oldest, R$ 150,00 + i cents each. */
export async function seedOpenDisputes(store: Store, count: number, from = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = from; i < from + count; i++) {
    const endToEndId = `E${String(i).padStart(31, '0')}`;
    const at = minutesAgo(30_000 - i);
    await store.pixEvents.saveDispute({
      endToEndId,
      status: 'OPENED',
      value: 15_000 + i,
      channel: WAITING_CHANNEL,
      rootTs: `1700000002.${String(i).padStart(6, '0')}`,
      closed: false,
      firstAt: at,
      updatedAt: at,
    });
    ids.push(endToEndId);
  }
  return ids;
}

/** Sets an account's balance in the sandbox (cents). */
export async function setBalance(sandbox: SandboxHandle, accountId: string, available: number, blocked = 0): Promise<void> {
  const res = await control(sandbox, 'POST', `/accounts/${accountId}/balance`, { available, blocked });
  if (res.status !== 200) throw new Error(`balance not set: ${res.status} ${JSON.stringify(res.json)}`);
}

export async function setWithdrawBlocked(sandbox: SandboxHandle, accountId: string, blocked: boolean): Promise<void> {
  const res = await control(sandbox, 'POST', `/accounts/${accountId}/withdraw-blocked`, { blocked });
  if (res.status !== 200) throw new Error(`withdraw block not set: ${res.status}`);
}

/** The digests posted in a channel (as the stand-in keeps them), by their metadata. */
export const digestsIn = (messages: StoredMessage[], channel: string) =>
  messages.filter((m) => m.channel === channel && m.metadata?.event_type === 'pix_digest');

/** The balance alerts posted in a channel. */
export const alertsIn = (messages: StoredMessage[], channel: string) =>
  messages.filter((m) => m.channel === channel && m.metadata?.event_type === 'pix_balance_alert');

/** `chat.postMessage` calls to a channel. */
export const postsTo = (calls: SlackApiCall[], channel: string) =>
  calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === channel);
