import { z } from 'zod';
import { requireMaster } from '../auth';
import type { ApiRouter } from '../context';
import { fail, jsonReply } from '../http';
import { SCOPE_GROUPS } from '../scopes';
import { parseWith } from '../validate';
import { applicationView } from '../views';

const createSchema = z.object({
  accountId: z.string({ error: 'is required' }).min(1, 'is required'),
  application: z.object(
    {
      name: z.string({ error: 'is required' }).trim().min(1, 'is required'),
      type: z.literal('API', { error: 'must be API' }),
    },
    { error: 'is required' },
  ),
});
type CreateApplicationBody = z.infer<typeof createSchema>;

const rotateSchema = z.object({ clientId: z.string({ error: 'is required' }).min(1, 'is required') });

export function registerApplicationRoutes(router: ApiRouter): void {
  // The interface leaves the authorizing AppID open; the sandbox takes the MASTER one, like account creation.
  router.add('POST', '/api/v1/application', {
    handle({ state, caller, body }) {
      requireMaster(caller);
      const input: CreateApplicationBody = parseWith(createSchema, body());
      const account = state.accountOf(caller.companyId, input.accountId);
      if (!account) throw fail(404, 'Account not found');
      const app = state.createApplication(account, input.application.name, input.application.type);
      return jsonReply(201, { application: applicationView(app) });
    },
  });

  router.add('GET', '/api/v1/application/scopes', {
    handle() {
      return jsonReply(200, { scopes: SCOPE_GROUPS.map(({ group, scopes }) => ({ group, scopes: [...scopes] })) });
    },
  });

  // The AppID keeps working after a rotation: the sandbox does not derive authorization from the
  // secret, so a bot that rotates its own application's secret is not locked out.
  router.add('POST', '/api/v1/application/rotate-secret', {
    scope: 'APPLICATION_ROTATE_POST',
    handle({ state, caller, body }) {
      requireMaster(caller);
      const { clientId } = parseWith(rotateSchema, body());
      const app = state.applicationByClientId(caller.companyId, clientId);
      if (!app) throw fail(404, 'Application not found');
      app.clientSecret = state.ids.clientSecret();
      return jsonReply(200, { application: { clientId: app.clientId, clientSecret: app.clientSecret } });
    },
  });
}
