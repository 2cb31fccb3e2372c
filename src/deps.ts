import type { AccessControl } from './access';
import type { Logger } from './logger';
import type { PixClient } from './pix/client';
import type { Store } from './store';

/** What the entry points work with; built once at start. */
export interface Deps {
  pix: PixClient;
  store: Store;
  access: AccessControl;
  logger: Logger;
  /** AppID of the company's main application (PIX_APP_ID, or the sandbox's). */
  mainAppId: string;
  masterAppId?: string;
  sandboxMode: boolean;
}
