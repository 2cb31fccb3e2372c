import { centsToInput, formatCents, parseReais } from '../../src/domain/money';

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
    ['  7,00 ', 700],
    ['0', 0],
  ])('%s is %i cents', (input, cents) => {
    expect(parseReais(input)).toEqual({ ok: true, cents });
  });

  test('1234.56 is exactly 123456 cents (no floating point on the way)', () => {
    expect(parseReais('1234.56')).toEqual({ ok: true, cents: 123456 });
    expect(parseReais('0,07')).toEqual({ ok: true, cents: 7 });
    expect(parseReais('1.15')).toEqual({ ok: true, cents: 115 });
  });

  test.each([
    ['-1,00', 'negative'],
    ['-5', 'negative'],
    ['1,234', 'too_many_decimals'],
    ['1.234,567', 'too_many_decimals'],
    ['0,001', 'too_many_decimals'],
    ['abc', 'not_a_number'],
    ['12a', 'not_a_number'],
    ['1e3', 'not_a_number'],
    ['1E3', 'not_a_number'],
    ['', 'empty'],
    ['   ', 'empty'],
    ['1.2.3', 'not_a_number'],
    ['1,2,3', 'not_a_number'],
    ['12.34.567,00', 'not_a_number'],
    ['1.234', 'ambiguous'],
    ['+5', 'not_a_number'],
    ['Infinity', 'not_a_number'],
    ['90071992547409,92', 'too_large'],
    ['99999999999999999999', 'too_large'],
  ])('%s is refused (%s)', (input, reason) => {
    expect(parseReais(input)).toEqual({ ok: false, reason });
  });

  test('the largest safe amount is still accepted', () => {
    expect(parseReais('90071992547409,91')).toEqual({ ok: true, cents: Number.MAX_SAFE_INTEGER });
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
      expect(parseReais(centsToInput(cents))).toEqual({ ok: true, cents });
    }
  });
});
