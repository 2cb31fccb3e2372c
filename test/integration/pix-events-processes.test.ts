import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn, type StoredMessage } from '../../src/slack-standin/web-api';
import { type AppProcess, startAppProcess } from '../support/app-process';
import { disputeBody, e2e, sendWebhook, signWith } from '../support/pix-events';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const CHANNEL = 'C0EVKILL';

const rootsIn = (slack: SlackStandIn, id: string): StoredMessage[] =>
  slack.messages.filter(
    (m) =>
      m.channel === CHANNEL &&
      m.thread_ts === undefined &&
      m.metadata?.event_type === 'pix_dispute' &&
      m.metadata.event_payload.end_to_end_id === id,
  );

/** Posts of a root for this dispute that reached the stand-in (whatever their answer). */
const rootPosts = (slack: SlackStandIn, id: string) =>
  slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === undefined && JSON.stringify(c.args.metadata ?? '').includes(id));

async function send(sandbox: SandboxHandle, proc: AppProcess, body: string) {
  return sendWebhook(`http://127.0.0.1:${proc.port}/pix/webhooks`, body, signWith(await sandbox.webhooks.currentPrivateKey(), body));
}

/**
 * an event answered 200 is recorded before the answer, so a `kill -9` between the
 * answer and the post loses nothing, and posts nothing twice: the next run posts it (looking first for
 * a root the killed run may have posted).
 */
describe('kill -9 between the 200 and the post (sqlite)', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let dir: string;
  const procs: AppProcess[] = [];

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-evkill-'));
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await sandbox.close();
    await slack.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await Promise.all(procs.splice(0).map((p) => p.stop()));
    slack.off('chat.postMessage');
  });

  const start = async () => {
    const proc = await startAppProcess({
      SLACK_API_URL: slack.apiUrl,
      PIX_API_URL: sandbox.url,
      PIX_APP_ID: sandbox.companies.main.mainAppId,
      STORE_URL: `sqlite://${path.join(dir, 'pix-ops.sqlite')}`,
      POLL_SCHEDULE: '0 0 1 1 *',
      PIX_EVENTS_CHANNEL: CHANNEL,
      LOG_LEVEL: 'info',
    });
    procs.push(proc);
    return proc;
  };

  test('killed before its post reached Slack: the next start posts the root, once', async () => {
    const first = await start();
    // Slack never answers, and takes nothing: the post is stuck when the process dies.
    slack.on('chat.postMessage', () => new Promise(() => undefined));
    const id = e2e();
    const answer = await send(sandbox, first, disputeBody('DISPUTE_CREATED', id));
    expect(answer.status).toBe(200);
    await waitFor('the post on its way', () => rootPosts(slack, id).length === 1);
    first.kill('SIGKILL');
    await first.exited;
    slack.off('chat.postMessage');
    expect(rootsIn(slack, id)).toHaveLength(0);

    await start();
    await waitFor('the root posted by the next run', () => rootsIn(slack, id).length === 1, 10_000);
    expect(rootsIn(slack, id)).toHaveLength(1);
  });

  test('killed after Slack took the post but before it was recorded: the next start finds it and posts nothing more', async () => {
    const first = await start();
    // Slack takes the message but the answer never comes back: the process dies waiting for it.
    slack.on('chat.postMessage', (args) => {
      slack.answerByDefault('chat.postMessage', args);
      return new Promise(() => undefined);
    });
    const id = e2e();
    expect((await send(sandbox, first, disputeBody('DISPUTE_CREATED', id))).status).toBe(200);
    await waitFor('the root in the channel', () => rootsIn(slack, id).length === 1);
    first.kill('SIGKILL');
    await first.exited;
    slack.off('chat.postMessage');

    const second = await start();
    // The next event of the dispute: a reply in the thread of the root the killed run posted.
    expect((await send(sandbox, second, disputeBody('DISPUTE_REJECTED', id))).status).toBe(200);
    const root = rootsIn(slack, id)[0]!;
    await waitFor('the reply in its thread', () => slack.messages.some((m) => m.thread_ts === root.ts && m.ts !== root.ts));
    expect(rootsIn(slack, id)).toHaveLength(1);
    expect(rootPosts(slack, id)).toHaveLength(1);
  });
});

/**
 * two instances on one Redis given the same event (and two events of one dispute) at
 * the same moment: one root.
 */
describe('two instances on one Redis, the same dispute at the same moment', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let cwd: string;
  const namespace = testNamespace('pixevents');
  const running: AppProcess[] = [];

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    cwd = mkdtempSync(path.join(tmpdir(), 'pix-ops-ev2-'));
    const start = () =>
      startAppProcess(
        {
          SLACK_API_URL: slack.apiUrl,
          PIX_API_URL: sandbox.url,
          PIX_APP_ID: sandbox.companies.main.mainAppId,
          STORE_URL: SHARED_REDIS_URL,
          STORE_SECRET: 'e'.repeat(40),
          STORE_NAMESPACE: namespace,
          POLL_SCHEDULE: '0 0 1 1 *',
          PIX_EVENTS_CHANNEL: CHANNEL,
          LOG_LEVEL: 'info',
        },
        { cwd },
      );
    running.push(...(await Promise.all([start(), start()])));
  });

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await deleteKeys(SHARED_REDIS_URL, namespace);
    await sandbox.close();
    await slack.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  test('the same bytes to both: both answer 200, one root', async () => {
    const [a, b] = running;
    const id = e2e();
    const body = disputeBody('DISPUTE_CREATED', id);
    const answers = await Promise.all([send(sandbox, a!, body), send(sandbox, b!, body)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    await waitFor('the root', () => rootsIn(slack, id).length === 1);
    await waitFor('the drain that posted it', () => running.some((p) => p.logs().some((l) => l.msg === 'Pix events drained')));
    expect(rootPosts(slack, id)).toHaveLength(1);
  });

  test('CREATED to one and ACCEPTED to the other at once: one root, the other event in its thread', async () => {
    const [a, b] = running;
    const id = e2e();
    const answers = await Promise.all([
      send(sandbox, a!, disputeBody('DISPUTE_CREATED', id)),
      send(sandbox, b!, disputeBody('DISPUTE_ACCEPTED', id)),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const root = await waitFor('the root', () => rootsIn(slack, id)[0]);
    await waitFor('the other event in its thread', () => slack.messages.some((m) => m.thread_ts === root.ts && m.ts !== root.ts), 10_000);
    expect(rootsIn(slack, id)).toHaveLength(1);
    expect(rootPosts(slack, id)).toHaveLength(1);
    await waitFor('the root accepted', () => JSON.stringify(rootsIn(slack, id)[0]!.blocks).includes('aceita'));
  });
});
