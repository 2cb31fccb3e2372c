import { checkPixKey, detectPixKey, isValidCnpj, isValidCpf, unwrapSlackLink } from '../../src/domain/pix-key-values';

describe('CPF and CNPJ check digits', () => {
  test.each(['52998224725', '11144477735', '39053344705'])('%s is a valid CPF', (cpf) => {
    expect(isValidCpf(cpf)).toBe(true);
  });

  test.each([
    ['52998224724', 'last check digit wrong'],
    ['52998224715', 'first check digit wrong'],
    ['11111111111', 'a run of one digit'],
    ['5299822472', 'ten digits'],
    ['5299822472a', 'a letter'],
  ])('%s is not a valid CPF (%s)', (cpf) => {
    expect(isValidCpf(cpf)).toBe(false);
  });

  test.each(['11222333000181', '11444777000161', '12ABC34501DE35'])('%s is a valid CNPJ', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(true);
  });

  test.each([
    ['11222333000182', 'last check digit wrong'],
    ['11222333000191', 'first check digit wrong'],
    ['00000000000000', 'a run of one digit'],
    ['12ABC34501DE3A', 'a letter among the check digits'],
    ['12abc34501de35', 'lower case'],
  ])('%s is not a valid CNPJ (%s)', (cnpj) => {
    expect(isValidCnpj(cnpj)).toBe(false);
  });
});

describe('checkPixKey: by type, into the canonical form', () => {
  test.each([
    ['CPF', '529.982.247-25', '52998224725'],
    ['CPF', ' 52998224725 ', '52998224725'],
    ['CNPJ', '11.222.333/0001-81', '11222333000181'],
    ['CNPJ', '12.abc.345/01de-35', '12ABC34501DE35'],
    ['EMAIL', ' Finance@Example.COM ', 'finance@example.com'],
    ['EMAIL', '<mailto:ops@example.com.br|ops@example.com.br>', 'ops@example.com.br'],
    ['PHONE', '+55 (11) 98765-4321', '+5511987654321'],
    ['PHONE', '+5521912345678', '+5521912345678'],
    ['EVP', '123E4567-E89B-42D3-A456-426614174000', '123e4567-e89b-42d3-a456-426614174000'],
    ['EVP', '', ''],
    ['EVP', '   ', ''],
  ] as const)('%s %p is %p', (type, typed, pixKey) => {
    expect(checkPixKey('en', type, typed)).toEqual({ ok: true, type, pixKey });
  });

  test.each([
    ['CPF', '', /Enter the CPF/],
    ['CPF', '123.456.789-0', /11 digits/],
    ['CPF', '529.982.247-24', /check digits/],
    ['CPF', '111.111.111-11', /check digits/],
    ['CNPJ', '11.222.333/0001-82', /check digits/],
    ['CNPJ', '1122233300018', /14 characters/],
    ['EMAIL', '', /Enter the e-mail/],
    ['EMAIL', 'not-an-email', /Not an e-mail/],
    ['EMAIL', 'a@b', /Not an e-mail/],
    ['EMAIL', 'two@@example.com', /Not an e-mail/],
    ['EMAIL', `${'a'.repeat(70)}@example.com`, /at most 77/],
    ['PHONE', '11987654321', /starts with \+55/],
    ['PHONE', '+1 415 555 0100', /starts with \+55/],
    ['PHONE', '+55 11 8765-4321', /mobile number/],
    ['PHONE', '+55 01 98765-4321', /mobile number/],
    ['PHONE', '+55119876543210', /mobile number/],
    ['EVP', 'not-a-uuid', /UUID/],
    ['EVP', '123e4567e89b42d3a456426614174000', /UUID/],
  ] as const)('%s %p is refused', (type, typed, problem) => {
    const result = checkPixKey('en', type, typed);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});

describe('detectPixKey: a key given without its type', () => {
  test.each([
    ['ops@example.com', 'EMAIL', 'ops@example.com'],
    ['+5511987654321', 'PHONE', '+5511987654321'],
    ['529.982.247-25', 'CPF', '52998224725'],
    ['11222333000181', 'CNPJ', '11222333000181'],
    ['123e4567-e89b-42d3-a456-426614174000', 'EVP', '123e4567-e89b-42d3-a456-426614174000'],
  ])('%s is a %s key', (typed, type, pixKey) => {
    expect(detectPixKey('en', typed)).toEqual({ ok: true, type, pixKey });
  });

  test.each([
    ['', /No Pix key/],
    ['hello', /not a Pix key/],
    ['12345', /not a Pix key/],
    ['52998224724', /check digits/],
  ])('%p is refused', (typed, problem) => {
    const result = detectPixKey('en', typed);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(problem);
  });
});

test('unwrapSlackLink keeps what people see', () => {
  expect(unwrapSlackLink('<mailto:a@b.com|a@b.com>')).toBe('a@b.com');
  expect(unwrapSlackLink('<tel:+5511987654321>')).toBe('+5511987654321');
  expect(unwrapSlackLink(' plain ')).toBe('plain');
});
