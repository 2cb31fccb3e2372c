import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';

/**
 * The yardstick of the acknowledgement benchmark: a bare Bolt app that answers `/pix` at once, with
 * the same token, signing secret and Slack API URL as the bot. Run as a child process, like the bot.
 */
async function main(): Promise<void> {
  const app = new App({
    token: process.env.SLACK_BOT_TOKEN,
    signingSecret: process.env.SLACK_SIGNING_SECRET,
    clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
    logLevel: LogLevel.ERROR,
  });
  app.command('/pix', async ({ ack }) => {
    await ack('hi');
  });
  const server = await app.start(Number(process.env.PORT ?? 0));
  const port = (server.address() as AddressInfo).port;
  process.stdout.write(`${JSON.stringify({ msg: 'Pix Ops is running (bare Bolt)', port })}\n`);
  process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  process.stderr.write(`bare Bolt app failed: ${String(err)}\n`);
  process.exit(1);
});
