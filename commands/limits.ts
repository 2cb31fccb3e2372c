import type { CommandRow } from '../src/entry/table';
import { findDefaultAccountId } from '../src/pix/default-account';
import { limitsMessage } from '../views/limits-message';
import { optionalAccountIdArg } from './parse';

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
    const given = optionalAccountIdArg(locale, args[0]);
    const accountId = given ?? (await findDefaultAccountId(deps.pix, deps.mainAppId));
    const limits = await deps.pix.getLimits(deps.mainAppId, accountId);
    return limitsMessage(locale, { accountId, isDefault: given === undefined, limits });
  },
};
