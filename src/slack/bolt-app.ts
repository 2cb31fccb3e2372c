import type BoltApp from '@slack/bolt/dist/App';
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

/** A module whose one export throws if constructed. */
function refusing(exportName: string, why: string): object {
  return {
    __esModule: true,
    [exportName]: class NotLoaded {
      constructor() {
        throw new Error(why);
      }
    },
  };
}
