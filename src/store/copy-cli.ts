import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { ConfigError, errorText, PixOpsError } from '../errors';
import { copyStore, countLine, SameStoreError } from './copy';
import { NoStoreError, StoreUnavailableError } from './errors';
import { sameStore } from './identity';
import { type BackendOptions, DEFAULT_NAMESPACE, type Inspection, inspectStore, type OpenBackend, openBackend, storeKindOf } from './index';
import { storeNamespace } from './namespace';
import { resolveStoreSecret, sqlitePathOf } from './store-secret';

const USAGE = `Usage: npm run store:copy -- FROM_URL TO_URL [--from-namespace NAME] [--to-namespace NAME]

Copies everything the app keeps from one store to another: sqlite://PATH, postgres://… (or
postgresql://…), redis://… or rediss://…, either side. Stop the app first; start it on TO_URL after.
Both stores are opened with STORE_SECRET (for a sqlite source without one: the secret generated beside
its file), and in STORE_NAMESPACE (default ${DEFAULT_NAMESPACE}) unless the options say otherwise.
Run again, it copies nothing twice.`;

const STORE_URL = /^(sqlite:\/\/.+|rediss?:\/\/.+|postgres(ql)?:\/\/.+)$/;

interface Arguments {
  from: string;
  to: string;
  fromNamespace: string;
  toNamespace: string;
}

function parseArguments(argv: string[], env: NodeJS.ProcessEnv): Arguments | string {
  const urls: string[] = [];
  const namespace = env.STORE_NAMESPACE?.trim() || DEFAULT_NAMESPACE;
  const named: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--from-namespace' || arg === '--to-namespace') {
      const value = argv[++i];
      if (!value) return `${arg} needs a name`;
      named[arg] = value;
    } else if (arg.startsWith('--')) return `unknown option ${arg}`;
    else urls.push(arg);
  }
  if (urls.length !== 2) return 'expected FROM_URL and TO_URL';
  const [from, to] = urls as [string, string];
  for (const [which, url] of [
    ['FROM_URL', from],
    ['TO_URL', to],
  ] as const) {
    if (!STORE_URL.test(url)) return `${which}: expected sqlite://PATH, postgres://…, redis://… or rediss://…`;
  }
  return {
    from,
    to,
    fromNamespace: storeNamespace(
      named['--from-namespace'] ?? namespace,
      named['--from-namespace'] ? '--from-namespace' : 'STORE_NAMESPACE',
    ),
    toNamespace: storeNamespace(named['--to-namespace'] ?? namespace, named['--to-namespace'] ? '--to-namespace' : 'STORE_NAMESPACE'),
  };
}

/**
 * The secret both stores are opened with: STORE_SECRET, or the one a sqlite source generated beside
 * its file (read, never made). A sqlite target without STORE_SECRET is given that same secret in its
 * own file (so the app started on it reads what was copied); one that has another is refused.
 */
function secretFor(args: Arguments, env: NodeJS.ProcessEnv): { secret: string; note?: string } {
  const given = env.STORE_SECRET?.trim();
  if (given) return { secret: given };
  const source = sqlitePathOf(args.from);
  if (source === undefined) throw new ConfigError('STORE_SECRET: required (the secret the source was written with)');
  const secret = resolveStoreSecret({ url: args.from }, { create: false });
  const target = sqlitePathOf(args.to);
  if (target === undefined) {
    const file = path.join(path.dirname(source), 'store-secret');
    return { secret, note: `the copy is sealed with the secret in ${file}: start the app on the target with STORE_SECRET set to it` };
  }
  const file = path.join(path.dirname(target), 'store-secret');
  try {
    // The target's folder may not exist yet: the store would make it, after this.
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (readFileSync(file, 'utf8').trim() !== secret)
      throw new ConfigError(`${file} holds another secret: set STORE_SECRET, or remove that file`);
  }
  return { secret };
}

/** What `side` holds, asked of the store itself, creating nothing there. */
async function inspect(side: string, url: string, namespace: string): Promise<Inspection> {
  try {
    return await inspectStore({ url, namespace });
  } catch (err) {
    throw err instanceof PixOpsError ? err : new StoreUnavailableError(`${side}, the ${storeKindOf(url)} store`, err);
  }
}

async function open(options: BackendOptions, side: string): Promise<OpenBackend> {
  const opened = await openBackend(options);
  try {
    await opened.backend.ping();
  } catch (err) {
    await opened.close();
    throw new StoreUnavailableError(`${side}, the ${storeKindOf(options.url)} store`, err);
  }
  return opened;
}

async function main(): Promise<void> {
  loadDotenv({ quiet: true });
  const args = parseArguments(process.argv.slice(2), process.env);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n\n${USAGE}\n`);
    process.exit(1);
  }
  // Asked of the stores before either is opened: nothing is made in a source that holds no store, and
  // nothing is written to a target that is the source (its audit trail would be doubled for good).
  const source = (await inspect('FROM_URL', args.from, args.fromNamespace)).identity;
  if (source === undefined)
    throw new NoStoreError(
      `FROM_URL holds no store in the namespace ${args.fromNamespace} (is the URL or the namespace mistyped?): nothing was copied`,
    );
  const target = (await inspect('TO_URL', args.to, args.toNamespace)).identity;
  if (target !== undefined && sameStore(source, target)) throw new SameStoreError(source);
  const { secret, note } = secretFor(args, process.env);
  const from = await open({ url: args.from, namespace: args.fromNamespace, secret, existing: true }, 'FROM_URL');
  let to: OpenBackend | undefined;
  try {
    to = await open({ url: args.to, namespace: args.toNamespace, secret }, 'TO_URL');
    process.stdout.write(`Copying from ${storeKindOf(args.from)} to ${storeKindOf(args.to)}\n`);
    await copyStore(from, to, { onKind: (done) => process.stdout.write(`${countLine(done)}\n`) });
    if (note) process.stdout.write(`Note: ${note}\n`);
  } finally {
    await to?.close();
    await from.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    // No stack trace and no value: a URL in an error can hold a password.
    process.stderr.write(`The copy stopped: ${errorText(err)}\n`);
    process.exit(1);
  },
);
