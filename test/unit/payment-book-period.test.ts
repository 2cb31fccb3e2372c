import { checkBookPeriod, paymentBookCommand } from '../../commands/payment-book';
import type { Deps } from '../../src/deps';
import { saoPauloToday } from '../../src/domain/sao-paulo-date';
import { type CommandContext, UsageError } from '../../src/entry/table';

describe('the payment booklet period', () => {
  const today = { year: 2026, month: 7, day: 15 };

  test.each([
    ['1', '2026'],
    ['01', '2026'],
    ['12', '2027'],
    ['6', '1999'], // before the subscription: the API says so, in its own words
  ])('month %s year %s is accepted', (month, year) => {
    expect(checkBookPeriod(month, year, today, 'en')).toEqual({ ok: true, month: Number(month), year: Number(year) });
  });

  test.each([
    ['0', '2026', /not a month/],
    ['13', '2026', /not a month/],
    ['1.5', '2026', /not a month/],
    ['-1', '2026', /not a month/],
    ['', '2026', /not a month/],
    ['3', '26', /not a year: write four digits, like 2026/],
    ['3', '02026', /not a year/],
    ['3', '2O26', /not a year/],
    ['1', '2028', /up to 12\/2027 \(the end of next year\); 01\/2028 is later/],
  ])('month %s year %s is refused', (month, year, pattern) => {
    const result = checkBookPeriod(month, year, today, 'en');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toMatch(pattern);
  });

  test('"today" is the date in São Paulo, not in UTC', () => {
    // 31 Dec 2026, 23:30 in São Paulo (UTC-3) is already 1 Jan 2027 in UTC.
    const at = new Date('2027-01-01T02:30:00Z');
    expect(saoPauloToday(at)).toEqual({ year: 2026, month: 12, day: 31 });
    expect(saoPauloToday(new Date('2027-01-01T03:00:00Z'))).toEqual({ year: 2027, month: 1, day: 1 });
  });

  describe('the command with an injected clock', () => {
    const run = async (now: string, args: string[]) => {
      const calls: unknown[] = [];
      const deps = {
        mainAppId: 'app',
        sandboxMode: false,
        logger: { info: () => undefined, warn: () => undefined },
        pix: {
          getPaymentBook: async (...a: unknown[]) => {
            calls.push(a);
            return Buffer.from('not a pdf');
          },
        },
      } as unknown as Deps;
      const ctx = {
        deps,
        args,
        userId: 'U1',
        channelId: 'C1',
        triggerId: 't',
        responseUrl: '',
        role: 'operator',
        locale: 'en',
        present: (m) => m,
        reply: async () => undefined,
      } as CommandContext;
      const outcome = await paymentBookCommand({ now: () => new Date(now) })
        .handler(ctx)
        .catch((err: unknown) => err);
      return { outcome, calls };
    };

    test('on New Year’s Eve in São Paulo (already New Year in UTC), 2028 is still beyond the horizon', async () => {
      const { outcome, calls } = await run('2027-01-01T02:30:00Z', ['sub1', '1', '2028']);
      expect(outcome).toBeInstanceOf(UsageError);
      expect((outcome as Error).message).toContain('up to 12/2027');
      expect(calls).toEqual([]);
    });

    test('half an hour later it is allowed, and the call is made with numbers', async () => {
      const { outcome, calls } = await run('2027-01-01T03:00:00Z', ['sub1', '01', '2028']);
      expect(calls).toEqual([['app', 'sub1', { month: 1, year: 2028 }]]);
      expect(JSON.stringify(outcome)).toContain('not a PDF');
    });

    test('a subscription id with path syntax is refused before the call', async () => {
      const { outcome, calls } = await run('2026-05-01T12:00:00Z', ['../x', '1', '2026']);
      expect(outcome).toBeInstanceOf(UsageError);
      expect(calls).toEqual([]);
    });
  });
});
