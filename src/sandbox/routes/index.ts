import type { ApiRoute, ApiRouter } from '../context';
import { Router } from '../http';
import { registerLimitRoutes } from './account-limits';
import { registerAccountRoutes } from './accounts';
import { registerApplicationRoutes } from './applications';
import { registerDisputeRoutes } from './disputes';
import { registerFileRoutes } from './files';
import { registerPixKeyRoutes } from './pix-keys';
import { registerStatementRoutes } from './statement';
import { registerSubscriptionRoutes } from './subscriptions';
import { registerWithdrawKeyRoutes } from './withdraw-key';

/** Every `/api/v1` route of the interface. */
export function apiRouter(): ApiRouter {
  const router = new Router<ApiRoute>();
  registerFileRoutes(router);
  registerLimitRoutes(router);
  registerAccountRoutes(router);
  registerApplicationRoutes(router);
  registerWithdrawKeyRoutes(router);
  registerPixKeyRoutes(router);
  registerSubscriptionRoutes(router);
  registerDisputeRoutes(router);
  registerStatementRoutes(router);
  return router;
}
