import { fail, HttpError, jsonReply } from './http';
import type { Scope } from './scopes';
import type { Application, Company, SandboxState } from './state';

/** The AppID is the whole value of the Authorization header. */
export function authenticate(state: SandboxState, authorization: string | undefined): Application {
  const app = authorization === undefined ? undefined : state.applications.get(authorization);
  // The real service answers an unknown AppID in this GraphQL-like form, not with `{ error }`.
  if (!app?.isActive) throw new HttpError(jsonReply(401, { data: null, errors: [{ message: 'Invalid appID' }] }));
  return app;
}

export function requireScope(app: Application, scope: Scope): void {
  if (!app.scopes.has(scope)) throw fail(403, `Application does not have required scope: ${scope}`);
}

export function requireMaster(app: Application): void {
  if (app.type !== 'MASTER') throw fail(403, 'Wrong API type');
}

/** The company of the calling application (its look-up tokens, its payments). */
export function callerCompany(state: SandboxState, app: Application): Company {
  const company = state.companies.get(app.companyId);
  if (!company) throw fail(404, 'Company not found');
  return company;
}
