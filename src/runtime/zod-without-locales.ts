import { standIn } from './stand-in';

// zod's classic API loads all of its fifty-odd locales when it loads (a tenth of the app's start-up),
// only to offer them as `z.locales`; its own messages come from the English one, which it loads apart.
// Pix Ops writes its messages itself and never uses `z.locales`, so the bundle gets an empty stand-in.
// Imported first by main.ts, before anything loads zod.
standIn(require.resolve('zod/v4/locales/index.cjs'), {});
