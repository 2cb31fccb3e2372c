import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { absoluteFigure, ratioFigure } from './judge';
import {
  benchmark,
  type Child,
  type Figure,
  onOutput,
  pairedRounds,
  percentile,
  SLACK_ACK_MS,
  START_BOUND_MS,
  START_WAIT_MS,
  signedCommand,
  spawnNode,
  startBotProcess,
  until,
  WAIT_MARGIN,
} from './lib';

const ROUNDS = 6;
const START_RATIO_BOUND = 1.5;
const DCL_BOUND_MS = 300;
const PAGE_LOADS = 10;
const COMMAND_BOUND_MS = 150;
const COMMANDS = 30;
/** Loads and commands before the timed ones: the first warms up the tab, the first two the bot and the page. */
const WARM_LOADS = 1;
const WARM_COMMANDS = 2;
/** The playground's start is held to START_RATIO_BOUND times the bot's. */
const PLAYGROUND_START_WAIT_MS = START_RATIO_BOUND * START_WAIT_MS;
/** A page load, the page's first at that, with the margin over its bound. */
const LOAD_WAIT_MS = WAIT_MARGIN * DCL_BOUND_MS;
/** A command's answer: the bot acknowledges within Slack's deadline, and answers soon after. */
const ANSWER_WAIT_MS = WAIT_MARGIN * SLACK_ACK_MS;
/** The system's Chromium, as in the browser tests (never a downloaded one). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `npm start` with no tokens: spawned until its page is served. */
async function startPlaygroundProcess(): Promise<Child & { url: string; ms: number }> {
  const started = performance.now();
  const child = spawnNode('src/main.js', { PLAYGROUND_PORT: '0' });
  const url = await until(
    'the playground',
    () => /playground: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(child.output())?.[1],
    PLAYGROUND_START_WAIT_MS,
    onOutput(child),
  );
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`the page answered ${res.status}`);
  await res.text();
  return { ...child, url, ms: performance.now() - started };
}

/**
 * The playground: from spawning `npm start` with no tokens to its page served, against the bot's own
 * start (`npm start` with a token, sandbox mode, to its first answer: a signed `/pix help`), in paired
 * rounds (lib.ts's pairedRounds: the bot's start twice, the second over the first the null ratio); then, in the system's Chromium, the page's
 * DOMContentLoaded (a tab of a running browser loading it again and again), and a slash command
 * typed (Enter) to its answer rendered (`/pix limits`, which reads the sandbox Pix API and answers
 * through the response_url).
 */
export const playground = benchmark(
  // The paired starts (the bot's twice, the playground's), the playground and the browser started, the
  // loads and the commands, each at its bound.
  WAIT_MARGIN *
    ((ROUNDS + 1) * (2 + START_RATIO_BOUND) * START_BOUND_MS +
      (PAGE_LOADS + WARM_LOADS) * DCL_BOUND_MS +
      (COMMANDS + WARM_COMMANDS) * COMMAND_BOUND_MS),
  async (): Promise<Figure[]> => {
    const slack = await new SlackStandIn().start();
    const dirs: string[] = [];
    let starts: Awaited<ReturnType<typeof pairedRounds>>;
    try {
      starts = await pairedRounds(ROUNDS, {
        ours: async () => {
          const child = await startPlaygroundProcess();
          await child.stop();
          return child.ms;
        },
        base: async () => {
          const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-pg-'));
          dirs.push(dir);
          const started = performance.now();
          const child = await startBotProcess({ SLACK_API_URL: slack.apiUrl, STORE_URL: `sqlite://${path.join(dir, 'store.sqlite')}` });
          const res = await signedCommand(child.port, 'U0BENCH', 'help', slack.responseUrl('pg-bench'));
          if (res.status !== 200) throw new Error(`the bot answered ${res.status}`);
          const ms = performance.now() - started;
          await child.stop();
          return ms;
        },
      });
    } finally {
      await slack.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }

    const child = await startPlaygroundProcess();
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: START_WAIT_MS });
    const dcl: number[] = [];
    const commands: number[] = [];
    try {
      // Loads of the page in a running browser, one tab (the page is served `no-cache`, with no validator: each load fetches it whole).
      const loads = await browser.newPage();
      for (let i = 0; i < PAGE_LOADS + WARM_LOADS; i++) {
        await loads.goto(child.url, { waitUntil: 'load', timeout: LOAD_WAIT_MS });
        if (i >= WARM_LOADS)
          dcl.push(await loads.evaluate<number>(`performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd`));
      }
      await loads.close();
      const page = await browser.newPage();
      await page.goto(child.url, { timeout: LOAD_WAIT_MS });
      await page.waitForSelector('body[data-version]', { state: 'attached', timeout: LOAD_WAIT_MS });
      for (let i = 0; i < COMMANDS + WARM_COMMANDS; i++) {
        // Timed inside the page: from the Enter key to the answer drawn. (Text: this project compiles without the DOM's types.)
        const ms = await page.evaluate<number>(`new Promise((resolve, reject) => {
        setTimeout(() => reject(new Error('no answer to /pix limits in ${ANSWER_WAIT_MS} ms')), ${ANSWER_WAIT_MS});
        const count = () => document.querySelectorAll('#messages .message.ephemeral').length;
        const before = count();
        const box = document.querySelector('#composer');
        let t0 = 0;
        const observer = new MutationObserver(() => {
          if (count() > before) {
            observer.disconnect();
            resolve(performance.now() - t0);
          }
        });
        observer.observe(document.querySelector('#messages'), { childList: true, subtree: true });
        box.value = '/pix limits';
        t0 = performance.now();
        box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      })`);
        // The first ones warm up the bot and the page (Bolt's first delivery, the first look-ups).
        if (i >= WARM_COMMANDS) commands.push(ms);
      }
    } finally {
      await browser.close();
      await child.stop();
    }
    return [
      ratioFigure({
        name: `playground start to page served / bot start to first answer (median of ${ROUNDS} paired rounds)`,
        ratios: starts.ratios,
        nulls: starts.nulls,
        bound: START_RATIO_BOUND,
        detail: `${percentile(starts.ours, 50).toFixed(0)} ms / ${percentile(starts.base, 50).toFixed(0)} ms`,
      }),
      absoluteFigure({
        name: `playground page DOMContentLoaded (p95 of ${PAGE_LOADS} loads in a tab)`,
        value: percentile(dcl, 95),
        unit: 'ms',
        op: '≤',
        bound: DCL_BOUND_MS,
      }),
      absoluteFigure({
        name: `playground /pix limits typed to its answer rendered (p95 of ${COMMANDS})`,
        value: percentile(commands, 95),
        unit: 'ms',
        op: '≤',
        bound: COMMAND_BOUND_MS,
        detail: `p50 ${percentile(commands, 50).toFixed(0)} ms`,
      }),
    ];
  },
);
