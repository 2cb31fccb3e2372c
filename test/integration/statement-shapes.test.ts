import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Harness, messageText, startHarness } from '../support/harness';
import { waitFor } from '../support/wait';

/**
 * The statement and transaction shapes are not documented: a small HTTP server in place of the
 * Pix API answers whatever a test sets, and the bot must show it sensibly and never crash.
 */
class ScriptedPixApi {
  /** The next answer's raw body and status. */
  answer: { status: number; body: string; contentType?: string } = { status: 200, body: '[]' };
  readonly requests: Array<{ method: string; url: string; authorization?: string }> = [];
  url = '';
  private server?: http.Server;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      this.requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
      req.resume();
      req.on('end', () =>
        res.writeHead(this.answer.status, { 'content-type': this.answer.contentType ?? 'application/json' }).end(this.answer.body),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  json(body: unknown, status = 200): void {
    this.answer = { status, body: JSON.stringify(body) };
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const VIEWER = 'U0SHAPEVW';
const APP_ID = 'scripted-app-id-0001';

describe('statements and transactions of unknown shapes (a scripted Pix API)', () => {
  let h: Harness;
  let pix: ScriptedPixApi;

  beforeAll(async () => {
    pix = await new ScriptedPixApi().start();
    h = await startHarness({ ACCESS_VIEWERS: VIEWER, PIX_API_URL: pix.url, PIX_APP_ID: APP_ID });
  });
  afterAll(async () => {
    await h.close();
    await pix.close();
  });

  const ask = async (text: string) => {
    const res = await h.slash(VIEWER, text);
    const answer = await waitFor(`the answer to ${text}`, () => h.slack.responsesTo(res.responseId)[0], 10_000);
    return { body: answer.body, text: messageText(answer.body) };
  };

  const entry = (i: number) => ({
    id: `e${i}`,
    createdAt: '2026-03-05T17:30:00.000Z',
    amount: 150 + i,
    kind: 'PIX_IN',
    description: `Entry ${i}`,
  });

  test.each([
    [
      '{ items }',
      { items: [entry(1), entry(2)], total: 2 },
      ['Entry 1', '*R$1.51*', '*R$1.52*', 'Mar 5, 2026, 2:30 PM', 'total: 2', 'entries 1–2 of 2'],
    ],
    ['{ statement: [...] }', { statement: [entry(1)] }, ['Entry 1', '*R$1.51*', 'entries 1–1 of 1']],
    ['nested { data: { entries } }', { data: { entries: [entry(7)], page: { skip: 0 } } }, ['Entry 7', '*R$1.57*', '`data.entries`']],
    ['a bare array of strings', ['first line', 'second line'], ['first line', 'second line']],
    [
      'entries with nested objects and odd values',
      [{ value: 12.5, payer: { name: 'Ana', taxId: '123' }, tags: ['a', 'b'], ok: true, when: null }],
      ['12.5', 'payer: name: Ana, taxId: 123', 'tags: a, b', 'ok: yes'],
    ],
    [
      'an object with no list',
      { balance: { total: 123456, blocked: 0, available: 123456 }, count: 7, updatedAt: '2026-01-02T03:04:05Z' },
      ['without a list of entries', 'balance.total*\nR$1,234.56', 'balance.blocked*\nR$0.00', 'count*\n7', 'Jan 2, 2026'],
    ],
    ['a string', 'all good', ['The service answered: all good']],
    ['null', null, ['empty answer']],
    ['an empty list', [], ['No entries']],
  ])('%s', async (_, body, expected) => {
    pix.json(body);
    const { text } = await ask('statement');
    for (const piece of expected) expect(text).toContain(piece);
    expect(text).not.toContain('Something went wrong');
  });

  test('a long list of unknown entries is paged, 15 a page', async () => {
    pix.json({ results: Array.from({ length: 20 }, (_, i) => entry(i)) });
    const { body, text } = await ask('statement');
    expect(text).toContain('entries 1–15 of 20 · page 1 of 2');
    expect(messageText((body as { blocks: Array<{ type: string }> }).blocks.filter((b) => b.type === 'actions'))).toContain('Next');
  });

  test('an entry with HTML-ish text is escaped, never read as Slack markup', async () => {
    pix.json([{ description: '<!channel> & <@U123>' }]);
    const { text } = await ask('statement');
    expect(text).toContain('&lt;!channel&gt; &amp; &lt;@U123&gt;');
    expect(text).not.toContain('<!channel>');
  });

  test('a text body that is not JSON', async () => {
    pix.answer = { status: 200, body: 'plain words', contentType: 'text/plain' };
    const { text } = await ask('statement');
    expect(text).toContain('plain words');
  });

  test('transactions: wrapped, bare, nested, and not an object', async () => {
    pix.json({ transaction: { id: 'tx1', amount: 99990, status: 'CONFIRMED', payer: { name: 'Ana' }, paidAt: '2026-03-05T17:30:00Z' } });
    let { text } = await ask('transaction tx1');
    for (const piece of ['*R$999.90*', '*amount*\nR$999.90', 'CONFIRMED', 'payer.name', 'Ana', 'Mar 5, 2026, 2:30 PM'])
      expect(text).toContain(piece);
    expect(pix.requests.at(-1)).toMatchObject({ method: 'GET', url: '/api/v1/transaction/tx1', authorization: APP_ID });

    pix.json({ value: 100, type: 'DEBIT' });
    ({ text } = await ask('transaction tx2'));
    expect(text).toContain(':arrow_up_small: *R$1.00*');

    pix.json([1, 2, 3]);
    ({ text } = await ask('transaction tx3'));
    expect(text).toContain('a list');

    pix.json('nothing here');
    ({ text } = await ask('transaction tx4'));
    expect(text).toContain('The service answered: nothing here');
  });

  test('with an account: companyBankAccount on the wire, with the main AppID when no MASTER AppID is set', async () => {
    pix.json([]);
    await ask('statement aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(pix.requests.at(-1)).toMatchObject({
      url: '/api/v1/statement?companyBankAccount=aaaaaaaaaaaaaaaaaaaaaaaa',
      authorization: APP_ID,
    });
    pix.json({ error: 'Application is not allowed to read another account' }, 403);
    const { text } = await ask('statement aaaaaaaaaaaaaaaaaaaaaaaa');
    expect(text).toContain('Application is not allowed to read another account');
    expect(text).toContain('set `PIX_MASTER_APP_ID`');
  });
});
