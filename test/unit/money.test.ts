import { centsToInput, formatApiCents, formatCents, parseReais } from '../../src/domain/money';

describe('parseReais', () => {
  test.each([
    ['1.234,56', 123456],
    ['1234.56', 123456],
    ['1234,56', 123456],
    ['0,29', 29],
    ['0.29', 29],
    ['10', 1000],
    ['10,5', 1050],
    ['R$ 1.234,56', 123456],
    ['1,234.56', 123456],
    ['1.234.567,89', 123456789],
    ['1.234.567', 123456700],
    ['1,234,567', 123456700],
    ['  7,00 ', 700],
    ['0', 0],
  ])('%s is %i cents, in either language', (input, cents) => {
    expect(parseReais(input, 'pt-BR')).toEqual({ ok: true, cents });
    expect(parseReais(input, 'en')).toEqual({ ok: true, cents });
  });

  test('1234.56 is exactly 123456 cents (no floating point on the way)', () => {
    expect(parseReais('1234.56', 'pt-BR')).toEqual({ ok: true, cents: 123456 });
    expect(parseReais('0,07', 'pt-BR')).toEqual({ ok: true, cents: 7 });
    expect(parseReais('1.15', 'en')).toEqual({ ok: true, cents: 115 });
  });

  test('read by the user’s language: an English 1,234.56 and a Brazilian 1.234,56; thousands grouped the user’s way', () => {
    expect(parseReais('1,234.56', 'en')).toEqual({ ok: true, cents: 123456 });
    expect(parseReais('1.234,56', 'pt-BR')).toEqual({ ok: true, cents: 123456 });
    expect(parseReais('1,234', 'en')).toEqual({ ok: true, cents: 123400 });
    expect(parseReais('12,345', 'en')).toEqual({ ok: true, cents: 1234500 });
    expect(parseReais('1.234', 'pt-BR')).toEqual({ ok: true, cents: 123400 });
    expect(parseReais('R$ 5.000', 'pt-BR')).toEqual({ ok: true, cents: 500000 });
  });

  test('ambiguous in the user’s language (their decimal mark with three digits after it): refused with the hint', () => {
    expect(parseReais('1.234', 'en')).toEqual({ ok: false, reason: 'ambiguous' });
    expect(parseReais('1,234', 'pt-BR')).toEqual({ ok: false, reason: 'ambiguous' });
    expect(parseReais('123.456', 'en')).toEqual({ ok: false, reason: 'ambiguous' });
  });

  test.each([
    ['-1,00', 'negative'],
    ['-5', 'negative'],
    ['1.234,567', 'too_many_decimals'],
    ['1,234.567', 'too_many_decimals'],
    ['0,001', 'too_many_decimals'],
    ['0.001', 'too_many_decimals'],
    ['1234,567', 'too_many_decimals'],
    ['1,2345', 'too_many_decimals'],
    ['abc', 'not_a_number'],
    ['12a', 'not_a_number'],
    ['1e3', 'not_a_number'],
    ['1E3', 'not_a_number'],
    ['', 'empty'],
    ['   ', 'empty'],
    ['1.2.3', 'not_a_number'],
    ['1,2,3', 'not_a_number'],
    ['12.34.567,00', 'not_a_number'],
    ['1,234,56', 'not_a_number'],
    ['+5', 'not_a_number'],
    ['Infinity', 'not_a_number'],
    ['90071992547409,92', 'too_large'],
    ['99999999999999999999', 'too_large'],
  ])('%s is refused (%s) in either language', (input, reason) => {
    expect(parseReais(input, 'pt-BR')).toEqual({ ok: false, reason });
    expect(parseReais(input, 'en')).toEqual({ ok: false, reason });
  });

  test('the largest safe amount is still accepted', () => {
    expect(parseReais('90071992547409,91', 'pt-BR')).toEqual({ ok: true, cents: Number.MAX_SAFE_INTEGER });
  });
});

describe('formatCents', () => {
  test.each([
    [123456, 'R$ 1.234,56'],
    [29, 'R$ 0,29'],
    [0, 'R$ 0,00'],
    [100, 'R$ 1,00'],
    [123456789, 'R$ 1.234.567,89'],
    [-150, '-R$ 1,50'],
    [Number.MAX_SAFE_INTEGER, 'R$ 90.071.992.547.409,91'],
  ])('%i cents is %s', (cents, text) => {
    expect(formatCents(cents)).toBe(text);
  });

  test('the form value reads back to the same cents', () => {
    for (const cents of [0, 7, 29, 100, 123456, 500000]) {
      expect(parseReais(centsToInput(cents), 'pt-BR')).toEqual({ ok: true, cents });
    }
  });
});

describe('formatApiCents: the Pix API’s amounts (cents) as R$', () => {
  test('whole cents in the reader’s language; a value that is not a whole number, or not exact, as sent', () => {
    expect(formatApiCents(1_500_000)).toBe('R$ 15.000,00');
    expect(formatApiCents(1_500_000, 'en')).toBe('R$15,000.00');
    expect(formatApiCents(-250, 'en')).toBe('-R$2.50');
    expect(formatApiCents(0, 'pt-BR')).toBe('R$ 0,00');
    expect(formatApiCents(1500.5)).toBe('1500.5');
    expect(formatApiCents(2 ** 60)).toBe(String(2 ** 60));
  });
});
