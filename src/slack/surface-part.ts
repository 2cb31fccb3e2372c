import type { Part } from '../../views/part';
import type { Deps } from '../entry/deps';
import { describeError } from '../errors';
import type { ActionKey } from '../i18n';
import { PixApiError } from '../pix/errors';

/**
 * A part of a surface (the Home tab, the digest), or what failed: the failure is put in words by the
 * view, in each reader's language; `surface` names it in the log.
 */
export async function part<T>(deps: Deps, action: ActionKey, read: () => Promise<T>, surface = 'Home tab'): Promise<Part<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (err) {
    deps.logger.warn({ ...describeError(err) }, `a part of the ${surface} could not be read`);
    return err instanceof PixApiError ? { ok: false, action, error: err } : { ok: false, action };
  }
}
