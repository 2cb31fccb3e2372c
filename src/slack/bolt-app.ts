import { App, type CustomRoute, HTTPReceiver, LogLevel, SocketModeReceiver } from '@slack/bolt';
import type { Logger, WebClientOptions } from '@slack/web-api';
import { PixOpsError } from '../errors';

export interface BoltAppSettings {
  botToken: string;
  /** Socket Mode when set; HTTP mode otherwise. */
  appToken?: string;
  /** HTTP mode: the secret every delivery's signature is checked with. */
  signingSecret?: string;
  /** Every Web API client's options (slack/clients.ts): SLACK_API_URL, the counting fetch. */
  clientOptions: WebClientOptions;
  logger: Logger;
  /** HTTP mode: routes served beside /slack/events on the same port. */
  customRoutes: CustomRoute[];
}

export interface BoltParts {
  app: App;
  /** Socket Mode: the connection's client, whose events say whether the socket is up. */
  socket?: SocketModeReceiver['client'];
}

/**
 * Bolt's App, with the receiver of the mode built here and handed to it, so that the app holds the
 * receiver's public parts (its Socket Mode client) rather than reaching into the App for them
 * (https://docs.slack.dev/tools/bolt-js/concepts/socket-mode, "Custom SocketMode Receiver").
 */
export function createBoltApp(settings: BoltAppSettings): BoltParts {
  const common = { logger: settings.logger, logLevel: LogLevel.INFO };
  // Each gets its own copy of the options: Bolt's App and the Socket Mode client add to what they are
  // given (the logger; the retries of apps.connections.open), which the app's other clients must not inherit.
  const socketReceiver = settings.appToken
    ? new SocketModeReceiver({
        ...common,
        appToken: settings.appToken,
        // The Socket Mode client makes its Web API calls (apps.connections.open) with these options:
        // SLACK_API_URL like every other call, and counted.
        installerOptions: { clientOptions: { ...settings.clientOptions } },
      })
    : undefined;
  const receiver =
    socketReceiver ??
    new HTTPReceiver({
      ...common,
      signingSecret: settings.signingSecret ?? '',
      customRoutes: settings.customRoutes,
    });
  const app = new App({
    ...common,
    token: settings.botToken,
    receiver,
    clientOptions: { ...settings.clientOptions },
    // Bolt's conversation context is unused here, and its store rejects with a new Error (a stack
    // trace) on every delivery of a conversation it does not know: a tenth of the ack's CPU under load.
    convoStore: false,
  });
  return { app, ...(socketReceiver ? { socket: socketReceiver.client } : {}) };
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
export function refuseBoltListeners(app: App): void {
  for (const method of LISTENER_METHODS) {
    Object.defineProperty(app, method, {
      value: () => {
        throw new BoltListenerRefusedError(method);
      },
    });
  }
}
