import { ConfigError } from '../errors';

/** The longest name Postgres keeps whole (NAMEDATALEN - 1 bytes): it cuts a longer one, and two names alike that far would be one schema. */
const MAX_BYTES = 63;
const FORM = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** Where a namespace keeps its filing intents on sqlite and Redis (`<namespace>-intents`): no other namespace may be named so. */
const INTENTS = '-intents';

/** Why `namespace` cannot name a store (STORE_NAMESPACE, or a copy's namespace), or undefined when it can. */
export function namespaceProblem(namespace: string): string | undefined {
  if (!FORM.test(namespace)) return 'expected letters, digits, dots, dashes or underscores, beginning with a letter or a digit';
  if (Buffer.byteLength(namespace) > MAX_BYTES) return `at most ${MAX_BYTES} characters (the longest name Postgres keeps whole)`;
  if (namespace.replace(/_/g, '-').endsWith(INTENTS))
    return `must not end in ${INTENTS} (the namespace without it keeps its filing intents there)`;
  return undefined;
}

/**
 * The name a store is kept under: `_` read as `-`, so that `x_a` and `x-a` are one store on every
 * backend, as they are one schema (`x_a`) on Postgres. Refused (ConfigError, naming `setting`) when it
 * cannot name a store: never two names silently sharing one.
 */
export function storeNamespace(namespace: string, setting = 'STORE_NAMESPACE'): string {
  const problem = namespaceProblem(namespace);
  if (problem) throw new ConfigError(`${setting}: ${problem}`);
  return namespace.replace(/_/g, '-');
}
