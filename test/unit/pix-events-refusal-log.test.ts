import { REFUSAL_LOG_INTERVAL_MS, RefusalLog } from '../../src/pix-events/refusal-log';
import { createLogger } from '../../src/runtime/logger';

/** Webhooks refused for their signature: anyone can send them, so the log says so at most once a minute. */
describe('the log of refused webhook signatures', () => {
  test('one line at the first refusal, then one a minute at most, with the count since the last line', () => {
    let now = 5_000_000;
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    const log = new RefusalLog(logger, () => now);

    log.refused(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ refused: 1, unsigned: 1, invalid: 0 });

    for (let i = 0; i < 500; i++) {
      now += 100;
      log.refused(i % 2 === 0);
    }
    // 50 s of refusals: no line more.
    expect(lines).toHaveLength(1);
    now = 5_000_000 + REFUSAL_LOG_INTERVAL_MS;
    log.refused(true);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ refused: 501, unsigned: 250, invalid: 251 });
    expect(String(lines[1]!.msg)).toMatch(/signature/);
    now += 1;
    log.refused(true);
    expect(lines).toHaveLength(2);
  });
});
