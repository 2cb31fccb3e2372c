import type { ApprovalKind } from '../src/approvals/kinds';
import { approvalsOn, askApproval } from '../src/approvals/request';
import type { Deps } from '../src/deps';
import type { PayloadOf } from '../src/domain/approvals';
import { detectPixKey } from '../src/domain/pix-key-values';
import { type CommandRow, type EntryRow, UsageError } from '../src/entry/table';
import { type Locale, messages } from '../src/i18n';
import type { PixClient } from '../src/pix/client';
import { PixApiError } from '../src/pix/errors';
import type { Account } from '../src/pix/schemas';
import { KeyRefSchema, readCarried } from '../views/carried';
import { apiText, failureText, pixErrorText } from '../views/errors';
import { code, plain, section } from '../views/message';
import {
  keyAnnouncements,
  WITHDRAW_KEY_CANCEL_ACTION_ID,
  WITHDRAW_KEY_CONFIRM_ACTION_ID,
  withdrawConfirmMessage,
  withdrawKeyResultMessage,
} from '../views/pix-keys';
import { announcementMissedText, exclusive, logFailure, postAnnouncement, resolveAccountAppId } from './account-shared';
import { buttonValue, confirmOnce, say } from './confirm';
import { accountIdArg } from './parse';

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
export async function setWithdrawKey(
  pix: PixClient,
  appId: string,
  pixKey: string,
  first: 'POST' | 'PUT' = 'POST',
): Promise<{ account: Account; via: Array<'POST' | 'PUT'> }> {
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
    return messages(locale).pixKeys.withdrawNotEnabled({ account: code(accountId), ...(err.error ? { apiText: apiText(err.error) } : {}) });
  }
  return pixErrorText(locale, err, 'setWithdrawKey', { write: true });
}

const withdrawKeyCommand: CommandRow = {
  kind: 'command',
  id: 'withdraw-key',
  argsUsage: '<accountId> <pixKey>',
  summary: 'withdrawKey',
  what: 'prepareWithdrawKey',
  role: 'admin',
  minArgs: 2,
  maxArgs: 2,
  async handler({ deps, args, locale }) {
    const accountId = accountIdArg(locale, args[0]);
    // Checked before anything is sent: a malformed key would be a DICT lookup of a key that does not exist.
    const key = detectPixKey(locale, args[1] ?? '');
    if (!key.ok) throw new UsageError(key.problem);
    // Nothing to confirm for an account whose keys cannot be reached.
    const resolved = await resolveAccountAppId(deps, locale, accountId);
    if (!resolved.ok) return plain(resolved.text);
    return withdrawConfirmMessage(locale, { accountId, pixKey: key.pixKey });
  },
};

/** Confirm: only now is the key sent (each POST is a DICT lookup), once per confirmation. */
const withdrawConfirm: EntryRow = {
  kind: 'action',
  id: WITHDRAW_KEY_CONFIRM_ACTION_ID,
  role: 'admin',
  what: 'setWithdrawKey',
  async handler(args, ctx) {
    const { deps, userId, locale } = ctx;
    const m = messages(locale).confirmations;
    const ref = readCarried(KeyRefSchema, buttonValue(args.action));
    const key = ref ? detectPixKey(locale, ref.pixKey) : undefined;
    if (!ref || !key?.ok) return void (await say(args, ctx, plain(messages(locale).common.buttonNoPixKey)));
    if (!(await confirmOnce(args, ctx, `withdraw-key:${ref.accountId}`))) return void (await say(args, ctx, plain(m.alreadyConfirmed)));
    const payload: PayloadOf<'withdraw-key'> = { action: 'withdraw-key', accountId: ref.accountId, pixKey: key.pixKey };
    const channel = args.body.channel?.id;
    if (approvalsOn(deps, 'withdraw-key')) {
      const told = await askApproval(deps, { maker: { userId, locale }, channel: channel ?? userId, payload });
      return void (await say(args, ctx, plain(told), true));
    }
    const run = await exclusive(deps, `withdraw-key:${ref.accountId}`, async () => {
      const set = await setAccountWithdrawKey(deps, locale, payload);
      if (!set.ok) return void (await say(args, ctx, plain(set.problem), true));
      const posted = channel
        ? await postAnnouncement(
            deps,
            locale,
            channel,
            keyAnnouncements(locale).withdrawKey({ userId, accountId: ref.accountId, account: set.account, pixKey: key.pixKey }),
          )
        : undefined;
      const message = withdrawKeyResultMessage(locale, {
        account: set.account,
        accountId: ref.accountId,
        pixKey: key.pixKey,
        via: set.via,
      });
      if (channel && !posted) message.blocks.push(section(announcementMissedText(locale, channel).trim()));
      await say(args, ctx, message, true);
    });
    if (!run.ran) await say(args, ctx, plain(m.withdrawBeingSet));
  },
};

/**
 * The write path of the withdraw key, with or without approval: the account's AppID, then `POST`
 * (or `PUT`) `/api/v1/pix-keys/withdraw`.
 */
async function setAccountWithdrawKey(
  deps: Deps,
  locale: Locale,
  p: PayloadOf<'withdraw-key'>,
  beforeWrite?: () => Promise<void>,
): Promise<({ ok: true } & Awaited<ReturnType<typeof setWithdrawKey>>) | { ok: false; problem: string }> {
  let result: Awaited<ReturnType<typeof setWithdrawKey>>;
  try {
    const resolved = await resolveAccountAppId(deps, locale, p.accountId);
    if (!resolved.ok) return { ok: false, problem: resolved.text };
    await beforeWrite?.();
    result = await setWithdrawKey(deps.pix, resolved.appId, p.pixKey);
  } catch (err) {
    logFailure(deps, err, 'set the withdraw key');
    return {
      ok: false,
      problem:
        err instanceof PixApiError
          ? withdrawErrorText(locale, err, p.accountId)
          : failureText(locale, err, 'setWithdrawKey', { write: true }),
    };
  }
  deps.logger.info({ accountId: p.accountId, via: result.via }, 'withdraw key set');
  return { ok: true, ...result };
}

export const withdrawKeyApproval: ApprovalKind<'withdraw-key'> = {
  action: 'withdraw-key',
  async execute(run, p) {
    const set = await setAccountWithdrawKey(run.deps, run.locale, p, () => run.intent('set'));
    if (!set.ok) return set;
    await run.inThread(
      keyAnnouncements(run.locale).withdrawKey({
        userId: run.record.makerId,
        accountId: p.accountId,
        account: set.account,
        pixKey: p.pixKey,
      }),
    );
    return { ok: true };
  },
  async resume(run, p, intent) {
    if (intent?.step === 'set') {
      // The account read says which key it withdraws to: this one, and the write happened.
      const account = await run.deps.pix.getAccount(run.deps.mainAppId, p.accountId);
      if (account.pixKeyWithdraw?.pixKey === p.pixKey) {
        await run.inThread(
          keyAnnouncements(run.locale).withdrawKey({ userId: run.record.makerId, accountId: p.accountId, account, pixKey: p.pixKey }),
        );
        return { ok: true };
      }
    }
    return withdrawKeyApproval.execute(run, p);
  },
};

const withdrawCancel: EntryRow = {
  kind: 'action',
  id: WITHDRAW_KEY_CANCEL_ACTION_ID,
  role: 'viewer',
  what: 'cancelConfirmation',
  async handler(args, ctx) {
    await say(args, ctx, plain(messages(ctx.locale).confirmations.withdrawCancelled), true);
  },
};

/** `/pix withdraw-key` asks first; its Confirm sets the key, its Cancel does nothing. */
export const withdrawKeyRows: EntryRow[] = [withdrawKeyCommand, withdrawConfirm, withdrawCancel];
