import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { control } from '../sandbox/helpers';
import { type AppProcess, startAppProcess } from '../support/app-process';
import { messageText, poster } from '../support/harness';
import { type AppUnderTest, addProof, modalTexts, openLimitForm, requestsOf, rootsIn, submitLimitForm } from '../support/limit-form';
import { approve, decisionReplies, newAccount } from '../support/limit-requests';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0OPER001';

/**
 * `kill -9` of the app (`dist/src/main.js`, as `npm start` runs it) at each step
 * between filing a limit request and following it loses no decision: the next run finds the request
 * (from the filing intent recorded before `POST /limits/request`, against the company's list of
 * requests), posts its root once, and its decision reaches the thread.
 */
describe('kill -9 while a limit request is being filed (sqlite store, one process at a time)', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let dir: string;
  const procs: AppProcess[] = [];

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-kill-'));
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await sandbox.close();
    await slack.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    // One process at a time on the sqlite file: the one a test restarted must not poll into the next test.
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    slack.off('views.update');
    slack.off('chat.postMessage');
    await control(sandbox, 'DELETE', '/faults');
  });

  const start = async (): Promise<{ proc: AppProcess; app: AppUnderTest }> => {
    const proc = await startAppProcess({
      SLACK_API_URL: slack.apiUrl,
      PIX_API_URL: sandbox.url,
      PIX_APP_ID: sandbox.companies.main.mainAppId,
      PIX_TIMEOUT_MS: '5000',
      STORE_URL: `sqlite://${path.join(dir, 'pix-ops.sqlite')}`,
      POLL_SCHEDULE: '* * * * * *',
      ACCESS_OPERATORS: OPERATOR,
      LOG_LEVEL: 'info',
    });
    procs.push(proc);
    return { proc, app: { slack, post: poster(proc.eventsUrl, slack) } };
  };

  const killNine = async (proc: AppProcess) => {
    proc.kill('SIGKILL');
    expect((await proc.exited).signal).toBe('SIGKILL');
  };

  /** After the restart: one root for the request in `channel`, and its decision in that root's thread. */
  const expectFollowedToTheEnd = async (channel: string, accountId: string) => {
    const [filed] = await waitFor('the request in the company’s list', async () => {
      const list = await requestsOf(sandbox, accountId);
      return list.length ? list : undefined;
    });
    const root = await waitFor(
      'its thread root',
      () => rootsIn(slack, channel).find((m) => m.metadata?.event_payload.limit_request_id === filed!.id),
      10_000,
    );
    expect(messageText(root)).toContain(`<@${OPERATOR}>`);
    await approve(sandbox, filed!.id);
    await waitFor('its decision in the thread', () => decisionReplies(slack.messages, { channel, rootTs: root.ts }).length === 1, 10_000);
    expect(rootsIn(slack, channel)).toHaveLength(1);
  };

  test('killed while POST /limits/request is on its way (the service files it all the same)', async () => {
    const channel = 'C0KILL0001';
    const first = await start();
    const account = await newAccount(sandbox);
    const form = await openLimitForm(first.app, { userId: OPERATOR, accountId: account, channelId: channel });
    // Hold "Filing the request…" (sent just before the request) until the Pix API is slow.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    slack.on('views.update', async (args) => {
      if (messageText(args.view).includes('Filing the request')) await held;
      return slack.answerByDefault('views.update', args);
    });
    const from = slack.calls.length;
    await submitLimitForm(first.app, form, { userId: OPERATOR, dayLimit: '7000', files: [addProof(slack)] });
    await waitFor('the filing step', () => modalTexts(slack, form.viewId, from).some((t) => t.includes('Filing the request')));
    await control(sandbox, 'POST', '/faults', { latencyMs: 1_500 });
    const pixFrom = sandbox.calls.length;
    release();
    await waitFor('the request on its way', () =>
      sandbox.calls.slice(pixFrom).some((c) => c.method === 'POST' && c.path === '/api/v1/limits/request'),
    );
    await killNine(first.proc);
    await control(sandbox, 'DELETE', '/faults');
    slack.off('views.update');

    await start();
    await expectFollowedToTheEnd(channel, account);
  });

  test.each([
    ['taken by Slack, its answer never back', true],
    ['not taken yet', false],
  ])('killed while its thread root is being posted (%s)', async (_, taken) => {
    const channel = taken ? 'C0KILL0002' : 'C0KILL0003';
    const first = await start();
    const account = await newAccount(sandbox);
    const form = await openLimitForm(first.app, { userId: OPERATOR, accountId: account, channelId: channel });
    let reached = false;
    slack.on('chat.postMessage', (args) => {
      if ((args.metadata as { event_type?: string } | undefined)?.event_type !== 'pix_limit_request')
        return slack.answerByDefault('chat.postMessage', args);
      if (taken) slack.answerByDefault('chat.postMessage', args);
      reached = true;
      return new Promise(() => undefined); // never answers
    });
    await submitLimitForm(first.app, form, { userId: OPERATOR, dayLimit: '7000', files: [addProof(slack)] });
    await waitFor('the root post on its way', () => reached, 10_000);
    await killNine(first.proc);
    slack.off('chat.postMessage');
    expect(rootsIn(slack, channel)).toHaveLength(taken ? 1 : 0);

    await start();
    await expectFollowedToTheEnd(channel, account);
  });
});
