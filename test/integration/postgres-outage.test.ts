import { type Harness, messageText, startHarness } from '../support/harness';
import { addProof, modalTexts, openLimitForm, submitLimitForm } from '../support/limit-form';
import { approve, decisionReplies, fileTrackedRequest, readsOf, threadPosts } from '../support/limit-requests';
import { disputeBody, e2e, sendSigned } from '../support/pix-events';
import { dropSchema, pgNamespace } from '../support/postgres';
import { sendInteraction, submittedView, viewSubmission } from '../support/slack-payloads';
import { TcpProxy } from '../support/tcp-proxy';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER7';
const OPERATOR = 'U0OPERAT7';

/**
 * The app on Postgres through a TCP proxy the test cuts and restores (the database itself untouched):
 * while it is cut, people are told their action could not be recorded and nothing is written to the
 * Pix API, webhooks are answered 503 and /readyz 503; restored, the pool reconnects by itself and the
 * work left meanwhile is done, once.
 */
describe('Postgres cut away and restored (a TCP proxy between the app and the database)', () => {
  const namespace = pgNamespace('outage');
  let proxy: TcpProxy;
  let h: Harness;

  beforeAll(async () => {
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: 5432 });
    h = await startHarness({
      STORE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/test`,
      STORE_SECRET: 'p'.repeat(40),
      STORE_NAMESPACE: namespace,
      STORE_POOL_MAX: '4',
      STORE_TIMEOUT_MS: '1000',
      POLL_SCHEDULE: '* * * * * *',
      HEALTH_PORT: '0',
      PIX_EVENTS_CHANNEL: 'C0EVENTS7',
      ACCESS_VIEWERS: VIEWER,
      ACCESS_OPERATORS: OPERATOR,
    });
  });
  afterAll(async () => {
    proxy.restore();
    await h.close();
    await proxy.close();
    await dropSchema(namespace);
  });

  const openEvidenceForm = async () => {
    const before = h.slack.calls.length;
    await h.slash(OPERATOR, `dispute-evidence ${h.sandbox.companies.main.disputeId}`, { channelId: 'C0OUTAGE7' });
    const open = await waitFor('the evidence form', () => h.slack.calls.slice(before).find((c) => c.method === 'views.open'));
    return { view: open.args.view as Parameters<typeof submittedView>[0], viewId: (open.response as { view: { id: string } }).view.id };
  };
  const health = async (path: '/healthz' | '/readyz') => (await fetch(`http://127.0.0.1:${h.app.healthPort}${path}`)).status;
  const answerTo = async (userId: string, text: string) => {
    const cmd = await h.slash(userId, text, { channelId: 'C0OUTAGE7' });
    expect(cmd.status).toBe(200);
    const answer = await waitFor(
      `the answer to /pix ${text}`,
      () => h.slack.responsesTo(cmd.responseId)[0] ?? (cmd.ack && { body: cmd.ack }),
      8_000,
    );
    return messageText(answer.body);
  };

  test('cut: told the storage is unavailable, nothing written to the Pix API, webhooks and /readyz 503; restored: the decision made meanwhile posted once', async () => {
    const r = await fileTrackedRequest(h);
    await waitFor('the poller reading the request', () => readsOf(h.sandbox, r.id) > 0, 5_000);
    expect(await health('/readyz')).toBe(200);
    const form = await openLimitForm(h, { userId: OPERATOR, accountId: h.sandbox.companies.main.defaultAccountId, channelId: 'C0OUTAGE7' });
    const evidenceForm = await openEvidenceForm();

    proxy.cut();
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;

    expect(await answerTo(VIEWER, `limit status ${r.id}`)).toContain('storage is unavailable');
    // A limit request: not even its proof is uploaded.
    await submitLimitForm(h, form, { userId: OPERATOR, dayLimit: '7000', files: [addProof(h.slack)] });
    const told = await waitFor('the outcome in the modal', () =>
      modalTexts(h.slack, form.viewId, slackSince).find((t) => t.includes('storage is unavailable')),
    );
    expect(told).toContain('nothing was done');
    // Writes that read nothing from the store first (dispute evidence: its files, then the attachment): refused before they are sent.
    const evidence = await sendInteraction(
      h,
      viewSubmission(
        OPERATOR,
        submittedView(evidenceForm.view, evidenceForm.viewId, {
          documents: { files: { type: 'file_input', files: [addProof(h.slack, 'receipt.pdf')] } },
          note: { text: { type: 'plain_text_input', value: null } },
        }),
      ),
    );
    expect(evidence.body).toMatchObject({ response_action: 'update' });
    const refused = await waitFor('the evidence modal’s outcome', () =>
      modalTexts(h.slack, evidenceForm.viewId, slackSince).find((t) => t.includes('storage is unavailable')),
    );
    expect(refused).toContain('nothing was done');
    // A webhook: 503, so that the service delivers it again later.
    const hook = await sendSigned(h, disputeBody('DISPUTE_CREATED', e2e()));
    expect(hook.status).toBe(503);
    await waitFor('/readyz to say the store is down', async () => (await health('/readyz')) === 503, 3_000);
    expect(await health('/healthz')).toBe(503);
    expect(h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET')).toEqual([]);

    // Decided meanwhile: nothing can be delivered while the store is away.
    await approve(h.sandbox, r.id);
    await expect(h.app.poller.tick()).rejects.toThrow();
    expect(threadPosts(h.slack.calls, r)).toHaveLength(0);

    proxy.restore();
    await waitFor('the decision in its thread', () => decisionReplies(h.slack.messages, r).length > 0, 15_000);
    await waitFor(
      'the request closed',
      async () => (await h.app.deps.store.trackedRequests.get(r.id).catch(() => undefined))?.closed,
      5_000,
    );
    expect(threadPosts(h.slack.calls, r)).toHaveLength(1);
    await waitFor('/readyz back to 200', async () => (await health('/readyz')) === 200, 3_000);
    expect(await answerTo(VIEWER, `limit status ${r.id}`)).not.toContain('storage is unavailable');
    expect(h.logs.some((l) => l.includes('the store is unavailable'))).toBe(true);
    expect(h.logs.some((l) => l.includes('the store is back'))).toBe(true);
  }, 60_000);
});
