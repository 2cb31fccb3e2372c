import { z } from 'zod';
import type { ApprovalKind } from '../src/approvals/kinds';
import { approvalsOn, askApproval } from '../src/approvals/request';
import type { Deps } from '../src/deps';
import type { PayloadOf } from '../src/domain/approvals';
import type { EntryRow } from '../src/entry/table';
import { type CommandRow, UsageError } from '../src/entry/table';
import type { Locale } from '../src/i18n';
import { messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import {
  applicationAnnouncements,
  ROTATE_SECRET_CANCEL_ACTION_ID,
  ROTATE_SECRET_CONFIRM_ACTION_ID,
  rotateConfirmMessage,
  rotatedMessage,
  scopesMessage,
} from '../views/applications';
import { failureText } from '../views/errors';
import { code, plain, type SlackMessage, section } from '../views/message';
import { announcementMissedText, exclusive, logFailure, postAnnouncement } from './account-shared';
import { buttonValue, confirmOnce, say } from './confirm';

/** Client ids as the service hands them out (`Client_Id_<uuid>` in practice); never path syntax (`.`, `..`). */
const ClientIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,200}$/)
  .refine((id) => !/^\.+$/.test(id));

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

const scopesCommand: CommandRow = {
  kind: 'command',
  id: 'scopes',
  argsUsage: '',
  summary: 'scopes',
  what: 'readScopes',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 0,
  async handler({ deps, locale }) {
    return scopesMessage(locale, await deps.pix.listScopes(deps.mainAppId));
  },
};

/**
 * What a rotation did to the AppID the bot stores for the application, if it stores one: replaced by
 * the new one when the service sent it; else checked with a read (the interface does not say whether
 * an AppID outlives its secret), and marked stale when the Pix API refuses it. A new AppID of an
 * application the bot does not store is shown to the admin alone, once.
 */
async function storedAppIdAfterRotation(
  deps: Deps,
  locale: Locale,
  clientId: string,
  newAppId: string | undefined,
): Promise<{ shownAppId?: string; storedAppId?: string }> {
  const m = messages(locale).applications;
  const stored = await deps.store.accountApps.findByClientId(clientId).catch((err: unknown) => {
    logFailure(deps, err, 'look up the stored AppID of a rotated application');
    return undefined;
  });
  if (!stored) return newAppId ? { shownAppId: newAppId } : {};
  const account = code(stored.accountId);
  // The secret is rotated already: whatever fails here is told beside it, never instead of it.
  const unchecked = (err: unknown) => ({
    storedAppId: m.storedAppIdUnchecked({ account, accountId: stored.accountId, problem: failureText(locale, err, 'checkAppId') }),
  });
  try {
    if (newAppId) {
      await deps.store.accountApps.save({ accountId: stored.accountId, appId: newAppId, clientId, name: stored.name });
      return { storedAppId: m.storedAppIdReplaced(account) };
    }
    await deps.pix.listPixKeys(stored.appId);
    return { storedAppId: m.storedAppIdWorks(account) };
  } catch (err) {
    if (!(err instanceof PixApiError && err.kind === 'http' && err.status === 401)) {
      logFailure(deps, err, 'update or check the stored AppID of a rotated application');
      return { ...(newAppId ? { shownAppId: newAppId } : {}), ...unchecked(err) };
    }
    try {
      await deps.store.accountApps.markStale(stored.accountId);
      return { storedAppId: m.storedAppIdStale({ account, accountId: stored.accountId }) };
    } catch (storeErr) {
      logFailure(deps, storeErr, 'mark the stored AppID of a rotated application stale');
      return unchecked(err);
    }
  }
}

const rotateSecretCommand: CommandRow = {
  kind: 'command',
  id: 'rotate-secret',
  argsUsage: '<clientId>',
  summary: 'rotateSecret',
  what: 'prepareRotation',
  role: 'admin',
  minArgs: 1,
  maxArgs: 1,
  async handler({ deps, args, locale }) {
    const m = messages(locale);
    const clientId = args[0] ?? '';
    if (!ClientIdSchema.safeParse(clientId).success) throw new UsageError(m.usage.notClientId);
    if (!deps.masterAppId) return plain(m.applications.masterMissing);
    return rotateConfirmMessage(locale, clientId);
  },
};

/** Confirm: only now is the secret rotated, once per confirmation; the new one is shown to the admin alone. */
const rotateConfirm: EntryRow = {
  kind: 'action',
  id: ROTATE_SECRET_CONFIRM_ACTION_ID,
  role: 'admin',
  what: 'rotateSecret',
  async handler(args, ctx) {
    const { deps, userId, locale } = ctx;
    const m = messages(locale);
    const clientId = buttonValue(args.action);
    if (!clientId || !ClientIdSchema.safeParse(clientId).success)
      return void (await say(args, ctx, plain(m.confirmations.buttonNoClientId)));
    const masterAppId = deps.masterAppId;
    if (!masterAppId) return void (await say(args, ctx, plain(m.applications.masterMissing), true));
    if (!(await confirmOnce(args, ctx, `rotate-secret:${clientId}`)))
      return void (await say(args, ctx, plain(m.confirmations.alreadyConfirmed)));
    const channel = args.body.channel?.id;
    if (approvalsOn(deps, 'rotate-secret')) {
      const told = await askApproval(deps, {
        maker: { userId, locale },
        channel: channel ?? userId,
        payload: { action: 'rotate-secret', clientId },
      });
      return void (await say(args, ctx, plain(told), true));
    }
    const run = await exclusive(deps, `rotate-secret:${clientId}`, async () => {
      const rotated = await rotateSecret(deps, locale, masterAppId, { action: 'rotate-secret', clientId });
      if (!rotated.ok) return void (await say(args, ctx, plain(rotated.problem), true));
      const posted = channel
        ? await postAnnouncement(deps, locale, channel, applicationAnnouncements(locale).rotated({ userId, clientId }))
        : undefined;
      const message = rotated.message;
      if (channel && !posted) message.blocks.push(section(announcementMissedText(locale, channel).trim()));
      // In place of the confirmation, which only this admin sees: the new secret goes nowhere else.
      await say(args, ctx, message, true);
    });
    if (!run.ran) await say(args, ctx, plain(m.confirmations.rotateBeingDone));
  },
};

/**
 * The write path of `rotate-secret`, with or without approval: `POST /api/v1/application/rotate-secret`
 * with the MASTER AppID, then what became of a stored AppID. The message carries the new secret: for
 * the admin who asked, and nobody else.
 */
async function rotateSecret(
  deps: Deps,
  locale: Locale,
  masterAppId: string,
  p: PayloadOf<'rotate-secret'>,
  beforeWrite?: () => Promise<void>,
): Promise<{ ok: true; message: SlackMessage } | { ok: false; problem: string }> {
  let answer: unknown;
  try {
    await beforeWrite?.();
    answer = await deps.pix.rotateSecret(masterAppId, p.clientId);
  } catch (err) {
    logFailure(deps, err, 'rotate the secret');
    return { ok: false, problem: failureText(locale, err, 'rotateSecret', { write: true }) };
  }
  // Before anything else: from here on no log line may show them.
  const secrets = stringsUnder(answer, /secret/i);
  const appIds = stringsUnder(answer, /^app_?id$/i);
  for (const value of [...secrets, ...appIds]) deps.secrets.add(value);
  deps.logger.info({ clientId: p.clientId }, 'client secret rotated');
  const stored = await storedAppIdAfterRotation(deps, locale, p.clientId, appIds[0]);
  return {
    ok: true,
    message: rotatedMessage(locale, {
      clientId: p.clientId,
      clientSecret: stringsUnder(answer, /^clientSecret$/)[0] ?? secrets[0],
      ...stored,
    }),
  };
}

export const rotateSecretApproval: ApprovalKind<'rotate-secret'> = {
  action: 'rotate-secret',
  async execute(run, p) {
    const { deps, locale, record } = run;
    const m = messages(locale);
    if (!deps.masterAppId) return { ok: false, problem: m.applications.masterMissing };
    // The new secret can only go to the maker's DM: unless it opens, nothing is rotated.
    if (!(await run.makerReachable())) return { ok: false, problem: m.approvalRules.makerUnreachable(`<@${record.makerId}>`) };
    const rotated = await rotateSecret(deps, locale, deps.masterAppId, p, () => run.intent('rotate'));
    if (!rotated.ok) return rotated;
    // The new secret to the maker alone, in a direct message; the thread only says it was rotated.
    const lead = m.approvals.secretLead(m.approvals.actionTitle('rotate-secret'));
    const delivered = await run.toMaker({ text: lead, blocks: [section(lead), ...rotated.message.blocks] });
    await run.inThread(applicationAnnouncements(locale).rotated({ userId: record.makerId, clientId: p.clientId }));
    if (!delivered) {
      // Never lost silently: the thread says so, and what to do.
      const text = m.approvalRules.secretUndelivered({ maker: `<@${record.makerId}>`, clientId: p.clientId });
      await run.inThread({ text, blocks: [section(text)] }, 'secret-undelivered');
    }
    return { ok: true };
  },
  async resume(run, p, intent) {
    // Whether a rotation happened cannot be read from the Pix API: it is not made a second time.
    if (intent?.step === 'rotate') return { ok: false, problem: messages(run.locale).approvals.interrupted };
    return rotateSecretApproval.execute(run, p);
  },
};

const rotateCancel: EntryRow = {
  kind: 'action',
  id: ROTATE_SECRET_CANCEL_ACTION_ID,
  role: 'viewer',
  what: 'cancelConfirmation',
  async handler(args, ctx) {
    await say(args, ctx, plain(messages(ctx.locale).confirmations.rotateCancelled), true);
  },
};

export const applicationRows: EntryRow[] = [scopesCommand, rotateSecretCommand, rotateConfirm, rotateCancel];
