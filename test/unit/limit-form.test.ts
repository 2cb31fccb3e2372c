import { type FormMeta, readLimitForm } from '../../src/domain/limit-form';

const meta: FormMeta = {
  channelId: 'C1',
  accountId: 'acc1',
  current: { pixDayLimit: 500000, pixNightLimit: 100000, pixOutSameHolderDayLimit: 300000 },
  attached: [],
};

const state = (amounts: Record<string, string | null>, files: Array<{ id: string }> = [{ id: 'F1' }]) => ({
  companyBankAccountId: { limit_request_account: { type: 'static_select', selected_option: { value: 'acc1' } } },
  ...Object.fromEntries(Object.entries(amounts).map(([k, v]) => [k, { amount_acc1: { type: 'plain_text_input', value: v } }])),
  documents: { files: { type: 'file_input', files } },
  description: { text: { type: 'plain_text_input', value: '  more sales in December ' } },
  limitRequestReason: { text: { type: 'plain_text_input', value: null } },
});

describe('readLimitForm', () => {
  test('day and night always sent; an ownership field only when changed; text trimmed', () => {
    const r = readLimitForm('en', state({ pixDayLimit: '6.000,00', pixNightLimit: '1000,00', pixOutSameHolderDayLimit: '3000' }), meta);
    expect(r).toEqual({
      ok: true,
      form: {
        accountId: 'acc1',
        limits: { pixDayLimit: 600000, pixNightLimit: 100000 },
        files: [{ id: 'F1' }],
        description: 'more sales in December',
        limitRequestReason: undefined,
      },
    });
  });

  test('a raised ownership field alone is enough, and is sent', () => {
    const r = readLimitForm('en', state({ pixDayLimit: '5000', pixNightLimit: '1000', pixOutSameHolderDayLimit: '3.500,50' }), meta);
    expect(r.ok && r.form.limits).toEqual({ pixDayLimit: 500000, pixNightLimit: 100000, pixOutSameHolderDayLimit: 350050 });
  });

  test('an empty optional ownership field is left out', () => {
    const r = readLimitForm('en', state({ pixDayLimit: '5001', pixNightLimit: '1000', pixOutSameHolderDayLimit: '' }), meta);
    expect(r.ok && r.form.limits).toEqual({ pixDayLimit: 500100, pixNightLimit: 100000 });
  });

  test('every problem at once, by block', () => {
    const r = readLimitForm('en', state({ pixDayLimit: 'x', pixNightLimit: '1,00', pixOutSameHolderDayLimit: '-3' }, []), meta);
    expect(r.ok).toBe(false);
    expect(!r.ok && Object.keys(r.errors).sort()).toEqual(['documents', 'pixDayLimit', 'pixNightLimit', 'pixOutSameHolderDayLimit']);
  });

  test('amounts read in the submitter’s language: 6,000 from an English user, 6.000 from a Brazilian; 6.000 from an English user is ambiguous', () => {
    const en = readLimitForm('en', state({ pixDayLimit: '6,000', pixNightLimit: '1,000.00' }), meta);
    expect(en.ok && en.form.limits).toEqual({ pixDayLimit: 600000, pixNightLimit: 100000 });
    const pt = readLimitForm('pt-BR', state({ pixDayLimit: '6.000', pixNightLimit: '1.000,00' }), meta);
    expect(pt.ok && pt.form.limits).toEqual({ pixDayLimit: 600000, pixNightLimit: 100000 });
    const unclear = readLimitForm('en', state({ pixDayLimit: '6.000', pixNightLimit: '1000' }), meta);
    expect(!unclear.ok && unclear.errors).toEqual({
      pixDayLimit: 'Ambiguous: for a thousand reais write 1234 or 1,234.00; cents take two decimals.',
    });
  });

  test('files of the shortcut count as documents', () => {
    const r = readLimitForm('en', state({ pixDayLimit: '5001', pixNightLimit: '1000' }, []), {
      ...meta,
      attached: [{ id: 'F9', name: 'a.pdf' }],
    });
    expect(r.ok && r.form.files).toEqual([{ id: 'F9' }]);
  });
});
