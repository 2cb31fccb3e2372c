import type { FilingIntent } from '../../../src/store/filing-intents';
import { type BackendUnderTest, eachSpace } from './backend';

const intent = (id: string, createdAt: string): FilingIntent => ({
  intentId: id,
  requesterId: 'U0REQUEST1',
  channel: 'C0FINANCE1',
  accountId: '6840aeca23c0d1fe48c856a3',
  current: { pixDayLimit: 500_000 },
  requested: { pixDayLimit: 700_000 },
  documents: [{ fileName: 'proof.pdf', contentType: 'application/pdf' }],
  createdAt,
});

/** Filing intents: recorded before the Pix call, listed oldest first from their index, a dangling id dropped once old. */
export function filingIntentsContract(backend: BackendUnderTest): void {
  describe(`filing intents on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('oldest first, as recorded; a deleted one gone; seen by a second instance and after a restart', async () => {
      const a = await space().open();
      const older = intent('older', '2026-01-01T10:00:00.000Z');
      await a.filingIntents.record(intent('newer', '2026-01-01T10:00:02.000Z'));
      await a.filingIntents.record(older);
      await a.filingIntents.record(intent('gone', '2026-01-01T10:00:01.000Z'));
      const b = await space().open();
      await b.filingIntents.delete('gone');
      expect(await a.filingIntents.list()).toEqual([older, intent('newer', '2026-01-01T10:00:02.000Z')]);
      await a.close();
      const restarted = await space().open();
      expect((await restarted.filingIntents.list()).map((i) => i.intentId)).toEqual(['older', 'newer']);
      await restarted.filingIntents.delete('nope');
    });

    test('an indexed id without its record: kept while young (a filing writing it), dropped once old', async () => {
      const { backend: parts } = await space().openBackend();
      const store = await space().open();
      const at = Date.parse('2026-01-01T10:00:00.000Z');
      await (await space().sortedIndex(backend.filingIntentsIndex)).put('ghost', at);
      expect(await store.filingIntents.list(at + 1_000)).toEqual([]);
      expect((await parts.filingIntents.indexed()).map((e) => e.id)).toEqual(['ghost']);
      await store.filingIntents.list(at + 5 * 60_000);
      expect(await parts.filingIntents.indexed()).toEqual([]);
    });
  });
}
