import { BOOK_AHEAD_MS, PEOPLE_PLACES, WINDOW_MS } from '../../../src/pix/budget';
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
      expect(await a.admit(3, 0)).toEqual({ go: 0 });
      expect(await b.admit(3, 0)).toEqual({ go: 0 });
      expect(await a.admit(3, 0)).toEqual({ go: 0 });
      const fourth = await b.admit(3, 0);
      expect(fourth).toEqual({ wait: expect.any(Number) });
      const { wait } = fourth as { wait: number };
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(WINDOW_MS);

      const [c, d] = [(await space().open()).rateWindow!, (await space().open()).rateWindow!];
      await c.holdOff(60_000, 0);
      const held = await d.admit(100, 0);
      expect(held).toEqual({ wait: expect.any(Number) });
      expect((held as { wait: number }).wait).toBeGreaterThan(50_000);
    });

    test('the poller’s next turn, due within BOOK_AHEAD_MS, is booked for its time (0 < go ≤ BOOK_AHEAD_MS); asked earlier, it is told to wait', async () => {
      const window = (await space().open()).rateWindow!;
      // A turn every 10.2 ms: asked at once, the next is further ahead than BOOK_AHEAD_MS.
      const limit = 100;
      expect(await window.admit(limit, PEOPLE_PLACES)).toEqual({ go: 0 });
      let booked: number | undefined;
      // A timer late past the turn finds it due (go 0): asked again, the next one is booked.
      for (let ask = 0; ask < 10 && booked === undefined; ask++) {
        const admission = await window.admit(limit, PEOPLE_PLACES);
        if ('go' in admission) booked = admission.go > 0 ? admission.go : undefined;
        else {
          expect(admission.wait).toBeLessThanOrEqual(Math.ceil(WINDOW_MS / limit));
          await new Promise((r) => setTimeout(r, admission.wait));
        }
      }
      expect(booked).toBeGreaterThan(0);
      expect(booked).toBeLessThanOrEqual(BOOK_AHEAD_MS);
    });
  });
}
