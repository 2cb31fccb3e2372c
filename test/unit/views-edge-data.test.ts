import { type FormMeta, FormMetaSchema, formMetaText } from '../../src/domain/limit-form';
import type { Locale } from '../../src/i18n';
import { PixApiError } from '../../src/pix/errors';
import type { Account, LimitRequest, Limits, PixKey } from '../../src/pix/schemas';
import { checkMessage, checkView, problemText } from '../../src/slack-standin/block-kit-rules';
import type { TrackedRequest } from '../../src/store/tracked-requests';
import {
  ACCOUNTS_PAGE_SIZE,
  type AccountRow,
  accountAnnouncements,
  accountMessage,
  accountsMessage,
  createAccountModal,
  infoModal,
  linkModal,
  progressBlocks,
  secretBlocks,
} from '../../views/accounts';
import { applicationAnnouncements, rotatedMessage, scopesMessage } from '../../views/applications';
import { evidenceFeatureText, evidenceModal, evidenceProgressModal, evidenceSentMessage } from '../../views/dispute-evidence';
import { apiText, failureText, pixErrorMessage } from '../../views/errors';
import { helpMessage, refusalMessage, unknownCommandMessage, usageMessage } from '../../views/help';
import { accessHomeView, type HomeData, homeView, keysModal } from '../../views/home';
import { limitListMessage } from '../../views/limit-list';
import { decisionReplyMessage, limitRequestRootMessage } from '../../views/limit-request';
import { accountOptions, formModal, loadingModal, progressModal } from '../../views/limit-request-modal';
import { limitStatusMessage, watchMessages } from '../../views/limit-status';
import { limitsMessage } from '../../views/limits-message';
import { plain, presentMessage, type SlackMessage } from '../../views/message';
import { messageModal } from '../../views/modal';
import { bookletMessages, bookletPostedMessage } from '../../views/payment-book';
import {
  deleteConfirmMessage,
  KEYS_PAGE_SIZE,
  keyAddModal,
  keyAnnouncements,
  pixKeysMessage,
  withdrawKeyResultMessage,
} from '../../views/pix-keys';
import { statementMessage, transactionMessage } from '../../views/statement';

// Every view builder fed the largest data the Pix API and Slack allow, in both languages: every
// surface must stay within Slack's limits (block-kit-rules.ts), with long texts cut with an ellipsis,
// long lists split into sections or pages.

const LOCALES: Locale[] = ['pt-BR', 'en'];
/** The largest amount the app handles: integer cents up to Number.MAX_SAFE_INTEGER (src/domain/money.ts). */
const MAX_CENTS = Number.MAX_SAFE_INTEGER;
/** Names at their longest, with characters that mrkdwn escaping makes longer. */
const longName = (n: number, seed = 'a') => `${seed}&<>`.repeat(Math.ceil(n / 4)).slice(0, n);
const hexId = (i: number) => i.toString(16).padStart(24, '0');
const ERROR_TEXT = `Limit request refused: ${'the analyst needs more proof & details <see policy> '.repeat(100)}`.slice(0, 5000);
const DESCRIPTION = longName(2000, 'd');
const FILE_NAMES = Array.from({ length: 10 }, (_, i) => `${longName(251, `f${i}`)}.pdf`);
const LIMIT_FIELDS = [
  'pixDayLimit',
  'pixNightLimit',
  ...['Out', 'In'].flatMap((dir) =>
    ['SameHolder', 'DifferentHolder'].flatMap((who) => ['Day', 'Night'].map((when) => `pix${dir}${who}${when}Limit`)),
  ),
];
const limitsAt = (cents: number) => Object.fromEntries(LIMIT_FIELDS.map((f) => [f, cents]));
const LIMITS: Limits = {
  pixDayLimit: MAX_CENTS,
  pixNightLimit: MAX_CENTS,
  ...limitsAt(MAX_CENTS),
  dayStartAt: '06:00',
  nightStartAt: '20:00',
  boletoEmissionLimit: 200,
  boletoMaximumValueLimit: MAX_CENTS,
};
const NOW = new Date('2026-03-05T17:30:00Z');

const accounts: Account[] = Array.from({ length: 150 }, (_, i) => ({
  accountId: hexId(i + 1),
  isDefault: i === 0,
  taxId: '12345678000199',
  balance: { total: MAX_CENTS, available: MAX_CENTS, blocked: MAX_CENTS },
  pixKeyWithdraw: { pixKey: `${'w'.repeat(64)}@example.com`, type: 'EMAIL' },
  withdrawBlocked: true,
}));
const rows: AccountRow[] = accounts.map((account, i) => ({
  account,
  app: i === 0 ? { kind: 'main' } : { kind: 'stored', name: longName(200), clientId: `client_${'c'.repeat(60)}` },
}));
const keys: PixKey[] = Array.from({ length: 100 }, (_, i) => ({
  key: `${'k'.repeat(60)}${String(i).padStart(3, '0')}@example.com`,
  type: 'EMAIL',
}));
const limitRequests: LimitRequest[] = Array.from({ length: 100 }, (_, i) => ({
  id: hexId(1000 + i),
  companyBankAccountId: hexId(1),
  status: ['IN_REVIEW', 'APPROVED', 'REJECTED'][i % 3]!,
  requestedLimits: { ...limitsAt(MAX_CENTS), dayStartAt: '06:00' },
  ...(i % 3 === 1 ? { approvedLimits: limitsAt(MAX_CENTS - 1) } : {}),
  documents: FILE_NAMES.map((fileName) => ({ fileName, contentType: 'application/pdf' })),
  description: DESCRIPTION,
  createdAt: '2026-03-01T12:00:00Z',
  updatedAt: '2026-03-02T12:00:00Z',
}));
const tracked = (i: number): TrackedRequest => ({
  limitRequestId: hexId(2000 + i),
  accountId: hexId(1),
  requesterId: 'U0OPERATOR',
  channel: 'C0FINANCE',
  rootTs: '1700000000.000100',
  current: limitsAt(MAX_CENTS - 1),
  requested: limitsAt(MAX_CENTS),
  documents: FILE_NAMES.map((fileName) => ({ fileName, contentType: 'application/pdf' })),
  source: 'filed',
  createdAt: '2026-03-01T12:00:00Z',
  closed: false,
});
const apiError = new PixApiError('http', 400, ERROR_TEXT, undefined, { error: ERROR_TEXT }, 'createLimitRequest');
const attached = FILE_NAMES.map((name, i) => ({ id: `F0${String(i).padStart(9, '0')}`, name: name.slice(0, 100) }));
const meta: FormMeta = { channelId: 'C0FINANCE', accountId: hexId(150), current: limitsAt(MAX_CENTS), attached };
const statementEntries = Array.from({ length: 100 }, (_, i) => ({
  id: hexId(3000 + i),
  time: '2026-03-01T12:00:00Z',
  description: DESCRIPTION,
  value: MAX_CENTS,
  balance: MAX_CENTS,
  type: i % 2 ? 'CREDIT' : 'DEBIT',
  transactionId: hexId(4000 + i),
  [`extra_${'x'.repeat(200)}`]: longName(2000),
}));

/** Every surface the builders make from the edge data, by name. */
function surfaces(locale: Locale): Array<{ name: string; message?: SlackMessage; view?: unknown }> {
  const out: Array<{ name: string; message?: SlackMessage; view?: unknown }> = [];
  const msg = (name: string, message: SlackMessage) => out.push({ name, message: presentMessage(message, locale, true) });
  const view = (name: string, v: unknown) => out.push({ name, view: v });
  const pages = Math.ceil(rows.length / ACCOUNTS_PAGE_SIZE);
  for (let page = 1; page <= pages; page++) msg(`accounts page ${page}`, accountsMessage(locale, rows, page));
  msg('account', accountMessage(locale, rows[1]!));
  const announcements = accountAnnouncements(locale);
  const who = { userId: 'U0ADMIN', accountId: hexId(2), name: longName(200), clientId: 'c'.repeat(200), stored: false };
  msg('created announcement', announcements.created(who));
  msg('retried announcement', announcements.appRetried(who));
  msg(
    'app failed announcement',
    announcements.appFailed({
      ...who,
      problem: failureText(locale, apiError, 'createApplication', { write: true }),
      retryValue: { accountId: hexId(2), name: 'x'.repeat(80), channelId: 'C0FINANCE', failureTs: '1700000000.000100' },
    }),
  );
  msg(
    'resolved announcement',
    announcements.appFailedResolved({ accountId: hexId(2), name: longName(200), byUserId: 'U0ADMIN', clientId: 'c'.repeat(200) }),
  );
  msg('linked announcement', announcements.linked({ userId: 'U0ADMIN', accountId: hexId(2) }));
  view('create account', createAccountModal(locale, { meta: { channelId: 'C0FINANCE' }, sandbox: true }));
  view(
    'link',
    linkModal(locale, {
      meta: { channelId: 'C0FINANCE', accountId: hexId(2) },
      sandbox: true,
      problem: failureText(locale, apiError, 'checkAppId'),
    }),
  );
  view('progress', infoModal(locale, longName(200), progressBlocks(locale, failureText(locale, apiError, 'createAccount')), true));
  view(
    'secret',
    infoModal(
      locale,
      'x',
      secretBlocks(locale, {
        accountId: hexId(2),
        clientId: 'c'.repeat(200),
        clientSecret: 's'.repeat(200),
        unstoredAppId: 'a'.repeat(500),
      }),
      true,
    ),
  );
  msg('scopes', scopesMessage(locale, { scopes: Array.from({ length: 300 }, (_, i) => `SCOPE_${'S'.repeat(40)}_${i}`) }));
  msg(
    'scope groups',
    scopesMessage(
      locale,
      Array.from({ length: 100 }, (_, i) => ({ group: longName(200), scopes: Array.from({ length: 30 }, (_, j) => `SCOPE_${i}_${j}`) })),
    ),
  );
  msg('rotated', rotatedMessage(locale, { clientId: 'c'.repeat(200), clientSecret: 's'.repeat(200), shownAppId: 'a'.repeat(500) }));
  msg('rotated announcement', applicationAnnouncements(locale).rotated({ userId: 'U0ADMIN', clientId: 'c'.repeat(200) }));
  view('evidence', evidenceModal(locale, { channelId: 'C0FINANCE', disputeId: hexId(5) }, true));
  view('evidence progress', evidenceProgressModal(locale, `${FILE_NAMES[9]}`, 9, 10));
  msg(
    'evidence sent',
    evidenceSentMessage(locale, {
      disputeId: hexId(5),
      userId: 'U0OPERATOR',
      fileNames: FILE_NAMES,
      fileIds: attached.map((a) => a.id),
      note: longName(2000),
    }),
  );
  msg('evidence off', plain(evidenceFeatureText(locale, ERROR_TEXT)));
  msg('pix error', pixErrorMessage(locale, apiError, 'fileTheLimitRequest', { write: true }));
  msg('pix error 404', pixErrorMessage(locale, new PixApiError('http', 404, ERROR_TEXT, undefined, {}, 'x'), 'readAccount'));
  msg(
    'pix error scope',
    pixErrorMessage(
      locale,
      new PixApiError('http', 403, `does not have required scope: LIMIT_READ ${ERROR_TEXT}`, undefined, {}, 'x'),
      'readAccount',
    ),
  );
  msg(
    'help',
    helpMessage(locale, {
      userId: 'U0VIEWER',
      role: 'admin',
      accessConfigured: true,
      entries: Array.from({ length: 25 }, (_, i) => ({ usage: `command ${i} <accountId> [page]`, summary: longName(100) })),
    }),
  );
  msg('help without role', helpMessage(locale, { userId: 'U0NOBODY', role: undefined, accessConfigured: false, entries: [] }));
  msg('usage', usageMessage(locale, 'limit status <limitRequestId>', longName(1000)));
  msg(
    'unknown command',
    unknownCommandMessage(
      locale,
      longName(3900),
      Array.from({ length: 25 }, (_, i) => ({ usage: `command ${i} <accountId>`, summary: '' })),
    ),
  );
  msg('refusal', refusalMessage(locale, { userId: 'U0VIEWER', needed: 'admin', what: 'x' }));
  const data: HomeData = {
    now: NOW,
    inReview: { ok: true, value: { items: Array.from({ length: 10 }, (_, i) => tracked(i)), total: 100 } },
    decisions: { ok: true, value: limitRequests.slice(0, 5).map((request, i) => ({ request, tracked: tracked(i) })) },
    accounts: { ok: true, value: accounts },
    link: (channel, ts) => `https://fake.slack.test/archives/${channel}/p${ts.replace('.', '')}`,
  };
  view('home', homeView(locale, { userId: 'U0ADMIN', role: 'admin', data, sandbox: true }));
  view(
    'home failed',
    homeView(locale, {
      userId: 'U0ADMIN',
      role: 'admin',
      sandbox: true,
      data: {
        ...data,
        inReview: { ok: false, action: 'readLatestRequests', error: apiError },
        decisions: { ok: false, action: 'readLatestRequests', error: apiError },
        accounts: { ok: false, action: 'readAccounts', error: apiError },
      },
    }),
  );
  view('home without role', accessHomeView(locale, { userId: 'U0NOBODY', accessConfigured: true, sandbox: true }));
  view('keys modal', keysModal(locale, { accountId: hexId(2), keys, sandbox: true }));
  view(
    'keys modal failed',
    keysModal(locale, { accountId: hexId(2), problem: failureText(locale, apiError, 'readPixKeys'), sandbox: true }),
  );
  for (let page = 1; page <= 10; page++)
    msg(
      `limit list page ${page}`,
      limitListMessage(locale, { page, pageSize: 10, items: limitRequests.slice((page - 1) * 10, page * 10), total: 100 }),
    );
  view('limit form loading', loadingModal(locale, meta));
  view(
    'limit form, 150 accounts',
    formModal(locale, {
      meta,
      accounts,
      accountId: hexId(150),
      limits: LIMITS,
      description: DESCRIPTION.slice(0, 2000),
      reason: 'r'.repeat(500),
      sandbox: true,
    }),
  );
  view(
    'limit form, 100 accounts',
    formModal(locale, { meta, accounts: accounts.slice(0, 100), accountId: hexId(50), limits: LIMITS, sandbox: true }),
  );
  view(
    'limit form, 100 accounts and another',
    formModal(locale, { meta, accounts: accounts.slice(0, 100), accountId: hexId(150), limits: LIMITS, sandbox: true }),
  );
  view('limit form progress', progressModal(locale, `${FILE_NAMES[9]}`, 9, 10));
  view(
    'limit form failed',
    messageModal(
      locale,
      'x'.repeat(200),
      plain(`${failureText(locale, apiError, 'fileTheLimitRequest', { write: true, afterwards: 'none' })}\n${'n'.repeat(200)}`),
    ),
  );
  for (const [i, status] of (['IN_REVIEW', 'APPROVED', 'REJECTED', 'S'.repeat(500)] as const).entries()) {
    msg(`root ${status.slice(0, 10)}`, limitRequestRootMessage(locale, tracked(i), status, limitsAt(MAX_CENTS - 1)));
  }
  msg('decision approved', decisionReplyMessage(locale, tracked(1), 'APPROVED', limitsAt(1)));
  msg('decision rejected', decisionReplyMessage(locale, tracked(2), 'REJECTED'));
  for (const [i, request] of limitRequests.slice(0, 3).entries()) {
    msg(
      `limit status ${i}`,
      limitStatusMessage(locale, {
        request: { ...request, requestedLimits: { ...request.requestedLimits, [`odd_${'o'.repeat(300)}`]: 'v'.repeat(3000) } },
      }),
    );
    msg(`limit status followed ${i}`, limitStatusMessage(locale, { request, thread: { channel: 'C0FINANCE', closed: i === 2 } }));
  }
  const watch = watchMessages(locale);
  msg('watch failed', watch.postFailed('e'.repeat(500)));
  msg(
    'limits',
    limitsMessage(locale, { accountId: hexId(1), isDefault: true, limits: { ...LIMITS, [`other_${'o'.repeat(300)}`]: 'v'.repeat(3000) } }),
  );
  msg(
    'booklet posted',
    bookletPostedMessage(locale, {
      subscriptionId: hexId(6),
      month: 12,
      year: 2027,
      fileName: `${hexId(6)}-2027-12.pdf`,
      bytes: 10 * 1024 * 1024,
    }),
  );
  msg(
    'booklet failed',
    bookletMessages(locale).noAnswer({ subscriptionId: hexId(6), month: 12, year: 2027 }, `HTTP 503: “${apiText(ERROR_TEXT)}”`),
  );
  const keyPages = Math.ceil(keys.length / KEYS_PAGE_SIZE);
  for (let page = 1; page <= keyPages; page++) {
    msg(`keys page ${page}`, pixKeysMessage(locale, { accountId: hexId(2), keys, account: accounts[1], campaign: longName(200), page }));
  }
  view('key add', keyAddModal(locale, { meta: { channelId: 'C0FINANCE', accountId: hexId(2) }, sandbox: true }));
  msg('key delete', deleteConfirmMessage(locale, { accountId: hexId(2), pixKey: 'k'.repeat(100) }));
  msg(
    'withdraw key',
    withdrawKeyResultMessage(locale, { account: accounts[1]!, accountId: hexId(2), pixKey: 'k'.repeat(100), via: ['POST', 'PUT'] }),
  );
  const keyAnnounced = keyAnnouncements(locale);
  msg('key added', keyAnnounced.added({ userId: 'U0OPERATOR', accountId: hexId(2), key: keys[0]! }));
  msg('key deleted', keyAnnounced.deleted({ userId: 'U0ADMIN', accountId: hexId(2), pixKey: 'k'.repeat(100) }));
  msg(
    'withdraw announcement',
    keyAnnounced.withdrawKey({ userId: 'U0ADMIN', accountId: hexId(2), account: accounts[1]!, pixKey: 'k'.repeat(100) }),
  );
  for (let page = 1; page <= 7; page++)
    msg(
      `statement page ${page}`,
      statementMessage(locale, {
        body: { statement: statementEntries, [`note_${'n'.repeat(300)}`]: 'v'.repeat(5000) },
        page,
        accountId: hexId(2),
      }),
    );
  msg(
    'transaction',
    transactionMessage(locale, {
      transactionId: hexId(7),
      accountId: hexId(2),
      body: { transaction: { ...statementEntries[0], payer: { name: longName(200), taxId: '12345678901' } } },
    }),
  );
  return out;
}

describe.each(LOCALES)('every view builder with the largest data (%s)', (locale) => {
  const built = surfaces(locale);

  test.each(built.map((s) => [s.name, s] as const))('%s: Slack accepts it', (_name, surface) => {
    const problems = surface.view !== undefined ? checkView(surface.view) : checkMessage(surface.message);
    expect(problems.map(problemText)).toEqual([]);
  });

  test('/pix accounts pages through all 150 accounts, each once, with Previous and Next', () => {
    const ids = built
      .filter((s) => s.name.startsWith('accounts page'))
      .flatMap((s) => JSON.stringify(s.message).match(/0{20}[0-9a-f]{4}/g) ?? []);
    expect(new Set(ids).size).toBe(150);
    const first = built.find((s) => s.name === 'accounts page 1')!.message!;
    const nav = first.blocks.find((b) => b.type === 'actions') as { elements: Array<{ action_id: string; value: string }> };
    expect(nav.elements.map((e) => [e.action_id, e.value])).toEqual([['accounts_next', '2']]);
  });

  test('/pix keys pages through all 100 keys, each with its Delete button', () => {
    const deletes = built
      .filter((s) => s.name.startsWith('keys page'))
      .flatMap((s) =>
        s.message!.blocks.flatMap((b) =>
          'accessory' in b && b.accessory?.type === 'button' ? [JSON.parse((b.accessory as { value: string }).value).pixKey as string] : [],
        ),
      );
    expect(deletes).toEqual(keys.map((k) => k.key));
  });

  test('the limit form searches 150 accounts (an external select, the chosen account preselected); 100 fit a static select', () => {
    const element = (name: string) =>
      (built.find((s) => s.name === name)!.view as { blocks: Array<{ block_id?: string; element?: Record<string, unknown> }> }).blocks.find(
        (b) => b.block_id === 'companyBankAccountId',
      )!.element!;
    expect(element('limit form, 150 accounts')).toMatchObject({
      type: 'external_select',
      action_id: 'limit_request_account',
      initial_option: { value: hexId(150) },
      min_query_length: 0,
    });
    expect(element('limit form, 100 accounts')).toMatchObject({ type: 'static_select', initial_option: { value: hexId(50) } });
    expect((element('limit form, 100 accounts').options as unknown[]).length).toBe(100);
    // An account named that is not among the 100 listed would make 101 options: a search then.
    expect(element('limit form, 100 accounts and another')).toMatchObject({
      type: 'external_select',
      initial_option: { value: hexId(150) },
    });
    expect(accountOptions(locale, accounts, '')).toHaveLength(100);
    expect(accountOptions(locale, accounts, hexId(150).slice(-3)).map((o) => o.value)).toEqual([hexId(150)]);
  });

  test('long lists are split over sections, nothing dropped: 300 scopes, 100 keys in the Home tab’s modal', () => {
    const text = (name: string) => JSON.stringify(built.find((s) => s.name === name)!.message ?? built.find((s) => s.name === name)!.view);
    for (const name of ['scopes', 'scope groups']) {
      const blocks = built.find((s) => s.name === name)!.message!.blocks;
      expect(blocks.length).toBeGreaterThan(3);
    }
    for (let i = 0; i < 300; i++) expect(text('scopes')).toContain(`_${i}\``);
    for (const key of keys) expect(text('keys modal')).toContain(key.key);
  });

  test('long texts are cut with an ellipsis, not dropped', () => {
    const text = (name: string) => JSON.stringify(built.find((s) => s.name === name)!.message);
    expect(text('pix error')).toContain('Limit request refused: the analyst needs more proof &amp; details &lt;see policy&gt;');
    expect(text('pix error')).toContain('…”');
    expect(text('evidence sent')).toContain('…');
  });
});

describe('private_metadata of the limit form', () => {
  test('10 documents with 255-character names: within Slack’s 3,000 characters, ids whole, names shortened only as needed', () => {
    const text = formMetaText(meta);
    expect(text.length).toBeLessThanOrEqual(3000);
    const read = FormMetaSchema.parse(JSON.parse(text));
    expect(read.attached.map((a) => a.id)).toEqual(attached.map((a) => a.id));
    expect(read.current).toEqual(meta.current);
  });

  test('20 attached files with 100-character names that JSON escapes: still within 3,000', () => {
    const crowded: FormMeta = {
      ...meta,
      attached: Array.from({ length: 20 }, (_, i) => ({ id: `F0${String(i).padStart(9, '0')}`, name: '"\\'.repeat(50) })),
    };
    const text = formMetaText(crowded);
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(FormMetaSchema.parse(JSON.parse(text)).attached).toHaveLength(20);
  });

  test('a small form keeps the names whole', () => {
    const small: FormMeta = { ...meta, attached: attached.slice(0, 2) };
    expect(JSON.parse(formMetaText(small))).toEqual(small);
  });
});
