import { z } from 'zod';
import type { Entry } from '../src/entries';
import { PixApiError } from '../src/pix/errors';
import { applicationAudit, rotatedMessage, scopesMessage } from '../views/applications';
import { pixErrorText } from '../views/errors';
import { plain, section } from '../views/message';
import { auditMissedText, logFailure, postAudit } from './account-shared';
import { UsageError, type CommandDef } from './types';

const ROTATE_ACTION = 'rotate the secret';

export const ROTATE_MASTER_MISSING_TEXT =
  'Rotating a secret needs the MASTER application, and no `PIX_MASTER_APP_ID` is set. Set it in the bot’s environment and restart it. Nothing was rotated.';

/** Client ids as the service hands them out (`Client_Id_<uuid>` in practice); never path syntax. */
const ClientIdSchema = z.string().regex(/^[A-Za-z0-9_.:-]{1,200}$/);

/** Every string under a key matching `pattern`, anywhere in the answer (its shape is not shown). */
function stringsUnder(json: unknown, pattern: RegExp, depth = 0): string[] {
  if (depth > 5 || json === null || typeof json !== 'object') return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(json as Record<string, unknown>)) {
    if (typeof value === 'string' && pattern.test(key)) out.push(value);
    else out.push(...stringsUnder(value, pattern, depth + 1));
  }
  return out;
}

const scopesCommand: CommandDef = {
  path: ['scopes'],
  argsUsage: '',
  summary: 'the scope groups an application can request',
  action: 'read the scopes',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 0,
  async run({ deps }) {
    return scopesMessage(await deps.pix.listScopes(deps.mainAppId));
  },
};

const rotateSecretCommand: CommandDef = {
  path: ['rotate-secret'],
  argsUsage: '<clientId>',
  summary: 'rotate an application’s client secret; the new one is shown only to you',
  action: ROTATE_ACTION,
  role: 'admin',
  minArgs: 1,
  maxArgs: 1,
  async run({ deps, args, userId, channelId }) {
    const clientId = args[0] ?? '';
    if (!ClientIdSchema.safeParse(clientId).success) throw new UsageError('That is not a client id.');
    if (!deps.masterAppId) return plain(ROTATE_MASTER_MISSING_TEXT);
    let answer: unknown;
    try {
      answer = await deps.pix.rotateSecret(deps.masterAppId, clientId);
    } catch (err) {
      if (!(err instanceof PixApiError)) throw err;
      logFailure(deps, err, ROTATE_ACTION);
      return plain(pixErrorText(err, ROTATE_ACTION, { write: true }));
    }
    // Before anything else: from here on no log line may show them.
    const secrets = stringsUnder(answer, /secret/i);
    const appIds = stringsUnder(answer, /^app_?id$/i);
    for (const value of [...secrets, ...appIds]) deps.secrets.add(value);
    deps.logger.info({ clientId, user: userId }, 'client secret rotated');

    const posted = await postAudit(deps, channelId, applicationAudit.rotated({ userId, clientId }));
    const message = rotatedMessage({ clientId, clientSecret: stringsUnder(answer, /^clientSecret$/)[0] ?? secrets[0], newAppId: appIds.length > 0 });
    if (!posted) message.blocks.push(section(auditMissedText(channelId).trim()));
    return message;
  },
};

export const applicationCommands: CommandDef[] = [scopesCommand, rotateSecretCommand];
export const applicationEntries: Entry[] = [];
