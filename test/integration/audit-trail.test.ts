import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@keyv/redis';
import type { StoredAuditEntry } from '../../src/audit/entry';
import { SlackStandInUploads } from '../../src/slack-standin/uploads';
import { buttonsOf, clickButton, sandboxApi } from '../support/accounts-harness';
import { BOT_TOKEN, type Harness, messageText, SIGNING_SECRET, startHarness } from '../support/harness';
import { clearFaults, failPixApi } from '../support/interactions';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const VIEWER = 'U0AVIEW01';
const OPERATOR = 'U0AOPER01';
const ADMIN = 'U0AADMIN1';
const NOBODY = 'U0ANOBODY';
const CHANNEL = 'C0AUDIT01';
const CPF = '52998224725';
const STORE_SECRET = 'audit-store-secret-0123456789abcdefghij';

/** Every entry of the trail, oldest first. */
async function allEntries(h: Harness): Promise<StoredAuditEntry[]> {
  return (await h.app.deps.store.audit.page({ since: new Date(0), limit: 10_000 })).reverse();
}

/**
 * Runs `act`, then waits for the entries it causes (up to and including the entry point's own, by
 * `action` and `user`): the router records that one last, after the answer.
 */
async function entriesOf(h: Harness, user: string, action: string, act: () => Promise<unknown>): Promise<StoredAuditEntry[]> {
  const before = (await allEntries(h)).length;
  await act();
  return waitFor(`the entry of ${action}`, async () => {
    const added = (await allEntries(h)).slice(before).filter((e) => e.user === user);
    return added.some((e) => e.action === action && e.pixMethod === undefined) ? added : undefined;
  });
}

describe.each(['sqlite', 'redis'] as const)('the audit trail on %s: what each kind of action records, across a restart', (backend) => {
  let h: Harness;
  let dir: string;
  let namespace: string;
  let env: Record<string, string>;
  let account: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-audit-trail-'));
    namespace = testNamespace('audit-trail');
    env = {
      ACCESS_VIEWERS: VIEWER,
      ACCESS_OPERATORS: OPERATOR,
      ACCESS_ADMINS: ADMIN,
      ...(backend === 'sqlite'
        ? { STORE_URL: `sqlite://${path.join(dir, 'store.sqlite')}`, STORE_SECRET }
        : { STORE_URL: SHARED_REDIS_URL, STORE_SECRET, STORE_NAMESPACE: namespace }),
    };
    h = await startHarness(env);
    account = h.sandbox.companies.main.defaultAccountId;
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
    if (backend === 'redis') await deleteKeys(SHARED_REDIS_URL, namespace);
  });

  test('a command: its Pix calls (method, path, status), then its own entry with the account and the outcome', async () => {
    const entries = await entriesOf(h, VIEWER, '/pix limits', () => h.slash(VIEWER, 'limits'));
    expect(entries).toEqual([
      expect.objectContaining({
        user: VIEWER,
        role: 'viewer',
        action: '/pix limits',
        pixMethod: 'GET',
        pixPath: '/api/v1/account',
        pixStatus: 200,
        outcome: 'ok',
      }),
      expect.objectContaining({
        user: VIEWER,
        role: 'viewer',
        action: '/pix limits',
        pixMethod: 'GET',
        pixPath: `/api/v1/limits/${account}`,
        pixStatus: 200,
        target: `account:${account}`,
        outcome: 'ok',
      }),
      expect.objectContaining({ user: VIEWER, role: 'viewer', action: '/pix limits', target: `account:${account}`, outcome: 'ok' }),
    ]);
    expect(entries[2]!.pixMethod).toBeUndefined();
    for (const e of entries) expect(new Date(e.time).toISOString()).toBe(e.time);
  });

  test('refusals: the command, the button, a user with no role; nothing else recorded, no Pix call, no key', async () => {
    const command = await entriesOf(h, OPERATOR, '/pix withdraw-key', () =>
      h.slash(OPERATOR, `withdraw-key ${account} ${CPF}`, { channelId: CHANNEL }),
    );
    expect(command).toEqual(
      [
        {
          id: expect.any(String),
          time: expect.any(String),
          user: OPERATOR,
          role: 'operator',
          action: '/pix withdraw-key',
          outcome: 'refused',
          detail: 'needs admin',
        },
      ].map((e) => expect.objectContaining(e)),
    );
    expect(command).toHaveLength(1);
    expect(JSON.stringify(command)).not.toContain(CPF);

    const button = await entriesOf(h, OPERATOR, 'action:pix_key_delete_confirm', () =>
      clickButton(h, {
        userId: OPERATOR,
        actionId: 'pix_key_delete_confirm',
        value: JSON.stringify({ accountId: account, pixKey: CPF }),
        channelId: CHANNEL,
      }),
    );
    expect(button).toEqual([
      expect.objectContaining({
        user: OPERATOR,
        role: 'operator',
        action: 'action:pix_key_delete_confirm',
        outcome: 'refused',
        detail: 'needs admin',
      }),
    ]);

    const nobody = await entriesOf(h, NOBODY, '/pix limits', () => h.slash(NOBODY, 'limits'));
    expect(nobody).toEqual([
      expect.objectContaining({ user: NOBODY, role: 'none', action: '/pix limits', outcome: 'refused', detail: 'needs viewer' }),
    ]);
  });

  test('wrong arguments and unknown subcommands are recorded as such, without what was typed', async () => {
    const bad = await entriesOf(h, VIEWER, '/pix limits', () => h.slash(VIEWER, 'limits a/b'));
    expect(bad).toEqual([expect.objectContaining({ action: '/pix limits', outcome: 'usage' })]);
    const unknown = await entriesOf(h, VIEWER, '/pix', () => h.slash(VIEWER, `frobnicate ${CPF}`));
    expect(unknown).toEqual([expect.objectContaining({ action: '/pix', outcome: 'usage' })]);
    expect(JSON.stringify(unknown)).not.toContain('frobnicate');
    expect(JSON.stringify(unknown)).not.toContain(CPF);
  });

  test('a Pix write: the withdraw key asked, then confirmed: its POST with the masked key, then the button’s entry', async () => {
    await sandboxApi(h, 'POST', `/sandbox/accounts/${account}/withdraw-key-api`, undefined, { enabled: true });
    await sandboxApi(h, 'POST', '/sandbox/dict', undefined, { pixKey: CPF, type: 'CPF', holderTaxId: h.sandbox.companies.main.taxId });
    let responseId = '';
    const asked = await entriesOf(
      h,
      ADMIN,
      '/pix withdraw-key',
      async () => ({ responseId } = await h.slash(ADMIN, `withdraw-key ${account} 529.982.247-25`, { channelId: CHANNEL })),
    );
    expect(asked.filter((e) => e.pixMethod === 'POST')).toEqual([]);
    expect(asked.at(-1)).toMatchObject({ user: ADMIN, role: 'admin', action: '/pix withdraw-key', outcome: 'ok' });
    const ask = await waitFor('the confirmation', () => h.slack.responsesTo(responseId)[0]);
    const confirm = buttonsOf(ask.body).find((b) => b.action_id === 'withdraw_key_confirm')!;
    const entries = await entriesOf(h, ADMIN, 'action:withdraw_key_confirm', () =>
      clickButton(h, { userId: ADMIN, actionId: confirm.action_id, value: confirm.value!, channelId: CHANNEL }),
    );
    // The key travels in its canonical form, eleven digits (a CPF or a phone): masked as strictly as either.
    const target = `account:${account} key:***25`;
    expect(entries.filter((e) => e.pixMethod === 'POST')).toEqual([
      expect.objectContaining({
        user: ADMIN,
        role: 'admin',
        action: 'action:withdraw_key_confirm',
        pixMethod: 'POST',
        pixPath: '/api/v1/pix-keys/withdraw',
        pixStatus: 200,
        target,
        outcome: 'ok',
      }),
    ]);
    expect(entries.at(-1)).toMatchObject({ user: ADMIN, role: 'admin', action: 'action:withdraw_key_confirm', outcome: 'ok' });
    expect(JSON.stringify([...asked, ...entries])).not.toContain(CPF);
  });

  test('the Pix API failing: every attempt with its status, and the command’s entry says failed', async () => {
    await failPixApi(h, 503, 10);
    try {
      const entries = await entriesOf(h, VIEWER, '/pix limits', () => h.slash(VIEWER, `limits ${account}`));
      const calls = entries.filter((e) => e.pixMethod);
      expect(calls.length).toBeGreaterThan(1); // reads are retried
      for (const [i, call] of calls.entries()) {
        expect(call).toMatchObject({ pixMethod: 'GET', pixPath: `/api/v1/limits/${account}`, pixStatus: 503, outcome: 'failed' });
        expect(call.detail).toBe(i === 0 ? undefined : `attempt ${i + 1}`);
      }
      expect(entries.at(-1)).toMatchObject({ action: '/pix limits', outcome: 'failed', target: `account:${account}` });
    } finally {
      await clearFaults(h);
    }
  });

  test('no AppID, token or secret in any entry, nor in the stored bytes', async () => {
    const secrets = [BOT_TOKEN, SIGNING_SECRET, STORE_SECRET, h.sandbox.companies.main.mainAppId, h.sandbox.companies.main.masterAppId];
    // Even typed by mistake where an account id goes: the entry gets no more than `usage`.
    await entriesOf(h, ADMIN, '/pix keys', () => h.slash(ADMIN, `keys ${h.sandbox.companies.main.mainAppId}`));
    const entries = JSON.stringify(await allEntries(h));
    expect(entries.length).toBeGreaterThan(1_000);
    let raw: string;
    if (backend === 'sqlite') {
      raw = readdirSync(dir)
        .map((f) => readFileSync(path.join(dir, f)).toString('latin1'))
        .join('\n');
      expect(raw).toContain('/pix withdraw-key');
    } else {
      const client = createClient({ url: SHARED_REDIS_URL });
      await client.connect();
      raw = JSON.stringify(await client.xRange(`${namespace}:audit`, '-', '+'));
      await client.close();
      expect(raw).toContain('/pix withdraw-key');
    }
    for (const secret of secrets) {
      expect(entries).not.toContain(secret);
      expect(raw).not.toContain(secret);
    }
    expect(raw).not.toContain(CPF);
  });

  test('a restart: the entries are all there, in order, and /pix audit shows them; new ones follow', async () => {
    const before = await allEntries(h);
    await h.close();
    h = await startHarness(env);
    expect(await allEntries(h)).toEqual(before);

    let responseId = '';
    await entriesOf(h, ADMIN, '/pix audit', async () => ({ responseId } = await h.slash(ADMIN, 'audit')));
    const answer = await waitFor('the audit page', () => h.slack.responsesTo(responseId)[0]);
    const text = messageText(answer.body);
    expect(text).toContain('`/pix withdraw-key`');
    expect(text).toContain(`key:***25`);
    expect(text).not.toContain(CPF);

    const after = await allEntries(h);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)).toMatchObject({ user: ADMIN, action: '/pix audit', outcome: 'ok' });

    // The export reads the same trail: every entry so far (all of today), the key masked.
    const uploads = await new SlackStandInUploads(h.slack).start();
    try {
      await entriesOf(h, ADMIN, '/pix audit export', () => h.slash(ADMIN, 'audit export'));
      const [upload] = uploads.sharedIn(`D${ADMIN.slice(1)}`);
      const lines = upload!.bytes!.toString('utf8').split('\r\n').slice(1, -1);
      expect(lines).toHaveLength(after.length);
      expect(lines.find((l) => l.includes(',POST,/api/v1/pix-keys/withdraw,'))).toContain(`account:${account} key:***25`);
      expect(upload!.bytes!.toString('utf8')).not.toContain(CPF);
    } finally {
      await uploads.close();
    }
  });
});
