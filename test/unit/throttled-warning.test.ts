import { createLogger } from '../../src/runtime/logger';
import { THROTTLED_WARNING_INTERVAL_MS, ThrottledWarning } from '../../src/runtime/throttled-warning';

/** Warnings anyone can cause (forged webhooks, bodies over a limit): the log says so at most once a minute. */
describe('a throttled warning', () => {
  test('one line at the first, then one a minute at most, with the count since the last line, in all and by kind', () => {
    let now = 5_000_000;
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    const log = new ThrottledWarning({
      logger,
      message: 'webhooks refused: missing or invalid signature',
      total: 'refused',
      kinds: ['unsigned', 'invalid'],
      now: () => now,
    });

    log.note('unsigned');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ refused: 1, unsigned: 1, invalid: 0 });

    for (let i = 0; i < 500; i++) {
      now += 100;
      log.note(i % 2 === 0 ? 'invalid' : 'unsigned');
    }
    // 50 s of them: no line more.
    expect(lines).toHaveLength(1);
    now = 5_000_000 + THROTTLED_WARNING_INTERVAL_MS;
    log.note('invalid');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ refused: 501, unsigned: 250, invalid: 251 });
    expect(String(lines[1]!.msg)).toMatch(/signature/);
    now += 1;
    log.note('invalid');
    expect(lines).toHaveLength(2);
  });

  test('with no kinds: the total alone', () => {
    let now = 0;
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    const log = new ThrottledWarning({ logger, message: 'events too old', total: 'tooOld', now: () => now });
    log.note();
    log.note();
    now += THROTTLED_WARNING_INTERVAL_MS;
    log.note();
    expect(lines.map(({ tooOld, msg }) => ({ tooOld, msg }))).toEqual([
      { tooOld: 1, msg: 'events too old' },
      { tooOld: 2, msg: 'events too old' },
    ]);
  });
});
