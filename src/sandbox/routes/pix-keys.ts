import { z } from 'zod';
import type { ApiContext, ApiRouter } from '../context';
import { serviceHolder } from '../dict';
import { fail, jsonReply } from '../http';
import { dictKeyType, KEY_FORMATS } from '../pix-key-format';
import { type Account, PIX_KEY_TYPES } from '../state';
import { parseWith } from '../validate';

const createSchema = z.object({
  pixKey: z.string({ error: 'must be a string' }).trim().default(''),
  type: z.enum(PIX_KEY_TYPES, { error: `must be one of ${PIX_KEY_TYPES.join(', ')}` }),
});

/** Pix keys belong to the account the AppID is bound to. */
export function boundAccount({ state, caller }: ApiContext): Account {
  const account = state.accountOf(caller.companyId, caller.accountId);
  if (!account) throw fail(404, 'Account not found');
  return account;
}

export function registerPixKeyRoutes(router: ApiRouter): void {
  router.add('POST', '/api/v1/pix-keys', {
    handle(ctx) {
      const account = boundAccount(ctx);
      const input = parseWith(createSchema, ctx.body());
      // An empty random key asks the service to generate one.
      const key = input.type === 'EVP' && input.pixKey === '' ? ctx.state.ids.uuid() : input.pixKey;
      if (!KEY_FORMATS[input.type].test(key)) throw fail(400, `Invalid ${input.type} Pix key`);
      if (ctx.state.dict.has(key)) throw fail(400, 'Pix key already exists');

      account.pixKeys.push({ key, type: input.type });
      // Keys of the service's own accounts are in the DICT too, and are refused as withdraw keys.
      ctx.state.dict.set(key, {
        type: dictKeyType(input.type),
        holderTaxId: account.taxId,
        serviceAccount: true,
        holder: serviceHolder(ctx.state.companies.get(account.companyId), account),
      });
      ctx.state.dictCache.delete(key);
      return jsonReply(201, { pixKey: { key, type: input.type } });
    },
  });

  router.add('GET', '/api/v1/pix-keys', {
    handle(ctx) {
      const account = boundAccount(ctx);
      return jsonReply(200, {
        pixKeys: account.pixKeys.map((k) => ({ ...k })),
        account: { accountId: account.id, isDefault: account.isDefault, balance: { ...account.balance } },
      });
    },
  });

  router.add('DELETE', '/api/v1/pix-keys/:pixKey', {
    handle(ctx) {
      const account = boundAccount(ctx);
      const key = ctx.params.pixKey ?? '';
      const index = account.pixKeys.findIndex((k) => k.key === key);
      if (index < 0) throw fail(404, 'Pix key not found');
      account.pixKeys.splice(index, 1);
      ctx.state.dict.delete(key);
      ctx.state.dictCache.delete(key);
      return { status: 204 };
    },
  });
}
