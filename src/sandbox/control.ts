import { z } from 'zod';
import type { SandboxCall } from './context';
import { moneyOutInfo, registerMoneyOutControls } from './control-money-out';
import { defaultHolder, dictEntryView } from './dict';
import { DECIDED_EVENT, decideSchema, disputeEvent, openDisputeSchema } from './dispute-events';
import { type Faults, faultsSchema } from './faults';
import { fail, jsonReply, type Params, type Reply, Router } from './http';
import { isRequestableLimitField, type LimitValues, limitValueSchema } from './limits-object';
import { isScope } from './scopes';
import type { SandboxCompany } from './seed';
import { FEATURES, type LimitRequest, type SandboxState, WITHDRAW_KEY_TYPES } from './state';
import { parseWith } from './validate';
import { accountView, fileView, limitRequestView } from './views';
import { endToEndId, KEY_BITS, type SandboxWebhooks } from './webhooks';

/** `/sandbox/*`: unauthenticated routes that play the service's back office in tests and demos. */

export interface ControlContext {
  state: SandboxState;
  companies: { main: SandboxCompany; other: SandboxCompany };
  calls: SandboxCall[];
  faults: Faults;
  webhooks: SandboxWebhooks;
  baseUrl: string;
  params: Params;
  body(): unknown;
}
export type ControlHandler = (ctx: ControlContext) => Reply | Promise<Reply>;

const approveSchema = z
  .object({ limits: z.record(z.string(), limitValueSchema).optional() })
  .optional()
  .transform((body) => body ?? {});
const enabledSchema = z.object({ enabled: z.boolean({ error: 'must be a boolean' }) });
const blockedSchema = z.object({ blocked: z.boolean({ error: 'must be a boolean' }) });
/**
 * An account's balance in cents, as the service reports it; `total` is available plus blocked unless
 * given. Not a whole number is allowed: the service's own example shows one (`1500.5`).
 */
const cents = z.number({ error: 'must be a number of cents' }).finite().min(0, 'must not be negative').max(1e15, 'is too large');
const balanceSchema = z.object({ available: cents, blocked: cents.default(0), total: cents.optional() });
const holderText = z.string().trim().min(1, 'is required').max(140, 'must be at most 140 characters');
const dictSchema = z.object({
  pixKey: z.string().trim().min(1, 'is required'),
  // The DICT knows a random key as EVP or RANDOM; the withdraw key reports it as RANDOM.
  type: z.enum([...WITHDRAW_KEY_TYPES, 'EVP']).transform((t) => (t === 'EVP' ? 'RANDOM' : t)),
  holderTaxId: z.string().regex(/^\d{11}$|^\d{14}$/, 'must be a CPF or CNPJ (digits only)'),
  serviceAccount: z.boolean().default(false),
  /** Who the key check and a payment's destination show (the tax id is `holderTaxId`); made up when absent. */
  holder: z.object({ name: holderText, bank: holderText, branch: holderText, account: holderText }).optional(),
});
const featureSchema = z.object({ feature: z.enum(FEATURES), enabled: z.boolean() });
const transactionsSchema = z.object({
  type: z.enum(['CREDIT', 'DEBIT']),
  /** Cents, as every amount of the sandbox. */
  value: z.number().int().min(1).max(1_000_000_000_00),
  description: z.string().trim().min(1).max(140).optional(),
  /** That many identical movements, a minute apart, ending now: a long statement in one call. */
  count: z.number().int().min(1).max(500).default(1),
});
const activeSchema = z.object({ active: z.boolean() });
const scopesSchema = z.object({
  scopes: z.array(z.string().refine(isScope, 'is not a known scope')),
});

function pendingRequest(state: SandboxState, id: string): LimitRequest {
  const request = state.limitRequests.find((r) => r.id === id);
  if (!request) throw fail(404, 'Limit request not found');
  if (request.status !== 'IN_REVIEW') throw fail(409, `Limit request already ${request.status}`);
  return request;
}

export function controlRouter(): Router<ControlHandler> {
  return (
    // The money-out controls first: their paths overlap none of these.
    registerMoneyOutControls(new Router<ControlHandler>())
      .add('GET', '/sandbox/info', ({ state, baseUrl, companies }) => jsonReply(200, { url: baseUrl, companies, ...moneyOutInfo(state) }))

      .add('POST', '/sandbox/limit-requests/:id/approve', ({ state, params, body }) => {
        const request = pendingRequest(state, params.id ?? '');
        const { limits } = parseWith(approveSchema, body());
        const granted: LimitValues = {};
        for (const [field, value] of Object.entries(limits ?? request.requestedLimits)) {
          if (!isRequestableLimitField(field)) throw fail(400, `limits.${field} is not a requestable limit`);
          granted[field] = value;
        }
        const account = state.accounts.get(request.companyBankAccountId);
        if (!account) throw fail(404, 'Account not found');
        // One synchronous step: nobody can observe the decision without the new limits, or the reverse.
        request.status = 'APPROVED';
        request.approvedLimits = granted;
        request.updatedAt = new Date().toISOString();
        Object.assign(account.limits, granted);
        return jsonReply(200, { limitRequest: limitRequestView(request) });
      })

      .add('POST', '/sandbox/limit-requests/:id/reject', ({ state, params }) => {
        const request = pendingRequest(state, params.id ?? '');
        request.status = 'REJECTED';
        request.updatedAt = new Date().toISOString();
        return jsonReply(200, { limitRequest: limitRequestView(request) });
      })

      .add('POST', '/sandbox/accounts/:id/withdraw-key-api', ({ state, params, body }) => {
        const account = state.accounts.get(params.id ?? '');
        if (!account) throw fail(404, 'Account not found');
        account.withdrawKeyApiEnabled = parseWith(enabledSchema, body()).enabled;
        return jsonReply(200, { account: accountView(account) });
      })

      .add('POST', '/sandbox/accounts/:id/withdraw-blocked', ({ state, params, body }) => {
        const account = state.accounts.get(params.id ?? '');
        if (!account) throw fail(404, 'Account not found');
        account.withdrawBlocked = parseWith(blockedSchema, body()).blocked;
        return jsonReply(200, { account: accountView(account) });
      })

      .add('POST', '/sandbox/accounts/:id/balance', ({ state, params, body }) => {
        const account = state.accounts.get(params.id ?? '');
        if (!account) throw fail(404, 'Account not found');
        const { available, blocked, total } = parseWith(balanceSchema, body());
        account.balance = { available, blocked, total: total ?? available + blocked };
        return jsonReply(200, { account: accountView(account) });
      })

      .add('POST', '/sandbox/accounts/:id/transactions', ({ state, params, body }) => {
        const account = state.accounts.get(params.id ?? '');
        if (!account) throw fail(404, 'Account not found');
        const input = parseWith(transactionsSchema, body());
        if (input.type === 'DEBIT' && account.balance.available < input.value * input.count) throw fail(400, 'Insufficient balance');
        const description = input.description ?? (input.type === 'CREDIT' ? 'Pix received' : 'Pix sent');
        const now = Date.now();
        const created = Array.from({ length: input.count }, (_, i) =>
          state.addTransaction(account, input.type, input.value, description, new Date(now - (input.count - 1 - i) * 60_000)),
        );
        return jsonReply(201, { transactions: created.map((t) => ({ ...t })), account: accountView(account) });
      })

      // A new or changed entry is not hidden behind the service's cache of an earlier look-up.
      .add('POST', '/sandbox/dict', ({ state, body }) => {
        const { pixKey, holder, ...rest } = parseWith(dictSchema, body());
        const entry = { ...rest, holder: holder ?? defaultHolder(pixKey) };
        state.dict.set(pixKey, entry);
        state.dictCache.delete(pixKey);
        return jsonReply(201, { entry: dictEntryView(pixKey, entry) });
      })

      .add('POST', '/sandbox/companies/:companyId/features', ({ state, params, body }) => {
        const company = state.companies.get(params.companyId ?? '');
        if (!company) throw fail(404, 'Company not found');
        const { feature, enabled } = parseWith(featureSchema, body());
        if (enabled) company.features.add(feature);
        else company.features.delete(feature);
        return jsonReply(200, { companyId: company.id, features: [...company.features] });
      })

      .add('PUT', '/sandbox/applications/:appId/scopes', ({ state, params, body }) => {
        const app = state.applications.get(params.appId ?? '');
        if (!app) throw fail(404, 'Application not found');
        const { scopes } = parseWith(scopesSchema, body());
        app.scopes = new Set(scopes);
        return jsonReply(200, { application: { clientId: app.clientId, type: app.type, scopes: [...app.scopes] } });
      })

      // The service's portal view of an account's applications (with their AppIDs, as the portal shows
      // them to the company; never their secrets): what the interface itself offers no way to list.
      .add('GET', '/sandbox/accounts/:id/applications', ({ state, params }) => {
        const apps = [...state.applications.values()].filter((a) => a.accountId === params.id);
        return jsonReply(200, {
          applications: apps.map((a) => ({ name: a.name, type: a.type, clientId: a.clientId, appID: a.appId, isActive: a.isActive })),
        });
      })

      // An AppID the service no longer accepts (as after its application's secret is rotated, where
      // the real service derives the AppID from the secret): 401 `Invalid appID` from then on.
      .add('PUT', '/sandbox/applications/:appId/active', ({ state, params, body }) => {
        const app = state.applications.get(params.appId ?? '');
        if (!app) throw fail(404, 'Application not found');
        app.isActive = parseWith(activeSchema, body()).active;
        return jsonReply(200, { application: { clientId: app.clientId, isActive: app.isActive } });
      })

      .add('POST', '/sandbox/faults', ({ faults, body }) => {
        faults.configure(parseWith(faultsSchema, body()));
        return jsonReply(200, { faults: faults.describe() });
      })

      .add('DELETE', '/sandbox/faults', ({ faults }) => {
        faults.reset();
        return jsonReply(200, { faults: faults.describe() });
      })

      .add('GET', '/sandbox/calls', ({ calls }) => jsonReply(200, { calls }))

      .add('DELETE', '/sandbox/calls', ({ calls }) => {
        calls.length = 0; // in place: the handle's `calls` is the same live array
        return { status: 204 };
      })

      .add('GET', '/sandbox/files/:id', ({ state, params, baseUrl }) => {
        const file = state.files.get(params.id ?? '');
        if (!file) throw fail(404, 'File not found');
        return jsonReply(200, { file: { ...fileView(file, baseUrl), companyId: file.companyId, sha256: file.sha256 } });
      })

      // Webhooks: where they go, and the service's key rotation (the old key stays listed).
      .add('POST', '/sandbox/webhooks/target', ({ webhooks, body }) => {
        const { url } = parseWith(z.object({ url: z.url({ error: 'must be a URL' }).nullable() }), body());
        webhooks.setTarget(url ?? undefined);
        return jsonReply(200, { target: url });
      })

      // `bits`: 2048 (the default) or 1024, the size of the service's published key.
      .add('POST', '/sandbox/webhooks/rotate-key', async ({ webhooks, body }) => {
        const { bits } = parseWith(z.object({ bits: z.union(KEY_BITS.map((b) => z.literal(b))).optional() }), body() ?? {});
        await webhooks.rotate(bits);
        return jsonReply(200, await webhooks.publicKeys());
      })

      // What the service's dashboard does when a webhook is registered or tested: one signed test delivery.
      .add('POST', '/sandbox/webhooks/test', async ({ webhooks }) => {
        if (!webhooks.targetUrl) throw fail(409, 'No webhook target: set one with POST /sandbox/webhooks/target');
        return jsonReply(200, { target: webhooks.targetUrl, status: await webhooks.testDelivery() });
      })

      .add('GET', '/sandbox/webhooks/deliveries', ({ webhooks }) =>
        jsonReply(200, { target: webhooks.targetUrl ?? null, deliveries: webhooks.deliveries }),
      )

      // A dispute opened against an account of the company (default: the main company's default
      // account), announced with DISPUTE_CREATED unless `deliver: false`.
      .add('POST', '/sandbox/disputes', ({ state, companies, webhooks, body }) => {
        const input = parseWith(openDisputeSchema, body() ?? {});
        const accountId = input.accountId ?? companies.main.defaultAccountId;
        const account = state.accounts.get(accountId);
        if (!account) throw fail(404, 'Account not found');
        const id = state.ids.objectId();
        const dispute = {
          id,
          companyId: account.companyId,
          status: 'OPENED',
          evidences: [],
          endToEndId: endToEndId(),
          type: input.type,
          value: input.value,
          reason: input.reason,
          customer: input.customer,
          accountId,
          createdAt: new Date().toISOString(),
        };
        state.disputes.set(id, dispute);
        if (input.deliver) void webhooks.deliver(disputeEvent('DISPUTE_CREATED', dispute));
        return jsonReply(201, { dispute: { ...dispute } });
      })

      .add('POST', '/sandbox/disputes/:id/decide', ({ state, webhooks, params, body }) => {
        const dispute = state.disputes.get(params.id ?? '');
        if (!dispute) throw fail(404, 'Dispute not found');
        const { status, deliver } = parseWith(decideSchema, body());
        if (dispute.status !== 'OPENED' && dispute.status !== 'OPEN') throw fail(409, `Dispute already ${dispute.status}`);
        dispute.status = status;
        dispute.endToEndId ??= endToEndId();
        if (deliver) void webhooks.deliver(disputeEvent(DECIDED_EVENT[status], dispute));
        return jsonReply(200, { dispute: { ...dispute, evidences: dispute.evidences.map((e) => ({ ...e })) } });
      })

      .add('GET', '/sandbox/disputes/:id', ({ state, params }) => {
        const dispute = state.disputes.get(params.id ?? '');
        if (!dispute) throw fail(404, 'Dispute not found');
        return jsonReply(200, { dispute: { ...dispute, evidences: dispute.evidences.map((e) => ({ ...e })) } });
      })

      .add('GET', '/sandbox/subscriptions/:id', ({ state, params }) => {
        const subscription = state.subscriptions.get(params.id ?? '');
        if (!subscription) throw fail(404, 'Subscription not found');
        const { installments, ...rest } = subscription;
        return jsonReply(200, { subscription: { ...rest, installments: [...installments.values()] } });
      })
  );
}
