import { seedDict } from './dict';
import { SandboxState } from './state';

/** What a seeded company exposes to tests and to the CLI. */
export interface SandboxCompany {
  companyId: string;
  taxId: string;
  masterAppId: string;
  mainAppId: string;
  defaultAccountId: string;
  /** An API application of the same company with no scopes, for 403 tests. */
  limitedAppId: string;
  /** A RECURRENT subscription with chargeType BOLETO, for the payment booklet. */
  subscriptionId: string;
  /** An open dispute, for evidence uploads. */
  disputeId: string;
}

const DAY = 24 * 60 * 60 * 1000;

/** Builds the state with the two companies "main" and "other". */
export function seedState(seed?: string): { state: SandboxState; companies: { main: SandboxCompany; other: SandboxCompany } } {
  const state = new SandboxState(seed);
  const now = new Date();
  const companies = { main: seedCompany(state, 'Main Company', now), other: seedCompany(state, 'Other Company', now) };
  seedDict(state);
  return { state, companies };
}

function seedCompany(state: SandboxState, name: string, now: Date): SandboxCompany {
  const company = state.createCompany(name);
  const account = state.createAccount(company, true);
  const master = state.createApplication(account, `${name} MASTER`, 'MASTER');
  const main = state.createApplication(account, `${name} API`, 'API');
  const limited = state.createApplication(account, `${name} limited API`, 'API', []);

  // A few movements that end at the advertised balance of 1,500,000 cents.
  state.addTransaction(account, 'CREDIT', 1000000, 'Pix received', new Date(now.getTime() - 3 * DAY));
  state.addTransaction(account, 'CREDIT', 700000, 'Pix received', new Date(now.getTime() - 2 * DAY));
  state.addTransaction(account, 'DEBIT', 200000, 'Pix sent', new Date(now.getTime() - DAY));

  const subscriptionId = state.ids.objectId();
  state.subscriptions.set(subscriptionId, {
    id: subscriptionId,
    companyId: company.id,
    type: 'RECURRENT',
    chargeType: 'BOLETO',
    customerName: `Customer of ${name}`,
    value: 9990,
    // Since January, so any month of this year or next can be asked for.
    startMonth: 1,
    startYear: now.getUTCFullYear(),
    installments: new Map(),
  });

  const disputeId = state.ids.objectId();
  state.disputes.set(disputeId, { id: disputeId, companyId: company.id, status: 'OPEN', evidences: [] });

  return {
    companyId: company.id,
    taxId: company.taxId,
    masterAppId: master.appId,
    mainAppId: main.appId,
    defaultAccountId: account.id,
    limitedAppId: limited.appId,
    subscriptionId,
    disputeId,
  };
}
