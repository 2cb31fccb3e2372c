import { maskPixKey, maskTaxId } from '../../src/domain/pix-key-mask';

describe('maskPixKey: personal data in a Pix key, masked once for everyone but who typed it', () => {
  test.each([
    // CPF: first three and last two digits hidden, by type, or by its punctuated form.
    ['529.982.247-25', undefined, '***.982.247-**'],
    ['52998224725', 'CPF', '***.982.247-**'],
    // An 11-digit run typed as a CPF that is not a valid one is still masked as one.
    ['11111111111', 'CPF', '***.111.111-**'],
    // Phone: country and area code, and the last four digits.
    ['+5511987654321', undefined, '+5511*****4321'],
    ['+5511987654321', 'PHONE', '+5511*****4321'],
    // E-mail: the first character and the domain.
    ['finance@example.com', undefined, 'f***@example.com'],
    ['a@b.co', 'EMAIL', 'a***@b.co'],
    // CNPJ: possibly a person's (a sole trader's), so masked but for the root's middle. EVP / RANDOM: a random UUID, whole.
    ['11222333000181', undefined, '**.222.333/****-**'],
    ['11.222.333/0001-81', 'CNPJ', '**.222.333/****-**'],
    ['12ABC34501DE35', 'CNPJ', '**.ABC.345/****-**'],
    ['7d444840-9dc0-41a2-8f6b-3b3f1c0e5a11', undefined, '7d444840-9dc0-41a2-8f6b-3b3f1c0e5a11'],
    ['7d444840-9dc0-41a2-8f6b-3b3f1c0e5a11', 'RANDOM', '7d444840-9dc0-41a2-8f6b-3b3f1c0e5a11'],
    // A key of no known form: all but its last two characters.
    ['something-odd', undefined, '***dd'],
    ['ab', undefined, '***'],
    ['', undefined, ''],
  ])('%p (%p) → %p', (key, type, masked) => {
    expect(maskPixKey(key, type)).toBe(masked);
  });

  // Every way a phone is written shows the same few digits: country and area code, the last four.
  test.each([
    ['+5511987654321', 'PHONE'],
    ['5511987654321', 'PHONE'],
    ['11987654321', 'PHONE'],
    ['(11) 98765-4321', 'PHONE'],
    ['(11) 98765-4321', undefined],
    ['+55 (11) 98765-4321', undefined],
    ['+55 11 98765 4321', 'PHONE'],
    ['011987654321', 'PHONE'],
    ['11 98765-4321', 'PHONE'],
  ])('the phone %p (%p) → +5511*****4321', (key, type) => {
    expect(maskPixKey(key, type)).toBe('+5511*****4321');
  });

  test('a landline and a number of another country keep the same rule; a short one shows its last two digits', () => {
    expect(maskPixKey('(11) 3265-4321', 'PHONE')).toBe('+5511****4321');
    expect(maskPixKey('+1 415 555 0123', 'PHONE')).toBe('+1415***0123');
    expect(maskPixKey('4321', 'PHONE')).toBe('***21');
    expect(maskPixKey('call me', 'PHONE')).toBe('***');
  });

  test('the type the API gives wins over the form (a CPF-typed value is never shown whole)', () => {
    expect(maskPixKey('finance@example.com', 'CPF')).toBe('***om');
  });

  // The contract: a key whose type is not known (fitting no form, or more than one: eleven digits may be
  // a CPF or a phone) is masked as strictly as any type it could be: at most its last four characters shown.
  test.each([
    ['11987654321', '***21'],
    ['52998224725', '***25'],
    ['11111111111', '***11'],
    ['  11987654321 ', '***21'],
    ['11 98765-4321', '***21'],
    ['119.876.543.21', '***21'],
  ])('eleven digits with no type (a CPF or a phone): %p → %p', (key, masked) => {
    expect(maskPixKey(key)).toBe(masked);
  });

  test('with no type, nothing of a key but at most its last four characters shows unless its form is one alone', () => {
    for (const key of ['11987654321', '52998224725', '5511987654321', '1132654321', 'something-odd', '12345678901234567890']) {
      const masked = maskPixKey(key);
      const shown = masked.replace(/^\*+/, '');
      expect({ key, shown: shown.length <= 4 && key.endsWith(shown) }).toEqual({ key, shown: true });
    }
  });

  test('a tax id (a CPF or a CNPJ, told by its length) is masked as the one it is', () => {
    expect(maskTaxId('39053344705')).toBe('***.533.447-**');
    expect(maskTaxId('390.533.447-05')).toBe('***.533.447-**');
    expect(maskTaxId('11222333000181')).toBe('**.222.333/****-**');
    expect(maskTaxId('11.222.333/0001-81')).toBe('**.222.333/****-**');
    expect(maskTaxId('12345')).toBe('***45');
  });
});
