import { entryText, findEntries, formatValue, statementMessage, transactionMessage } from '../../views/statement';

const textOf = (m: { text: string; blocks: unknown[] }) => JSON.stringify(m);

describe('statement views of unknown shapes', () => {
  test('finds the entries: bare array, known names, any array of objects, one level nested', () => {
    expect(findEntries([1])?.entries).toEqual([1]);
    expect(findEntries({ statement: [1], total: 1 })).toEqual({ entries: [1], path: 'statement', rest: { total: 1 } });
    expect(findEntries({ movements: [{ a: 1 }] })?.path).toBe('movements');
    expect(findEntries({ data: { items: [{ a: 1 }] }, meta: 2 })).toEqual({ entries: [{ a: 1 }], path: 'data.items', rest: { meta: 2 } });
    expect(findEntries({ a: 1 })).toBeUndefined();
    expect(findEntries('text')).toBeUndefined();
    expect(findEntries(null)).toBeUndefined();
  });

  test('amounts are cents, shown in R$ in the reader’s language; a value that is not a whole number as sent; other numbers as sent', () => {
    expect(formatValue('pt-BR', 'value', 123456)).toBe('R$ 1.234,56');
    expect(formatValue('en', 'value', 123456)).toBe('R$1,234.56');
    expect(formatValue('en', 'amount', -5)).toBe('-R$0.05');
    expect(formatValue('pt-BR', 'balance', 1500.5)).toBe('1500.5');
    expect(formatValue('pt-BR', 'value', 12.5)).toBe('12.5');
    expect(formatValue('pt-BR', 'totalAmount', -5)).toBe('-5');
    expect(formatValue('pt-BR', 'total', 3)).toBe('3');
    expect(formatValue('pt-BR', 'balance', { total: 100, blocked: 0, available: 100 })).toBe(
      'total: R$ 1,00, blocked: R$ 0,00, available: R$ 1,00',
    );
    expect(formatValue('pt-BR', 'id', 123456)).toBe('123456');
  });

  test('dates in Brasília time; bare dates as written; other strings escaped', () => {
    expect(formatValue('pt-BR', 'time', '2026-03-05T17:30:00.000Z')).toBe('05/03/2026, 14:30');
    expect(formatValue('en', 'time', '2026-03-05T17:30:00.000Z')).toBe('Mar 5, 2026, 2:30 PM');
    expect(formatValue('pt-BR', 'day', '2026-03-05')).toBe('05/03/2026');
    expect(formatValue('en', 'day', '2026-03-05')).toBe('Mar 5, 2026');
    expect(formatValue('en', 'note', '<b>&')).toBe('&lt;b&gt;&amp;');
    expect(formatValue('en', 'x', true)).toBe('yes');
    expect(formatValue('pt-BR', 'x', true)).toBe('sim');
    expect(formatValue('en', 'x', null)).toBe('—');
    expect(formatValue('en', 'x', [])).toBe('none');
  });

  test('an entry: its amount in R$ (the arrow from its type), its balance likewise, the rest of its fields', () => {
    const entry = {
      id: 'e1',
      time: '2026-03-05T17:30:00Z',
      description: 'Pix sent',
      value: 200000,
      type: 'DEBIT',
      balance: 1500000,
      transactionId: 't1',
      extra: 'x',
    };
    expect(entryText('en', entry)).toBe(
      '*Mar 5, 2026, 2:30 PM* · Pix sent · :arrow_up_small: *R$2,000.00* · DEBIT · balance R$15,000.00\n`e1` · transactionId `t1` · extra: x',
    );
    expect(entryText('pt-BR', entry)).toBe(
      '*05/03/2026, 14:30* · Pix sent · :arrow_up_small: *R$ 2.000,00* · DEBIT · saldo R$ 15.000,00\n`e1` · transactionId `t1` · extra: x',
    );
    expect(entryText('en', { amount: 151, kind: 'PIX_IN' })).toBe('*R$1.51*\nkind: PIX_IN');
    expect(entryText('en', { value: 1500.5, balance: 1500.5 })).toBe('*1500.5* · balance 1500.5');
    expect(entryText('en', {})).toContain('no date, description or amount');
    expect(entryText('en', 42)).toBe('42');
  });

  test('never throws and stays inside Slack’s limits, whatever comes', () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 50; i++) {
      const next: Record<string, unknown> = {};
      cursor.next = next;
      cursor = next;
    }
    const weird = [
      undefined,
      '',
      0,
      Number.NaN,
      { statement: 'not a list' },
      Array.from({ length: 1000 }, (_, i) => ({ description: 'x'.repeat(5000), value: i })),
      { items: [deep, [1, [2, [3]]], 'str', null] },
      Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])),
    ];
    for (const body of weird) {
      for (const page of [1, 2, 999, -1]) {
        const m = statementMessage('en', { body, page });
        expect(m.blocks.length).toBeLessThanOrEqual(50);
        for (const b of m.blocks as Array<{ text?: { text: string } }>) expect((b.text?.text ?? '').length).toBeLessThanOrEqual(3000);
      }
      const t = transactionMessage('en', { transactionId: 't', body });
      expect(t.blocks.length).toBeLessThanOrEqual(50);
      expect(textOf(t)).toContain('Transaction');
    }
  });

  test('a page beyond the end shows the last page', () => {
    const body = Array.from({ length: 20 }, (_, i) => ({ description: `E${i}` }));
    expect(textOf(statementMessage('en', { body, page: 9 }))).toContain('entries 16–20 of 20 · page 2 of 2');
    expect(textOf(statementMessage('pt-BR', { body, page: 9 }))).toContain('lançamentos 16–20 de 20 · página 2 de 2');
  });
});
