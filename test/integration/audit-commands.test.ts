import type { AuditEntry, StoredAuditEntry } from '../../src/audit/entry';
import { SlackStandInUploads } from '../../src/slack-standin/uploads';
import { buttonsOf, clickButton, sandboxApi } from '../support/accounts-harness';
import { type Harness, messageText, startHarness } from '../support/harness';
import { clearFaults, failPixApi } from '../support/interactions';
import { waitFor } from '../support/wait';

const ADMIN = 'U0AUDADM1';
const ADMIN_PT = 'U0AUDADM2';
/** An admin whose direct messages with the bot nothing before opens (a DM channel, once opened, is kept). */
const ADMIN_NEW = 'U0AUDADM3';
const OPERATOR = 'U0AUDOPR1';
const CHANNEL = 'C0AUDCMD1';
const CPF = '52998224725';

const seed = (h: Harness, entries: AuditEntry[]) => Promise.all(entries.map((e) => h.app.deps.store.audit.append(e)));
const seedUser = (i: number) => `U0SEED${String(i).padStart(3, '0')}`;

describe('/pix audit and /pix audit export', () => {
  let h: Harness;
  let uploads: SlackStandInUploads;

  beforeAll(async () => {
    h = await startHarness({ ACCESS_ADMINS: `${ADMIN},${ADMIN_PT},${ADMIN_NEW}`, ACCESS_OPERATORS: OPERATOR });
    h.slack.locales.set(ADMIN_PT, 'pt-BR');
    uploads = await new SlackStandInUploads(h.slack).start();
  });
  afterAll(async () => {
    await uploads.close();
    await h.close();
  });

  const answersOf = (responseId: string) => h.slack.responsesTo(responseId).map((r) => r.body);
  /** The command's final answer (after any "preparing…" one), once its own audit entry is written. */
  const newest = async (limit: number) => h.app.deps.store.audit.page({ since: new Date(0), limit });
  const run = async (userId: string, text: string) => {
    const mark = (await newest(1))[0]?.id;
    const res = await h.slash(userId, text, { channelId: CHANNEL });
    if (res.ack?.text) return { answer: res.ack, responseId: res.responseId };
    const action = `/pix ${text
      .split(' ')
      .slice(0, text.startsWith('audit export') ? 2 : 1)
      .join(' ')}`;
    await waitFor(`the entry of ${action}`, async () => {
      const recent = await newest(50);
      const added =
        mark === undefined
          ? recent
          : recent.slice(
              0,
              recent.findIndex((e) => e.id === mark),
            );
      return added.find((e) => e.user === userId && e.action === action && !e.pixMethod);
    });
    return { answer: answersOf(res.responseId).at(-1)!, responseId: res.responseId };
  };
  const usersOf = (message: unknown) => [...messageText(message).matchAll(/<@(U0SEED\d{3})>/g)].map((m) => m[1]);

  test('newest first, 15 a page; Next and Previous walk the same pages while new entries arrive', async () => {
    const start = Date.now() - 3_600_000;
    await seed(
      h,
      Array.from({ length: 40 }, (_, i) => ({
        time: new Date(start + (i + 1) * 1_000).toISOString(),
        user: seedUser(i + 1),
        role: 'viewer' as const,
        action: '/pix limits',
        outcome: 'ok' as const,
      })),
    );

    const first = await run(ADMIN, 'audit');
    expect(first.answer.response_type).toBe('ephemeral');
    expect(messageText(first.answer)).toContain('*Audit trail*: the last 7 days, newest first · page 1');
    expect(usersOf(first.answer)).toEqual(Array.from({ length: 15 }, (_, i) => seedUser(40 - i)));
    expect(buttonsOf(first.answer).map((b) => b.action_id)).toEqual(['audit_page_next']);

    const next = buttonsOf(first.answer)[0]!;
    const second = await clickButton(h, { userId: ADMIN, actionId: 'audit_page_next', value: next.value!, channelId: CHANNEL });
    const page2 = await waitFor('page 2', () => answersOf(second.responseId)[0]);
    expect(page2.replace_original).toBe(true);
    expect(messageText(page2)).toContain('page 2');
    expect(usersOf(page2)).toEqual(Array.from({ length: 15 }, (_, i) => seedUser(25 - i)));
    expect(buttonsOf(page2).map((b) => b.action_id)).toEqual(['audit_page_prev', 'audit_page_next']);

    const third = await clickButton(h, {
      userId: ADMIN,
      actionId: 'audit_page_next',
      value: buttonsOf(page2)[1]!.value!,
      channelId: CHANNEL,
    });
    const page3 = await waitFor('page 3', () => answersOf(third.responseId)[0]);
    expect(usersOf(page3)).toEqual(Array.from({ length: 10 }, (_, i) => seedUser(10 - i)));
    expect(buttonsOf(page3).map((b) => b.action_id)).toEqual(['audit_page_prev']);

    // Back: page 2 again, exactly, though the clicks above were recorded (newer entries) meanwhile.
    const back = await clickButton(h, {
      userId: ADMIN,
      actionId: 'audit_page_prev',
      value: buttonsOf(page3)[0]!.value!,
      channelId: CHANNEL,
    });
    const page2again = await waitFor('page 2 again', () => answersOf(back.responseId)[0]);
    expect(usersOf(page2again)).toEqual(usersOf(page2));
    const backToFirst = await clickButton(h, {
      userId: ADMIN,
      actionId: 'audit_page_prev',
      value: buttonsOf(page2again)[0]!.value!,
      channelId: CHANNEL,
    });
    const page1again = await waitFor('page 1 again', () => answersOf(backToFirst.responseId)[0]);
    expect(usersOf(page1again)).toEqual(usersOf(first.answer));
    expect(buttonsOf(page1again).map((b) => b.action_id)).toEqual(['audit_page_next']);
  });

  test('[days]: older entries appear only when asked for; the page shows masked keys, roles and outcomes', async () => {
    await seed(h, [
      {
        time: new Date(Date.now() - 10 * 86_400_000).toISOString(),
        user: seedUser(900),
        role: 'admin',
        action: '/pix key delete',
        target: 'account:acc1 key:***.982.247-**',
        pixMethod: 'DELETE',
        pixPath: '/api/v1/pix-keys/***.982.247-**',
        pixStatus: 204,
        outcome: 'ok',
      },
    ]);
    expect(usersOf((await run(ADMIN, 'audit')).answer)).not.toContain(seedUser(900));
    let found: unknown;
    for (const days of ['11', '366']) {
      const { answer } = await run(ADMIN, `audit ${days}`);
      expect(messageText(answer)).toContain(`the last ${days} days`);
      // Walk to the last page.
      let page = answer;
      for (;;) {
        if (usersOf(page).includes(seedUser(900))) break;
        const next = buttonsOf(page).find((b) => b.action_id === 'audit_page_next');
        expect(next).toBeDefined();
        const click = await clickButton(h, { userId: ADMIN, actionId: 'audit_page_next', value: next!.value!, channelId: CHANNEL });
        page = await waitFor('the next page', () => answersOf(click.responseId)[0]);
      }
      found = page;
    }
    const text = messageText(found);
    expect(text).toContain(`<@${seedUser(900)}> · admin · \`/pix key delete\` · done`);
    expect(text).toContain('`account:acc1 key:***.982.247-**` · `DELETE /api/v1/pix-keys/***.982.247-**` → 204');
  });

  test('wrong arguments get the usage line; a forged page button is refused; nothing is read', async () => {
    for (const text of ['audit 0', 'audit 367', 'audit x', 'audit 1 2']) {
      const { answer } = await run(ADMIN, text);
      expect(messageText(answer)).toContain('Usage: `/pix audit [days]`');
    }
    expect(messageText((await run(ADMIN, 'audit 0')).answer)).toContain('The number of days is a whole number from 1 to 366.');
    for (const value of [
      'nope',
      JSON.stringify({ days: 7, since: 0, page: 2, before: '1; DROP TABLE audit_trail' }),
      JSON.stringify({ days: 7, since: 0, page: 2 }),
    ]) {
      const click = await clickButton(h, { userId: ADMIN, actionId: 'audit_page_next', value, channelId: CHANNEL });
      expect(messageText(await waitFor('the answer', () => answersOf(click.responseId)[0]))).toContain(
        'This button does not name a page of the audit trail',
      );
    }
  });

  test('an operator is refused both commands and the buttons, and the refusal is itself recorded', async () => {
    for (const text of ['audit', 'audit export']) {
      const { answer } = await run(OPERATOR, text);
      expect(messageText(answer)).toContain('You need the *admin* role');
    }
    const click = await clickButton(h, {
      userId: OPERATOR,
      actionId: 'audit_page_next',
      value: JSON.stringify({ days: 7, since: 0, page: 2, before: '1' }),
      channelId: CHANNEL,
    });
    expect(messageText(await waitFor('the refusal', () => answersOf(click.responseId)[0]))).toContain('You need the *admin* role');
    const recorded = await waitFor('the refusals recorded', async () => {
      const mine = (await h.app.deps.store.audit.page({ since: new Date(Date.now() - 60_000), limit: 50 })).filter(
        (e) => e.user === OPERATOR,
      );
      return mine.length >= 3 ? mine : undefined;
    });
    expect(recorded.map((e) => [e.action, e.outcome, e.detail]).reverse()).toEqual([
      ['/pix audit', 'refused', 'needs admin'],
      ['/pix audit export', 'refused', 'needs admin'],
      ['action:audit_page_next', 'refused', 'needs admin'],
    ]);
    expect(h.slack.callsOf('files.getUploadURLExternal')).toEqual([]);
  });

  test('the Pix API failing does not matter: the trail is the app’s own, and no Pix call is made', async () => {
    await failPixApi(h, 503, 10);
    try {
      const before = h.sandbox.calls.length;
      const { answer } = await run(ADMIN, 'audit 1');
      expect(messageText(answer)).toContain('*Audit trail*: the last day');
      expect(h.sandbox.calls.length).toBe(before);
    } finally {
      await clearFaults(h);
    }
  });

  test('export: the CSV’s exact bytes (BOM, header, CRLF, quoting), São Paulo days, in the admin’s DM', async () => {
    const entries: AuditEntry[] = [
      { time: '2026-03-05T02:59:59.999Z', user: seedUser(100), role: 'admin', action: '/pix limits', outcome: 'ok' }, // 04/03 23:59:59.999 in São Paulo
      {
        time: '2026-03-05T03:00:00.000Z',
        user: seedUser(101),
        role: 'admin',
        action: '/pix withdraw-key',
        target: 'account:acc1 key:***.982.247-**',
        pixMethod: 'POST',
        pixPath: '/api/v1/pix-keys/withdraw',
        pixStatus: 200,
        outcome: 'ok',
      },
      {
        time: '2026-03-05T15:30:00.000Z',
        user: seedUser(102),
        role: 'operator',
        action: '/pix limits',
        target: 'account:acc,1',
        pixMethod: 'GET',
        pixPath: '/api/v1/limits/acc1',
        pixStatus: 503,
        outcome: 'failed',
        detail: 'a, "quoted"\nline',
      },
      {
        time: '2026-03-06T02:59:59.999Z',
        user: seedUser(103),
        role: 'admin',
        action: 'action:approval_approve',
        target: 'request:r1',
        maker: 'U0MAKER01',
        checker: seedUser(103),
        outcome: 'approved',
      },
      { time: '2026-03-06T03:00:00.000Z', user: seedUser(104), role: 'admin', action: '/pix limits', outcome: 'ok' }, // 06/03 00:00 in São Paulo
    ];
    for (const e of entries) await h.app.deps.store.audit.append(e);
    const slackBefore = h.slack.calls.length;
    const { answer, responseId } = await run(ADMIN, 'audit export 2026-03-05 2026-03-05');
    expect(messageText(answersOf(responseId)[0])).toContain('Preparing the audit trail from Mar 5, 2026 to Mar 5, 2026');
    expect(messageText(answer)).toContain(
      'The audit trail from Mar 5, 2026 to Mar 5, 2026 (3 entries) is in your direct messages with Pix Ops.',
    );

    const expected =
      '\uFEFFtime (UTC),user,role,action,target,Pix method,Pix path,Pix status,maker,checker,outcome,detail\r\n' +
      '2026-03-05T03:00:00.000Z,U0SEED101,admin,/pix withdraw-key,account:acc1 key:***.982.247-**,POST,/api/v1/pix-keys/withdraw,200,,,ok,\r\n' +
      '2026-03-05T15:30:00.000Z,U0SEED102,operator,/pix limits,"account:acc,1",GET,/api/v1/limits/acc1,503,,,failed,"a, ""quoted""\nline"\r\n' +
      '2026-03-06T02:59:59.999Z,U0SEED103,admin,action:approval_approve,request:r1,,,,U0MAKER01,U0SEED103,approved,\r\n';
    const calls = h.slack.calls.slice(slackBefore);
    expect(calls.map((c) => c.method)).toEqual(['conversations.open', 'files.getUploadURLExternal', 'files.completeUploadExternal']);
    expect(calls[0]!.args.users).toBe(ADMIN);
    const dm = `D${ADMIN.slice(1)}`;
    const [upload] = uploads.sharedIn(dm);
    expect(upload!.bytes!.equals(Buffer.from(expected, 'utf8'))).toBe(true);
    expect(upload!.filename).toBe('pix-ops-audit-2026-03-05-to-2026-03-05.csv');
    expect(upload!.length).toBe(Buffer.byteLength(expected, 'utf8'));
    expect(upload!.shared).toMatchObject({
      channel: dm,
      title: 'pix-ops-audit-2026-03-05-to-2026-03-05.csv',
      initialComment: 'Pix Ops audit trail, Mar 5, 2026 to Mar 5, 2026 (São Paulo time): 3 entries.',
    });

    // The export is recorded with its period.
    const [own] = (await h.app.deps.store.audit.page({ since: new Date(Date.now() - 60_000), limit: 1 })) as StoredAuditEntry[];
    expect(own).toMatchObject({ user: ADMIN, action: '/pix audit export', target: 'period:2026-03-05..2026-03-05', outcome: 'ok' });
  });

  test('export in Portuguese: the header in the admin’s language; a real action’s Pix key masked', async () => {
    const account = h.sandbox.companies.main.defaultAccountId;
    await sandboxApi(h, 'POST', `/sandbox/accounts/${account}/withdraw-key-api`, undefined, { enabled: true });
    await sandboxApi(h, 'POST', '/sandbox/dict', undefined, { pixKey: CPF, type: 'CPF', holderTaxId: h.sandbox.companies.main.taxId });
    const { answer: ask } = await run(ADMIN_PT, `withdraw-key ${account} ${CPF}`);
    const confirm = buttonsOf(ask).find((b) => b.action_id === 'withdraw_key_confirm')!;
    const click = await clickButton(h, { userId: ADMIN_PT, actionId: confirm.action_id, value: confirm.value!, channelId: CHANNEL });
    await waitFor('the withdraw key set', () => h.slack.responsesTo(click.responseId)[0]);
    const { answer } = await run(ADMIN_PT, 'audit export');
    expect(messageText(answer)).toContain('está nas suas mensagens diretas com o Pix Ops');
    const [upload] = uploads.sharedIn(`D${ADMIN_PT.slice(1)}`);
    const csv = upload!.bytes!.toString('utf8');
    expect(
      csv.startsWith(
        '\uFEFFhorário (UTC),usuário,papel,ação,alvo,método Pix,caminho Pix,status Pix,solicitante,aprovador,resultado,detalhe\r\n',
      ),
    ).toBe(true);
    expect(csv).toContain(
      `,U0AUDADM2,admin,action:withdraw_key_confirm,account:${account} key:***25,POST,/api/v1/pix-keys/withdraw,200,,,ok,\r\n`,
    );
    expect(csv).not.toContain(CPF);
    // Today's entries only (the last 30 days): none of March's.
    expect(csv).not.toContain('U0SEED101');
  });

  test('export of many entries: several batches, every one in order, the declared length exact', async () => {
    const day = Date.parse('2026-04-10T12:00:00.000Z');
    await seed(
      h,
      Array.from({ length: 2_500 }, (_, i) => ({
        time: new Date(day + i).toISOString(),
        user: `U0BULK${String(i).padStart(4, '0')}`,
        role: 'viewer' as const,
        action: '/pix limits',
        outcome: 'ok' as const,
      })),
    );
    const { answer } = await run(ADMIN, 'audit export 2026-04-10 2026-04-10');
    expect(messageText(answer)).toContain('(2500 entries)');
    const upload = uploads.sharedIn(`D${ADMIN.slice(1)}`).at(-1)!;
    const lines = upload.bytes!.toString('utf8').split('\r\n');
    expect(lines).toHaveLength(2_502); // header, 2,500 entries, and the empty string after the last CRLF
    expect(lines.slice(1, -1).map((l) => l.split(',')[1])).toEqual(
      Array.from({ length: 2_500 }, (_, i) => `U0BULK${String(i).padStart(4, '0')}`),
    );
    expect(upload.length).toBe(upload.bytes!.length);
  });

  test('export: wrong dates get the usage line, an empty period sends nothing', async () => {
    const before = h.slack.callsOf('files.getUploadURLExternal').length;
    for (const [text, problem] of [
      ['audit export 2026-02-30', 'Dates are written YYYY-MM-DD'],
      ['audit export yesterday', 'Dates are written YYYY-MM-DD'],
      ['audit export 2026-03-06 2026-03-05', 'The first date must not be after the second.'],
      ['audit export 2026-03-01 2026-03-02 2026-03-03', ''],
    ]) {
      const { answer } = await run(ADMIN, text!);
      expect(messageText(answer)).toContain(`${problem}`);
      expect(messageText(answer)).toContain('Usage: `/pix audit export [from] [to]`');
    }
    const { answer } = await run(ADMIN, 'audit export 2020-01-01 2020-01-02');
    expect(messageText(answer)).toContain('No audit entries from Jan 1, 2020 to Jan 2, 2020; nothing was sent.');
    expect(h.slack.callsOf('files.getUploadURLExternal').length).toBe(before);
  });

  test('export: Slack refusing the DM or the upload is told, and recorded as failed', async () => {
    h.slack.on('conversations.open', () => ({ ok: false, error: 'cannot_dm_bot' }));
    try {
      const { answer } = await run(ADMIN_NEW, 'audit export 2026-03-05 2026-03-05');
      expect(messageText(answer)).toContain('Could not send the export to your direct messages: Slack answered `cannot_dm_bot`.');
    } finally {
      h.slack.off('conversations.open');
    }
    const [entry] = await h.app.deps.store.audit.page({ since: new Date(Date.now() - 60_000), limit: 1 });
    expect(entry).toMatchObject({ action: '/pix audit export', outcome: 'failed', detail: 'slack cannot_dm_bot' });

    h.slack.on('files.completeUploadExternal', () => ({ ok: false, error: 'not_in_channel' }));
    const { answer } = await run(ADMIN, 'audit export 2026-03-05 2026-03-05');
    expect(messageText(answer)).toContain('Slack answered `not_in_channel`');
  });
});
