import { accessSync, constants } from 'node:fs';
import { connect } from 'node:net';
import { Client } from 'pg';
import { CHROMIUM } from './browser';
import { PG_URL } from './postgres';

/** What one missing service or program is, and how to get it (the README's "What the tests need" says the same). */
interface Need {
  what: string;
  check(): Promise<void>;
  how: string;
}

const WAIT_MS = 3_000;

/** Redis answers PING on 127.0.0.1:6379. */
function redisPing(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: 6379 });
    socket.setTimeout(WAIT_MS, () => socket.destroy(new Error('no answer')));
    socket.once('error', reject);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.end();
      if (data.toString().startsWith('+PONG')) resolve();
      else reject(new Error(`answered ${JSON.stringify(data.toString().trim())}`));
    });
  });
}

/** PostgreSQL takes the user postgres without a password on the databases the tests use. */
async function postgresConnects(database: string): Promise<void> {
  const client = new Client({ connectionString: PG_URL.replace(/\/test$/, `/${database}`), connectionTimeoutMillis: WAIT_MS });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

const NEEDS: Need[] = [
  {
    what: 'Redis on 127.0.0.1:6379',
    check: redisPing,
    how: 'start it: `sudo service redis-server start` (Debian/Ubuntu) or `brew services start redis` (macOS); see README.md, "What the tests need"',
  },
  ...['test', 'postgres'].map((database) => ({
    what: `PostgreSQL on 127.0.0.1:5432, user postgres without a password, database ${database}`,
    check: () => postgresConnects(database),
    how: 'start it with trust authentication on loopback and the database test: see README.md, "What the tests need"',
  })),
  {
    what: `Chromium at ${CHROMIUM}`,
    check: async () => accessSync(CHROMIUM, constants.X_OK),
    how: 'install it: `sudo apt-get install -y chromium` (Debian) or set CHROMIUM_PATH to a Chromium you have; see README.md, "What the tests need"',
  },
];

/** Every need of the test run that this machine lacks, one line each with how to get it; empty when all are there. */
export async function missingNeeds(): Promise<string[]> {
  const results = await Promise.allSettled(NEEDS.map((need) => need.check()));
  return results.flatMap((result, i) => {
    if (result.status === 'fulfilled') return [];
    const need = NEEDS[i]!;
    const why = result.reason instanceof Error ? result.reason.message || result.reason.name : String(result.reason);
    return [`- ${need.what}: ${why}. To ${need.how}.`];
  });
}
