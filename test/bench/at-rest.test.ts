import { spawn } from 'node:child_process';
import { untilAtRest } from '../../bench/lib';
import { waitFor } from '../support/wait';

// The audit export's benchmark resets a bot's peak memory only once the bot is at rest: V8 compiles
// a hot function on a worker thread after the bot has answered, and that must not count as the
// export's. Here a process answers, then works on for a while: the wait ends after that work.

test('untilAtRest waits out the work a process does after it has answered', async () => {
  const busyMs = 400;
  const child = spawn(
    process.execPath,
    [
      '-e',
      `process.stdout.write('answered\\n');
       const end = Date.now() + ${busyMs};
       while (Date.now() < end);
       process.stdout.write('done\\n');
       setTimeout(() => undefined, 60_000);`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  try {
    await waitFor('the answer', () => out.includes('answered'), 10_000);
    await untilAtRest('the child at rest', child.pid!, 10_000);
    expect(out).toContain('done');
  } finally {
    child.kill();
  }
});
