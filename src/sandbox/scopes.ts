/** Scopes of section 5 of the interface and of the money-out endpoints, grouped as `GET /api/v1/application/scopes` lists them. */
export const SCOPE_GROUPS = [
  { group: 'FILE', scopes: ['FILE_POST'] },
  { group: 'ACCOUNT_LIMITS', scopes: ['ACCOUNT_LIMITS_GET', 'ACCOUNT_LIMITS_REQUEST_POST'] },
  { group: 'PIX_KEY', scopes: ['PIX_KEY_WITHDRAW_POST', 'PIX_KEY_WITHDRAW_PUT'] },
  { group: 'SUBSCRIPTION', scopes: ['SUBSCRIPTION_PAYMENT_BOOK_GET'] },
  { group: 'APPLICATION', scopes: ['APPLICATION_ROTATE_POST'] },
  // The money-out endpoints (pix-money-out.md): granted by the service on request.
  { group: 'PAYMENT', scopes: ['PAYMENT_POST', 'PAYMENT_APPROVE_POST', 'PAYMENT_GET_LIST'] },
  { group: 'ACCOUNT', scopes: ['ACCOUNT_WITHDRAW_POST'] },
] as const;

export type Scope = (typeof SCOPE_GROUPS)[number]['scopes'][number];

export const ALL_SCOPES: readonly Scope[] = SCOPE_GROUPS.flatMap((g) => [...g.scopes]);

export function isScope(name: string): name is Scope {
  return (ALL_SCOPES as readonly string[]).includes(name);
}
