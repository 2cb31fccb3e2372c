import { PAY_BLOCK, readPayForm } from '../../src/domain/pay-form';
import { keyTypesByForm, readPaymentKey } from '../../src/domain/payment-key';
import { messages } from '../../src/i18n';
import { readNextRefresh } from '../../src/payments/key-check';

const en = messages('en');
/** A valid CPF that also reads as a mobile number without +55 (area code 11, then 9). */
const CPF_OR_PHONE = '11987654374';

describe('the payment key’s type, read from its form when none is chosen', () => {
  test.each([
    ['52998224725', 'CPF', '52998224725'],
    ['529.982.247-25', 'CPF', '52998224725'],
    ['11.222.333/0001-81', 'CNPJ', '11222333000181'],
    ['12ABC34501DE35', 'CNPJ', '12ABC34501DE35'],
    ['Fulano@Example.com', 'EMAIL', 'fulano@example.com'],
    ['<mailto:fulano@example.com|fulano@example.com>', 'EMAIL', 'fulano@example.com'],
    ['+55 (11) 98765-4321', 'PHONE', '+5511987654321'],
    ['123E4567-E89B-42D3-A456-426614174000', 'RANDOM', '123e4567-e89b-42d3-a456-426614174000'],
  ])('%s is a %s key, sent as %s', (typed, type, pixKey) => {
    expect(readPaymentKey('en', typed)).toEqual({ ok: true, type, pixKey });
  });

  test('eleven digits that are a valid CPF and read as a mobile number fit two types: the type is asked for', () => {
    expect(keyTypesByForm(CPF_OR_PHONE)).toEqual(['CPF', 'PHONE']);
    // 52 is no area code, and a CPF written with its punctuation is a CPF.
    expect(keyTypesByForm('52998224725')).toEqual(['CPF']);
    expect(keyTypesByForm('119.876.543-74')).toEqual(['CPF']);
    expect(readPaymentKey('en', CPF_OR_PHONE)).toEqual({ ok: false, needsType: true, problem: en.pay.typeAmbiguous });
    // Chosen, the same digits are a CPF; as a phone they lack their +55.
    expect(readPaymentKey('en', CPF_OR_PHONE, 'CPF')).toEqual({ ok: true, type: 'CPF', pixKey: CPF_OR_PHONE });
    expect(readPaymentKey('en', CPF_OR_PHONE, 'PHONE')).toEqual({ ok: false, needsType: false, problem: en.pixKeyValues.phoneNoCountry });
  });

  test('a form that fits no type asks for the type; one that fits a type but fails its checks says why', () => {
    expect(readPaymentKey('en', 'hello')).toEqual({ ok: false, needsType: true, problem: en.pay.typeUnknown });
    expect(readPaymentKey('en', '12345')).toEqual({ ok: false, needsType: true, problem: en.pay.typeUnknown });
    expect(readPaymentKey('en', '52998224724')).toEqual({ ok: false, needsType: false, problem: en.pixKeyValues.cpfInvalid });
    expect(readPaymentKey('en', '11222333000182')).toEqual({ ok: false, needsType: false, problem: en.pixKeyValues.cnpjInvalid });
    expect(readPaymentKey('en', 'fulano@')).toEqual({ ok: false, needsType: false, problem: en.pixKeyValues.emailInvalid });
    expect(readPaymentKey('en', '+5511887654321')).toEqual({ ok: false, needsType: false, problem: en.pixKeyValues.phoneInvalid });
    // Neither a valid CPF nor a phone with its +55: both are told.
    expect(readPaymentKey('en', '11987654321')).toEqual({ ok: false, needsType: false, problem: en.pay.cpfOrPhoneInvalid });
    // In parentheses, an area code: a phone, which needs its +55.
    expect(readPaymentKey('en', '(11) 98765-4321')).toEqual({ ok: false, needsType: false, problem: en.pixKeyValues.phoneNoCountry });
    expect(readPaymentKey('en', '')).toEqual({ ok: false, needsType: false, problem: en.pixKeyValues.noKey });
  });

  test('a chosen type is the one the key is checked as, whatever its form looks like', () => {
    expect(readPaymentKey('en', '52998224725', 'EMAIL')).toEqual({ ok: false, needsType: false, problem: en.pixKeyValues.emailInvalid });
    expect(readPaymentKey('en', 'not-a-uuid', 'RANDOM')).toEqual({ ok: false, needsType: false, problem: en.pixKeyValues.evpInvalid });
    expect(readPaymentKey('en', '123e4567-e89b-42d3-a456-426614174000', 'RANDOM')).toEqual({
      ok: true,
      type: 'RANDOM',
      pixKey: '123e4567-e89b-42d3-a456-426614174000',
    });
  });
});

describe('the payment form, read before any Pix call', () => {
  const state = (v: { account?: string; key?: string; type?: string; value?: string; comment?: string }) => ({
    [PAY_BLOCK.account]: { a: { type: 'static_select', selected_option: v.account ? { value: v.account } : null } },
    [PAY_BLOCK.key]: { k: { type: 'plain_text_input', value: v.key ?? null } },
    [PAY_BLOCK.type]: { t: { type: 'static_select', selected_option: v.type ? { value: v.type } : null } },
    [PAY_BLOCK.value]: { v: { type: 'plain_text_input', value: v.value ?? null } },
    [PAY_BLOCK.comment]: { c: { type: 'plain_text_input', value: v.comment ?? null } },
  });
  const meta = { channelId: 'C0FINANCE' };

  test('a good form: cents, the key canonical, its type read from it, the comment trimmed', () => {
    const read = readPayForm('pt-BR', state({ account: 'acc_1', key: '529.982.247-25', value: '1.234,56', comment: ' rent ' }), meta);
    expect(read).toMatchObject({
      ok: true,
      form: { sourceAccountId: 'acc_1', destinationAlias: '52998224725', destinationAliasType: 'CPF', value: 123456, comment: 'rent' },
    });
  });

  test('every problem at once, each on its own input', () => {
    const read = readPayForm('en', state({ account: '../x', key: CPF_OR_PHONE, value: '0', comment: 'x'.repeat(141) }), meta);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.errors).toEqual({
      [PAY_BLOCK.account]: en.pay.chooseAccount,
      [PAY_BLOCK.type]: en.pay.typeAmbiguous,
      [PAY_BLOCK.value]: en.pay.amountZero,
      [PAY_BLOCK.comment]: en.pay.commentTooLong(140),
    });
  });

  test.each([
    ['', 'empty'],
    ['-5', 'negative'],
    ['1.234', 'ambiguous'],
    ['12.345', 'ambiguous'],
    ['1,5,5', 'not_a_number'],
    ['10.999', 'ambiguous'],
    ['10.9999', 'too_many_decimals'],
  ] as const)('the amount %j is refused as the limit form refuses it (%s)', (value, reason) => {
    const read = readPayForm('en', state({ account: 'acc_1', key: '52998224725', value }), meta);
    expect(!read.ok && read.errors[PAY_BLOCK.value]).toBe(en.money[reason]);
  });

  test('the account the command named stands when the select sent none', () => {
    const read = readPayForm('en', state({ key: '52998224725', value: '10' }), { channelId: 'C0FINANCE', accountId: 'acc_2' });
    expect(read.ok && read.form.sourceAccountId).toBe('acc_2');
  });
});

describe('nextRefresh, whose form the service does not show', () => {
  test.each([
    ['2026-12-05T14:32:00.000Z', '2026-12-05T14:32:00.000Z'],
    ['1796481120000', '2026-12-05T14:32:00.000Z'],
    [1796481120000, '2026-12-05T14:32:00.000Z'],
  ])('%j is read as %s', (given, iso) => {
    expect(readNextRefresh(given)?.toISOString()).toBe(iso);
  });

  test.each([[null], [undefined], ['soon']])('%j is not a time', (given) => {
    expect(readNextRefresh(given)).toBeUndefined();
  });
});
