import { randomUUID } from 'node:crypto';
import { MemoryClaims } from '../../src/store/claims';
import { holdClaim } from '../../src/store/held-claim';
import { waitFor } from '../support/wait';

// A claim held through work that outlasts its life (an approval's run, a filing's uploads).
describe('holdClaim', () => {
  const TTL = 300;

  test('kept past its life while held; given up on release; refused while another holds it', async () => {
    const space = randomUUID();
    const mine = new MemoryClaims(space, 'me');
    const theirs = new MemoryClaims(space, 'them');
    const held = await holdClaim(mine, 'work', TTL, () => undefined);
    expect(held).toBeDefined();
    expect(await holdClaim(theirs, 'work', TTL, () => undefined)).toBeUndefined();
    // Three lives on, renewed meanwhile: still mine, still refused to them.
    const started = Date.now();
    await waitFor('three of its lives', () => Date.now() - started > 3 * TTL);
    expect(await held!.stillHeld()).toBe(true);
    expect(await theirs.claim('work', TTL)).toBe(false);
    await held!.release();
    expect(await theirs.claim('work', TTL)).toBe(true);
  });

  test('lost for good once a renewal finds it lapsed (taken by another meanwhile)', async () => {
    let now = Date.now();
    const space = randomUUID();
    const mine = new MemoryClaims(space, 'me', () => now);
    const theirs = new MemoryClaims(space, 'them', () => now);
    const held = await holdClaim(mine, 'work', TTL, () => undefined);
    // Its whole life passes on the store's clock with no renewal (a stalled process): another takes it.
    now += 2 * TTL;
    expect(await theirs.claim('work', TTL)).toBe(true);
    await waitFor('the loss seen', async () => !(await held!.stillHeld()));
    expect(await held!.stillHeld()).toBe(false);
    // Releasing it leaves the other's claim alone.
    await held!.release();
    expect(await theirs.renew('work', TTL)).toBe(true);
  });
});
