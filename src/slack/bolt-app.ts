import Module from 'node:module';
import type BoltApp from '@slack/bolt/dist/App';

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
  standIn(require.resolve('@slack/oauth', { paths: [receivers] }), 'InstallProvider', 'OAuth installation is not used by Pix Ops');
  if (mode === 'http') {
    standIn(require.resolve('@slack/bolt/dist/receivers/SocketModeReceiver'), 'default', 'Socket Mode is not loaded in HTTP mode (SLACK_APP_TOKEN was not set at start)');
  }
  return (require('@slack/bolt/dist/App') as typeof import('@slack/bolt/dist/App')).default;
}

/** Puts a module in the require cache, unless it is loaded already, whose one export throws if constructed. */
function standIn(id: string, exportName: string, why: string): void {
  if (require.cache[id]) return;
  const module = new Module(id);
  module.loaded = true;
  module.exports = {
    __esModule: true,
    [exportName]: class NotLoaded {
      constructor() {
        throw new Error(why);
      }
    },
  };
  require.cache[id] = module;
}
