import Module from 'node:module';
import type BoltApp from '@slack/bolt/dist/App';

/**
 * Bolt's App class, loaded with only what the configured mode needs (start-up time).
 *
 * Not Bolt's index: it also loads the Express and AWS Lambda receivers, which this app never uses.
 * (The package has no `exports` map, so `dist/App` is a public path.) And App itself requires both
 * of its receivers when it loads; the Socket Mode one brings @slack/socket-mode and undici, about a
 * seventh of a second, which HTTP mode never constructs. In HTTP mode that one module is therefore
 * given a stand-in that refuses to be constructed, before App is loaded.
 */
export function loadBoltApp(mode: 'http' | 'socket'): typeof BoltApp {
  if (mode === 'http') {
    const id = require.resolve('@slack/bolt/dist/receivers/SocketModeReceiver');
    if (!require.cache[id]) {
      const standIn = new Module(id);
      standIn.loaded = true;
      standIn.exports = {
        __esModule: true,
        default: class SocketModeNotLoaded {
          constructor() {
            throw new Error('Socket Mode is not loaded in HTTP mode (SLACK_APP_TOKEN was not set at start)');
          }
        },
      };
      require.cache[id] = standIn;
    }
  }
  return (require('@slack/bolt/dist/App') as typeof import('@slack/bolt/dist/App')).default;
}
