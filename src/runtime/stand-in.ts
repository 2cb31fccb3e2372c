import Module from 'node:module';

/**
 * Puts `exports` in the require cache as the module `id`, unless that module is loaded already, so
 * that whatever requires it later gets them: a way to not load at start what this app never uses
 * (see slack/bolt-app.ts, zod-without-locales.ts).
 */
export function standIn(id: string, exports: object): void {
  if (require.cache[id]) return;
  const module = new Module(id);
  module.loaded = true;
  module.exports = exports;
  require.cache[id] = module;
}
