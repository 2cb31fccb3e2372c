import type { ApiRoute, ApiRouter } from '../context';
import { Router } from '../http';
import { registerLimitRoutes } from './account-limits';
import { registerAccountRoutes } from './accounts';
import { registerApplicationRoutes } from './applications';
import { registerDisputeRoutes } from './disputes';
import { registerFileRoutes } from './files';
import { registerPaymentRoutes } from './payments';
import { registerPixKeyCheckRoutes } from './pix-key-check';
import { registerPixKeyRoutes } from './pix-keys';
import { registerStatementRoutes } from './statement';
import { registerSubscriptionRoutes } from './subscriptions';
import { registerWithdrawRoutes } from './withdraw';
import { registerWithdrawKeyRoutes } from './withdraw-key';

/** Every `/api/v1` route of the interface and of the money-out endpoints. */
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
  registerPaymentRoutes(router);
  registerWithdrawRoutes(router);
  registerPixKeyCheckRoutes(router);
  return router;
}
