import { findDefaultAccountId } from '../src/default-account';
import { limitsMessage } from '../views/limits';
import { PixIdSchema } from './parse';
import { UsageError, type CommandDef } from './types';

export const limitsCommand: CommandDef = {
  path: ['limits'],
  argsUsage: '[accountId]',
  summary: "an account's current limits (the default account when none is given)",
  action: 'read the limits',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 1,
  async run({ deps, args }) {
    const [given] = args;
    if (given !== undefined && !PixIdSchema.safeParse(given).success) throw new UsageError('That is not an account id.');
    const accountId = given ?? (await findDefaultAccountId(deps.pix, deps.mainAppId));
    const limits = await deps.pix.getLimits(deps.mainAppId, accountId);
    return limitsMessage({ accountId, isDefault: given === undefined, limits });
  },
};
