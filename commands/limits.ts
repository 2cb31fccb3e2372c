import { findDefaultAccountId } from '../src/pix/default-account';
import { messages } from '../src/i18n';
import { limitsMessage } from '../views/limits-message';
import { PixIdSchema } from './parse';
import { UsageError, type CommandRow } from '../src/entry/table';

export const limitsCommand: CommandRow = {
  kind: 'command',
  id: 'limits',
  argsUsage: '[accountId]',
  summary: 'limits',
  what: 'readLimits',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 1,
  async handler({ deps, args, locale }) {
    const [given] = args;
    if (given !== undefined && !PixIdSchema.safeParse(given).success) throw new UsageError(messages(locale).usage.notAccountId);
    const accountId = given ?? (await findDefaultAccountId(deps.pix, deps.mainAppId));
    const limits = await deps.pix.getLimits(deps.mainAppId, accountId);
    return limitsMessage(locale, { accountId, isDefault: given === undefined, limits });
  },
};
