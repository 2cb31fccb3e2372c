import { maskPixKey } from '../../src/domain/pix-key-mask';

describe('maskPixKey: personal data in a Pix key, masked once for everyone but who typed it', () => {
  test.each([
    // CPF: first three and last two digits hidden, punctuated or not, by type or by form.
    ['52998224725', undefined, '***.982.247-**'],
    ['529.982.247-25', undefined, '***.982.247-**'],
    ['52998224725', 'CPF', '***.982.247-**'],
    // An 11-digit run that is not a valid CPF is still masked as one.
    ['11111111111', undefined, '***.111.111-**'],
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
});
