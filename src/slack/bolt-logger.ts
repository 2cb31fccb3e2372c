import { LogLevel, type Logger as SlackLogger } from '@slack/web-api';
import type { Logger } from '../runtime/logger';

/** Bolt and the Web API client log through our pino logger, so its redaction covers them too. */
export function boltLogger(logger: Logger): SlackLogger {
  const child = logger.child({ component: 'slack' });
  const line = (msg: unknown[]) =>
    msg.map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m))).join(' ');
  return {
    debug: (...msg) => child.debug(line(msg)),
    info: (...msg) => child.info(line(msg)),
    warn: (...msg) => child.warn(line(msg)),
    error: (...msg) => child.error(line(msg)),
    setLevel: () => undefined,
    getLevel: () => (child.isLevelEnabled('debug') ? LogLevel.DEBUG : LogLevel.INFO),
    setName: () => undefined,
  };
}
