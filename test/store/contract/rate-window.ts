import { WINDOW_MS } from '../../../src/pix/budget';
import { type BackendUnderTest, eachSpace } from './backend';

/** The Pix budget's window: one for every instance where the backend shares it; else each process counts its own. */
export function rateWindowContract(backend: BackendUnderTest): void {
  describe(`the Pix budget's window on ${backend.name}`, () => {
    const space = eachSpace(backend);

    if (!backend.sharesRateWindow) {
      test('not shared: each process counts its own (no window in the store)', async () => {
        expect((await space().open()).rateWindow).toBeUndefined();
      });
      return;
    }

    test('one window for two instances: the limit is theirs together; a hold-off holds both', async () => {
      const [a, b] = [(await space().open()).rateWindow!, (await space().open()).rateWindow!];
      // A limit of 3 a second, people's lane (no reserve): three admitted between them, the fourth told to wait.
      expect(await a.admit(3, 0)).toBe(0);
      expect(await b.admit(3, 0)).toBe(0);
      expect(await a.admit(3, 0)).toBe(0);
      const wait = await b.admit(3, 0);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(WINDOW_MS);

      const [c, d] = [(await space().open()).rateWindow!, (await space().open()).rateWindow!];
      await c.holdOff(60_000, 0);
      const held = await d.admit(100, 0);
      expect(held).toBeGreaterThan(50_000);
    });
  });
}
