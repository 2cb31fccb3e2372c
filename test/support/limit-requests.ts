import type { RunningApp } from '../../src/app';
import type { SandboxHandle } from '../../src/sandbox';
import type { SlackApiCall, StoredMessage } from '../../src/slack-standin/web-api';
import type { TrackedRequest } from '../../src/store/tracked-requests';
import { limitRequestRootMessage } from '../../views/limit-request';
import { type AccountAnswer, api, control, type LimitRequestAnswer, uploadProof } from '../sandbox/helpers';
import { type Harness, harnessEnv, startLoggedApp } from './harness';

/** Limit requests as the bot would have filed and tracked them, made without the modal. */

export const REQUESTER = 'U0REQUEST1';
export const CHANNEL = 'C0FINANCE1';

export interface FiledRequest {
  id: string;
  accountId: string;
  channel: string;
  rootTs: string;
  current: Record<string, number>;
  requested: Record<string, number>;
}

/** A new account of the main company (each request needs its own: one request in review per account). */
export async function newAccount(sandbox: SandboxHandle): Promise<string> {
  const res = await api<AccountAnswer>(sandbox, 'POST', '/api/v1/account', { appId: sandbox.companies.main.masterAppId });
  if (res.status !== 200) throw new Error(`account creation failed: ${res.status}`);
  return res.json.account.accountId;
}

/**
 * Files a limit request in the sandbox (a real PDF proof, the day and night limits raised by R$ 1.000
 * and R$ 500), posts its thread root through the app's own Slack client and tracks it in the app's store.
 */
export async function fileTrackedRequest(
  h: Pick<Harness, 'sandbox'> & { app: RunningApp },
  options: { accountId?: string; channel?: string; requesterId?: string } = {},
): Promise<FiledRequest> {
  const sandbox = h.sandbox;
  const appId = sandbox.companies.main.mainAppId;
  const accountId = options.accountId ?? (await newAccount(sandbox));
  const limits = (await api<{ limits: Record<string, number> }>(sandbox, 'GET', `/api/v1/limits/${accountId}`, { appId })).json.limits;
  const current = { pixDayLimit: limits.pixDayLimit!, pixNightLimit: limits.pixNightLimit! };
  const requested = { pixDayLimit: current.pixDayLimit + 100_000, pixNightLimit: current.pixNightLimit + 50_000 };
  const fileId = await uploadProof(sandbox, appId);
  const res = await api<LimitRequestAnswer>(sandbox, 'POST', '/api/v1/limits/request', {
    appId,
    body: { companyBankAccountId: accountId, ...requested, documents: [{ fileId }] },
  });
  if (res.status !== 201) throw new Error(`limit request failed: ${res.status} ${JSON.stringify(res.json)}`);
  const id = res.json.limitRequest.id;
  const channel = options.channel ?? CHANNEL;
  const { rootTs } = await trackWithRoot(h.app, {
    limitRequestId: id,
    accountId,
    requesterId: options.requesterId ?? REQUESTER,
    channel,
    current,
    requested,
    documents: [{ fileName: 'proof.pdf', contentType: 'application/pdf' }],
    source: 'filed',
  });
  return { id, accountId, channel, rootTs, current, requested };
}

/** Posts the thread root (as the bot does when it files a request) and tracks the request. */
export async function trackWithRoot(
  app: RunningApp,
  draft: Omit<TrackedRequest, 'rootTs' | 'closed' | 'reply' | 'createdAt'>,
): Promise<{ rootTs: string; tracked: TrackedRequest }> {
  const root = limitRequestRootMessage('en', { ...draft, rootTs: '', createdAt: new Date().toISOString(), closed: false }, 'IN_REVIEW');
  const posted = await app.deps.slack.retried.chat.postMessage({
    channel: draft.channel,
    text: root.text,
    blocks: root.blocks,
    metadata: { event_type: 'pix_limit_request', event_payload: { limit_request_id: draft.limitRequestId } },
  });
  const rootTs = posted.ts!;
  const tracked = await app.deps.store.trackedRequests.track({ ...draft, rootTs });
  return { rootTs, tracked };
}

export async function approve(sandbox: SandboxHandle, id: string, limits?: Record<string, number>): Promise<void> {
  const res = await control(sandbox, 'POST', `/limit-requests/${id}/approve`, limits ? { limits } : {});
  if (res.status !== 200) throw new Error(`approve failed: ${res.status} ${JSON.stringify(res.json)}`);
}

export async function reject(sandbox: SandboxHandle, id: string): Promise<void> {
  const res = await control(sandbox, 'POST', `/limit-requests/${id}/reject`, {});
  if (res.status !== 200) throw new Error(`reject failed: ${res.status} ${JSON.stringify(res.json)}`);
}

/** Decision replies of a thread, as the fake Slack keeps them (with their metadata). */
export function decisionReplies(messages: StoredMessage[], request: { channel: string; rootTs: string }): StoredMessage[] {
  return messages.filter(
    (m) =>
      m.channel === request.channel &&
      m.thread_ts === request.rootTs &&
      m.ts !== request.rootTs &&
      m.metadata?.event_type === 'pix_limit_decision',
  );
}

/** `chat.postMessage` calls that went to a request's thread. */
export function threadPosts(calls: SlackApiCall[], request: { channel: string; rootTs: string }): SlackApiCall[] {
  return calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === request.channel && c.args.thread_ts === request.rootTs);
}

/** `GET /api/v1/limits/request/<id>` calls the sandbox received. */
export function readsOf(sandbox: SandboxHandle, id: string, since = 0): number {
  return sandbox.calls.slice(since).filter((c) => c.method === 'GET' && c.path === `/api/v1/limits/request/${id}`).length;
}

/**
 * Another instance of the app on the harness's fake Slack, sandbox and data folder (same store), as
 * after a restart. Stop it yourself.
 */
export async function startAppLike(h: Harness, env: Record<string, string> = {}): Promise<{ app: RunningApp; logs: string[] }> {
  return startLoggedApp(harnessEnv(h, env));
}
