import type BoltApp from '@slack/bolt/dist/App';
import { PixOpsError } from '../errors';
import { standIn } from '../runtime/stand-in';

/**
 * Bolt's App class, loaded with only what the configured mode needs (start-up time).
 *
 * Not Bolt's index: it also loads the Express and AWS Lambda receivers, which this app never uses.
 * (The package has no `exports` map, so `dist/App` is a public path.) And App itself requires both
 * of its receivers when it loads; the Socket Mode one brings @slack/socket-mode and undici, about a
 * seventh of a second, which HTTP mode never constructs. Both receivers also require @slack/oauth
 * (with jsonwebtoken, about a twentieth of a second), which they construct only for OAuth
 * installation, which this app never configures. Those modules are therefore given stand-ins that
 * refuse to be constructed, before App is loaded.
 */
export function loadBoltApp(mode: 'http' | 'socket'): typeof BoltApp {
  const receivers = require.resolve('@slack/bolt/dist/receivers/HTTPReceiver');
  standIn(
    require.resolve('@slack/oauth', { paths: [receivers] }),
    refusing('InstallProvider', 'OAuth installation is not used by Pix Ops'),
  );
  if (mode === 'http') {
    standIn(
      require.resolve('@slack/bolt/dist/receivers/SocketModeReceiver'),
      refusing('default', 'Socket Mode is not loaded in HTTP mode (SLACK_APP_TOKEN was not set at start)'),
    );
  }
  return (require('@slack/bolt/dist/App') as typeof import('@slack/bolt/dist/App')).default;
}

/** A module left out at start-up (see loadBoltApp) was constructed after all: the message says which and why. */
export class NotLoadedError extends PixOpsError {
  readonly code = 'pixops_slack_not_loaded';
}

/** A module whose one export throws if constructed. */
function refusing(exportName: string, why: string): object {
  return {
    __esModule: true,
    [exportName]: class NotLoaded {
      constructor() {
        throw new NotLoadedError(why);
      }
    },
  };
}

/** Bolt's ways to register a listener (or a middleware that would run before the entry table's). */
const LISTENER_METHODS = ['use', 'event', 'message', 'shortcut', 'action', 'command', 'options', 'view', 'function', 'assistant'] as const;

/** A listener registered the Bolt way, once the app's one middleware is in place. */
export class BoltListenerRefusedError extends PixOpsError {
  readonly code = 'pixops_slack_listener_refused';

  constructor(method: string) {
    super(`app.${method}() is refused: every delivery goes through the entry table (src/entry/table.ts); add a row there`);
  }
}

/**
 * Makes Bolt's registration methods throw from now on: a listener added the Bolt way would never be
 * reached (the one middleware answers every delivery itself), so adding one fails loudly instead.
 */
export function refuseBoltListeners(app: BoltApp): void {
  for (const method of LISTENER_METHODS) {
    Object.defineProperty(app, method, {
      value: () => {
        throw new BoltListenerRefusedError(method);
      },
    });
  }
}
