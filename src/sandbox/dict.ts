import { createHash } from 'node:crypto';
import type { Account, Company, DictEntry, DictHolder, SandboxState, WithdrawKeyType } from './state';

/** The central bank's key directory as the sandbox plays it: who holds a key, and at which bank. */

/** The bank the sandbox's own accounts are at (the service is a payment institution). */
const SERVICE_BANK = 'Sandbox Pix IP S.A.';

/** An account number of the usual form (digits, a dash, a check digit), stable for the same text. */
function accountNumber(of: string): string {
  const digits = createHash('sha256').update(of).digest().readUInt32BE(0).toString().padStart(8, '0').slice(-8);
  return `${digits.slice(0, 7)}-${digits.slice(7)}`;
}

/** The holder of a key of an account of the service: the company, at the service. */
export function serviceHolder(company: Company | undefined, account: Account): DictHolder {
  return { name: company?.name ?? 'Sandbox company', bank: SERVICE_BANK, branch: '0001', account: accountNumber(account.id) };
}

/** A holder for a DICT entry set up without one. */
export function defaultHolder(pixKey: string): DictHolder {
  return { name: 'Titular Sandbox', bank: 'Banco Sandbox S.A.', branch: '0001', account: accountNumber(pixKey) };
}

interface SeededKey {
  pixKey: string;
  type: WithdrawKeyType;
  holderTaxId: string;
  holder: DictHolder;
}

/**
 * Keys of other people and companies at other banks, one of each type, so that the playground and
 * tests can pay someone real-looking: the CPF and CNPJs have valid check digits.
 */
const SEEDED_KEYS: readonly SeededKey[] = [
  {
    pixKey: '71460238001',
    type: 'CPF',
    holderTaxId: '71460238001',
    holder: { name: 'Ana Beatriz Costa', bank: 'Nu Pagamentos S.A.', branch: '0001', account: '8123456-7' },
  },
  {
    pixKey: '45278163000179',
    type: 'CNPJ',
    holderTaxId: '45278163000179',
    holder: { name: 'Papelaria Boa Vista Ltda', bank: 'Banco do Brasil S.A.', branch: '3064', account: '41235-9' },
  },
  {
    pixKey: 'financeiro@graficarapida.com.br',
    type: 'EMAIL',
    holderTaxId: '19031824000157',
    holder: { name: 'Gráfica Rápida Impressões Ltda', bank: 'Itaú Unibanco S.A.', branch: '0912', account: '23456-1' },
  },
  {
    pixKey: '+5531991234567',
    type: 'PHONE',
    holderTaxId: '39053344705',
    holder: { name: 'João Pedro Almeida', bank: 'Caixa Econômica Federal', branch: '1374', account: '00081234-5' },
  },
  {
    pixKey: 'b2f6c1d4-8e3a-4f7b-9c5d-2a1e0f9b8c7d',
    type: 'RANDOM',
    holderTaxId: '12345678909',
    holder: { name: 'Marina Oliveira Santos', bank: 'Banco Bradesco S.A.', branch: '2290', account: '0076543-2' },
  },
];

/**
 * Seeds the DICT: the keys above, and each company's CNPJ as a key of its own at another bank (a key
 * its accounts may take as their withdraw key).
 */
export function seedDict(state: SandboxState): void {
  for (const { pixKey, ...entry } of SEEDED_KEYS) state.dict.set(pixKey, { ...entry, serviceAccount: false, holder: { ...entry.holder } });
  for (const company of state.companies.values()) {
    state.dict.set(company.taxId, {
      type: 'CNPJ',
      holderTaxId: company.taxId,
      serviceAccount: false,
      holder: { name: company.name, bank: 'Banco do Brasil S.A.', branch: '1607', account: accountNumber(company.id) },
    });
  }
}

/** A DICT entry as the control routes and `/sandbox/info` show it. */
export function dictEntryView(pixKey: string, entry: DictEntry): Record<string, unknown> {
  return { pixKey, type: entry.type, holderTaxId: entry.holderTaxId, serviceAccount: entry.serviceAccount, holder: { ...entry.holder } };
}
