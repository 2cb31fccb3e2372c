import { readDigestData } from '../src/digest/data';
import type { CommandRow } from '../src/entry/table';
import { digestMessage } from '../views/digest';

/** `/pix digest`: the morning digest, now, to the caller alone (its Pix read in a person's lane). */
export const digestCommand: CommandRow = {
  kind: 'command',
  id: 'digest',
  argsUsage: '',
  summary: 'digest',
  what: 'readDigest',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 0,
  async handler({ deps, locale }) {
    const data = await readDigestData({ deps, pix: deps.pix, now: new Date() }, deps.digest.belowCents);
    return digestMessage(locale, data);
  },
};
