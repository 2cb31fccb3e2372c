import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import { openStore } from '../../src/store';
import { SQLITE_FORMAT } from '../../src/store/sqlite/format';
import { MAIN } from '../support/app-process';
import { assertFreshBuild } from '../support/dist-build';
import { BOT_TOKEN, SIGNING_SECRET } from '../support/harness';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

const SECRET = 'f'.repeat(40);

/** The app started on `store`: its exit code and what it wrote on stderr. */
async function start(store: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      PORT: '0',
      STORE_SECRET: SECRET,
      ...store,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

/** A store written by a newer app is never used: the app exits 1 naming both versions, as with Postgres. */
describe('an app started on a store of a newer format', () => {
  beforeAll(() => assertFreshBuild());

  test('sqlite: exits 1, naming STORE_URL and both versions', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-newer-'));
    try {
      const url = `sqlite://${path.join(dir, 'pix-ops.sqlite')}`;
      await (await openStore({ url, secret: SECRET })).close();
      const file = new KeyvSqlite({ uri: url });
      await file.query(`PRAGMA user_version = ${SQLITE_FORMAT + 1}`);
      await file.disconnect();
      const { code, stderr } = await start({ STORE_URL: url });
      expect(code).toBe(1);
      expect(stderr).toContain(
        `STORE_URL: the store in the sqlite file is at version ${SQLITE_FORMAT + 1}, newer than this app knows (version ${SQLITE_FORMAT})`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Redis: exits 1, naming STORE_URL and both versions', async () => {
    const namespace = testNamespace('newer');
    const client = createClient({ url: SHARED_REDIS_URL });
    await client.connect();
    try {
      await client.set(`${namespace}:format`, '2');
      const { code, stderr } = await start({ STORE_URL: SHARED_REDIS_URL, STORE_NAMESPACE: namespace });
      expect(code).toBe(1);
      expect(stderr).toContain(`STORE_URL: the store "${namespace}" in Redis is at version 2, newer than this app knows (version 1)`);
    } finally {
      await client.close();
      await deleteKeys(SHARED_REDIS_URL, namespace);
    }
  });
});
