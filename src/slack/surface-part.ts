import type { Part } from '../../views/part';
import { describeError } from '../errors';
import type { ActionKey } from '../i18n';
import { PixApiError } from '../pix/errors';
import type { Logger } from '../runtime/logger';

/**
 * A part of a surface (the Home tab, the digest), or what failed: the failure is put in words by the
 * view, in each reader's language; `surface` names it in the log.
 */
export async function part<T>(logger: Logger, action: ActionKey, read: () => Promise<T>, surface = 'Home tab'): Promise<Part<T>> {
  try {
    return { ok: true, value: await read() };
  } catch (err) {
    logger.warn({ ...describeError(err) }, `a part of the ${surface} could not be read`);
    return err instanceof PixApiError ? { ok: false, action, error: err } : { ok: false, action };
  }
}
