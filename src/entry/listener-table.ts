import type { App } from '@slack/bolt';

// Bolt's middleware/listener arguments: what the router passes through unchanged.
type Args = Record<string, any>;
type Handler = (args: Args) => unknown;

interface Route {
  constraint: string | RegExp;
  handler: Handler;
}

type Kind = 'action' | 'view' | 'shortcut' | 'event';

/** Which kind of registration a delivery is for, and the id it is routed by. */
function kindAndId(args: Args): [Kind, unknown] | undefined {
  switch (args.body?.type) {
    case 'block_actions':
      return ['action', args.action?.action_id];
    case 'view_submission':
      return ['view', args.view?.callback_id];
    case 'shortcut':
    case 'message_action':
      return ['shortcut', args.shortcut?.callback_id];
    case 'event_callback':
      return ['event', args.event?.type];
    default:
      return undefined;
  }
}
const MATCHES_KEY: Record<Kind, string> = { action: 'actionIdMatches', view: 'callbackIdMatches', shortcut: 'callbackIdMatches', event: 'matches' };

/**
 * The app's entry points routed by one table instead of one Bolt listener each.
 *
 * Bolt runs the middleware chain of every registered listener for every request (each chain's first
 * step only checks whether the request is its kind), spreading the whole argument object at every
 * step: with the app's twenty-odd entry points that was most of the CPU an acknowledgement cost
 * under load (about 7 µs a listener, for every request). So the entry points are registered on a
 * facade of the app that records them here, and the global middleware routes each delivery to its
 * handlers by id, with Bolt's own matching: the block action's `action_id`; the `callback_id` of a
 * view submission or a shortcut; the event's type (a string equals the id; a RegExp matches it, and
 * its matches go to the context as Bolt's do). Bolt's listeners then only see what the table does
 * not route (the slash command, which has a listener of its own, and anything registered with
 * constraints the table does not take, which is passed to Bolt as it is).
 */
export class ListenerTable {
  private readonly routes: Record<Kind, Route[]> = { action: [], view: [], shortcut: [], event: [] };

  /** A stand-in for `app` whose action/view/shortcut/event registrations land in this table. */
  facade(app: App): App {
    const record = (kind: Kind) => (constraint: unknown, ...listeners: unknown[]) => {
      const [handler] = listeners;
      if ((typeof constraint === 'string' || constraint instanceof RegExp) && listeners.length === 1 && typeof handler === 'function') {
        this.routes[kind].push({ constraint, handler: handler as Handler });
      } else {
        (app[kind] as (...a: unknown[]) => void)(constraint, ...listeners);
      }
    };
    const own: Record<Kind, (...a: unknown[]) => void> = { action: record('action'), view: record('view'), shortcut: record('shortcut'), event: record('event') };
    return new Proxy(app, {
      get(target, prop) {
        if (typeof prop === 'string' && prop in own) return own[prop as Kind];
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  /**
   * Runs the handlers this delivery is for, like Bolt would (every match runs; one failure is thrown
   * as it is). Resolves false when the table has none, so Bolt's listeners get the delivery.
   */
  async route(args: Args): Promise<boolean> {
    const found = kindAndId(args);
    if (!found) return false;
    const [kind, id] = found;
    if (typeof id !== 'string') return false;
    const runs: unknown[] = [];
    for (const route of this.routes[kind]) {
      if (typeof route.constraint === 'string') {
        if (route.constraint === id) runs.push(route.handler({ ...args, next: noop }));
        continue;
      }
      const matches = id.match(route.constraint);
      if (matches) runs.push(route.handler({ ...args, next: noop, context: Object.assign(args.context, { [MATCHES_KEY[kind]]: matches }) }));
    }
    if (runs.length === 0) return false;
    if (runs.length === 1) {
      await runs[0];
      return true;
    }
    const settled = await Promise.allSettled(runs);
    const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed.length) throw failed[0]!.reason;
    return true;
  }
}

function noop(): void {}
