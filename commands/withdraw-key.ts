import { messages, type Locale } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import type { PixClient } from '../src/pix/client';
import type { Account } from '../src/pix/schemas';
import { detectPixKey } from '../src/domain/pix-key-values';
import { code } from '../views/accounts';
import { pixErrorText } from '../views/errors';
import { escapeMrkdwn, plain, section } from '../views/message';
import { keyAudit, withdrawKeyResultMessage } from '../views/pix-keys';
import { auditMissedText, logFailure, postAudit, resolveAccountAppId } from './account-shared';
import { accountIdArg } from './parse';
import { UsageError, type CommandRow } from '../src/entry/table';

/** "The company already has that withdraw key": the 400 of `POST` whose text says so. */
export function alreadyExists(err: PixApiError): boolean {
  if (err.kind !== 'http' || err.status !== 400) return false;
  return /already[\s_-]*(exist|registered)|j[áa] (existe|cadastrad)/i.test(`${err.error ?? ''} ${err.errorCode ?? ''}`);
}

/**
 * `POST` registers and selects the key; when the company already has it (400 "already exists"),
 * `PUT` selects it; a 404 on `PUT` means it does not, so `POST`. Each method at most once: every
 * `POST` is a DICT lookup, which the central bank limits, so nothing is tried twice.
 */
export async function setWithdrawKey(pix: PixClient, appId: string, pixKey: string, first: 'POST' | 'PUT' = 'POST'): Promise<{ account: Account; via: Array<'POST' | 'PUT'> }> {
  const via: Array<'POST' | 'PUT'> = [];
  let method = first;
  for (;;) {
    via.push(method);
    try {
      const account = method === 'POST' ? await pix.registerWithdrawKey(appId, pixKey) : await pix.selectWithdrawKey(appId, pixKey);
      return { account, via };
    } catch (err) {
      if (!(err instanceof PixApiError)) throw err;
      if (method === 'POST' && alreadyExists(err) && !via.includes('PUT')) method = 'PUT';
      else if (method === 'PUT' && err.kind === 'http' && err.status === 404 && !via.includes('POST')) method = 'POST';
      else throw err;
    }
  }
}

function withdrawErrorText(locale: Locale, err: PixApiError, accountId: string): string {
  if (err.kind === 'http' && err.status === 403 && !err.missingScope) {
    return messages(locale).pixKeys.withdrawNotEnabled({ account: code(accountId), ...(err.error ? { apiText: escapeMrkdwn(err.error) } : {}) });
  }
  return pixErrorText(locale, err, 'setWithdrawKey', { write: true });
}

export const withdrawKeyCommand: CommandRow = {
  kind: 'command',
  id: 'withdraw-key',
  argsUsage: '<accountId> <pixKey>',
  summary: 'withdrawKey',
  what: 'setWithdrawKey',
  role: 'admin',
  minArgs: 2,
  maxArgs: 2,
  async handler({ deps, args, userId, channelId, locale }) {
    const accountId = accountIdArg(locale, args[0]);
    // Checked before anything is sent: a malformed key would be a DICT lookup of a key that does not exist.
    const key = detectPixKey(locale, args[1] ?? '');
    if (!key.ok) throw new UsageError(key.problem);
    const resolved = await resolveAccountAppId(deps, locale, accountId);
    if (!resolved.ok) return plain(resolved.text);

    let result: Awaited<ReturnType<typeof setWithdrawKey>>;
    try {
      result = await setWithdrawKey(deps.pix, resolved.appId, key.pixKey);
    } catch (err) {
      if (!(err instanceof PixApiError)) throw err;
      logFailure(deps, err, 'set the withdraw key');
      return plain(withdrawErrorText(locale, err, accountId));
    }
    deps.logger.info({ accountId, via: result.via, user: userId }, 'withdraw key set');
    const posted = await postAudit(deps, locale, channelId, keyAudit(locale).withdrawKey({ userId, accountId, account: result.account, pixKey: key.pixKey }));
    const message = withdrawKeyResultMessage(locale, { account: result.account, accountId, pixKey: key.pixKey, via: result.via });
    if (!posted) message.blocks.push(section(auditMissedText(locale, channelId).trim()));
    return message;
  },
};
