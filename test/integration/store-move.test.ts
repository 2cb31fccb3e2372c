import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { openStore } from '../../src/store';
import { schemaOf } from '../../src/store/postgres/db';
import { type AppProcess, startAppProcess } from '../support/app-process';
import { messageText, poster } from '../support/harness';
import { addProof, modalTexts, openLimitForm, requestsOf, rootsIn, submitLimitForm } from '../support/limit-form';
import { approve, decisionReplies, newAccount, readsOf } from '../support/limit-requests';
import { dropSchema, PG_URL, pgNamespace, pgQuery } from '../support/postgres';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0MOVEOP1';
const CHANNEL = 'C0MOVING1';
const COPY = path.resolve(__dirname, '../../dist/src/store/copy-cli.js');

/**
 * A sqlite deployment moved to Postgres with `npm run store:copy`, as an operator would: the app
 * (`dist/src/main.js`) files a limit request on sqlite (no STORE_SECRET: the secret generated beside
 * the file) and is stopped; the copy runs (twice: nothing the second time); the app started on
 * Postgres with that secret follows the request still in review, and posts its decision once, in
 * the thread the first app started.
 */
describe('moving a sqlite deployment to Postgres', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let dir: string;
  const namespace = pgNamespace('move');
  const procs: AppProcess[] = [];

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-move-'));
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await sandbox.close();
    await slack.close();
    rmSync(dir, { recursive: true, force: true });
    await dropSchema(namespace);
  });

  const start = async (store: Record<string, string>) => {
    const proc = await startAppProcess(
      {
        SLACK_API_URL: slack.apiUrl,
        PIX_API_URL: sandbox.url,
        PIX_APP_ID: sandbox.companies.main.mainAppId,
        PIX_TIMEOUT_MS: '5000',
        POLL_SCHEDULE: '* * * * * *',
        ACCESS_OPERATORS: OPERATOR,
        LOG_LEVEL: 'info',
        ...store,
      },
      { cwd: dir },
    );
    procs.push(proc);
    return proc;
  };

  const copy = async (from: string, to: string, env: Record<string, string> = {}) => {
    const { stdout } = await promisify(execFile)(process.execPath, [COPY, from, to, '--to-namespace', namespace], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    return stdout.split('\n').filter(Boolean);
  };

  test('a request in review on sqlite: copied, then followed on Postgres to its decision, in its original thread', async () => {
    const sqlite = `sqlite://${path.join(dir, 'data', 'pix-ops.sqlite')}`;
    const first = await start({ STORE_URL: sqlite });
    const account = await newAccount(sandbox);
    const app = { slack, post: poster(first.eventsUrl, slack) };
    const form = await openLimitForm(app, { userId: OPERATOR, accountId: account, channelId: CHANNEL });
    const from = slack.calls.length;
    await submitLimitForm(app, form, { userId: OPERATOR, dayLimit: '7000', files: [addProof(slack)] });
    await waitFor('the request filed', () => modalTexts(slack, form.viewId, from).some((t) => t.includes('filed and in review')), 10_000);
    const [filed] = await requestsOf(sandbox, account);
    const root = rootsIn(slack, CHANNEL).find((m) => m.metadata?.event_payload.limit_request_id === filed!.id)!;
    expect(root).toBeDefined();
    await waitFor('the first app polling it', () => readsOf(sandbox, filed!.id) > 0, 5_000);
    await first.stop();

    const moved = await copy(sqlite, PG_URL);
    expect(moved[0]).toBe('Copying from sqlite to postgres');
    expect(moved).toContain('tracked requests: 1');
    const audited = moved.find((l) => l.startsWith('audit trail: '));
    expect(Number(audited?.split(': ')[1])).toBeGreaterThan(0);
    expect(moved.at(-1)).toMatch(
      /^Note: the copy is sealed with the secret in .*store-secret: start the app on the target with STORE_SECRET set to it$/,
    );
    const again = await copy(sqlite, PG_URL);
    expect(again).toContain('tracked requests: 0 (1 already there)');
    expect(again).toContain('audit trail: 0');
    const [copiedTrail] = await pgQuery<{ n: string }>(`SELECT count(*) AS n FROM "${schemaOf(namespace)}".audit_log`);
    expect(Number(copiedTrail!.n)).toBe(Number(audited?.split(': ')[1]));

    await approve(sandbox, filed!.id);
    const secret = readFileSync(path.join(dir, 'data', 'store-secret'), 'utf8').trim();
    await start({ STORE_URL: PG_URL, STORE_SECRET: secret, STORE_NAMESPACE: namespace });
    await waitFor(
      'the decision in the original thread',
      () => decisionReplies(slack.messages, { channel: CHANNEL, rootTs: root.ts }).length > 0,
      15_000,
    );
    const replies = decisionReplies(slack.messages, { channel: CHANNEL, rootTs: root.ts });
    expect(replies).toHaveLength(1);
    expect(messageText(replies[0])).toContain(`<@${OPERATOR}>`);
    expect(rootsIn(slack, CHANNEL)).toHaveLength(1);
    // The root is updated after the reply is posted.
    await waitFor(
      'the root showing the decision',
      () => messageText(slack.messages.find((m) => m.ts === root.ts)).includes('Approved'),
      15_000,
    );
  }, 60_000);

  test('onto itself: refused before anything is opened; into a sqlite folder not made yet: made, with the secret beside it', async () => {
    const run = (args: string[], env: Record<string, string> = {}) =>
      promisify(execFile)(process.execPath, [COPY, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } }).then(
        ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
    const itself = await run([PG_URL, PG_URL, '--from-namespace', namespace, '--to-namespace', namespace], {
      STORE_SECRET: 'm'.repeat(40),
    });
    expect(itself.code).toBe(1);
    expect(itself.stderr).toContain('FROM_URL and TO_URL are the same store');

    const source = path.join(dir, 'small', 'pix-ops.sqlite');
    const store = await openStore({ url: `sqlite://${source}` });
    await store.accountApps.save({ accountId: 'a'.repeat(24), appId: 'app-id', name: 'Moved' });
    await store.close();
    const target = path.join(dir, 'not', 'made', 'yet', 'pix-ops.sqlite');
    const copied = await run([`sqlite://${source}`, `sqlite://${target}`]);
    expect(copied.stdout).toContain('account AppIDs: 1');
    expect(readFileSync(path.join(path.dirname(target), 'store-secret'), 'utf8').trim()).toBe(
      readFileSync(path.join(dir, 'small', 'store-secret'), 'utf8').trim(),
    );
  });
});
