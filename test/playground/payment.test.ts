import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { type Playground, startPlayground } from '../../src/playground';
import { type Browser, launchBrowser } from '../support/browser';
import { waitFor } from '../support/wait';

/**
 * A payment in the playground, driven in a real browser as a person would: Otto, the operator, asks
 * for it with `/pix pay`; the root shows the receiver as the key check found them; Abel, who may
 * approve, approves it; it is sent and, after the sandbox's confirm delay, confirmed in its thread by
 * the sandbox's signed webhook. Then the sandbox panel makes the next payment fail with
 * REACH_TRANSFER_LIMIT: the failure's reply carries the button that opens the limit-request form for
 * the account paid from. The screenshots go to docs/screenshots (docs/playground.md) when
 * UPDATE_SCREENSHOTS=1; what the test saw goes to its output folder on every run.
 */

const SHOTS = path.join(__dirname, '..', '..', 'docs', 'screenshots');
const OUTPUT = path.join(tmpdir(), 'pix-ops-playground-payment');
const OPERATOR = 'U0OPERATOR';
const APPROVER = 'U0APPROVER';
/** A key of the sandbox's DICT (src/sandbox/dict.ts): its holder is what the check shows. */
const KEY = 'financeiro@graficarapida.com.br';
const HOLDER = 'Gráfica Rápida Impressões Ltda';

// A browser and the whole app on a shared machine: more than the default 30 s per test.
jest.setTimeout(60_000);

let playground: Playground;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

async function shot(name: string): Promise<void> {
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: path.join(OUTPUT, `${name}.png`) });
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

async function type(text: string): Promise<void> {
  await page.fill('#composer', text);
  await page.press('#composer', 'Enter');
}

async function become(userId: string): Promise<void> {
  await page.selectOption('#persona', userId);
  await page.waitForSelector(`body[data-user="${userId}"]`, { state: 'attached' });
}

const pixCalls = (method: string, route: string) => playground.sandbox.calls.filter((c) => c.method === method && c.path.startsWith(route));
/** The payments created (`POST /api/v1/payment`, not its approve). */
const created = () => playground.sandbox.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/payment');
const roots = () =>
  playground.slack.messages.filter((m) => m.channel === 'C0FINANCE' && !m.thread_ts && m.metadata?.event_type === 'pix_approval');

/**
 * Otto asks for a payment through the form, as typed in the page; the root it posts. With `mistyped`,
 * that amount is sent first: refused inline, before any Pix call, and the form keeps what was typed.
 */
async function askPayment(value: string, comment: string, options: { shot?: string; mistyped?: string } = {}) {
  const before = roots().length;
  await type('/pix pay');
  const form = page.locator('.modal');
  await form.locator('[data-block-id="destinationAlias"] input').waitFor();
  await form.locator('[data-block-id="destinationAlias"] input').fill(KEY);
  await form.locator('[data-block-id="comment"] input').fill(comment);
  if (options.mistyped) {
    const calls = playground.sandbox.calls.length;
    await form.locator('[data-block-id="value"] input').fill(options.mistyped);
    await page.click('.modal [data-submit]');
    await page.waitForSelector('.modal [data-block-id="value"].has-error .bk-error');
    expect(playground.sandbox.calls.slice(calls).filter((c) => c.method === 'POST')).toEqual([]);
    expect(await form.locator('[data-block-id="destinationAlias"] input').inputValue()).toBe(KEY);
  }
  await form.locator('[data-block-id="value"] input').fill(value);
  if (options.shot) await shot(options.shot);
  await page.click('.modal [data-submit]');
  const root = await waitFor('the payment waiting for approval', () => roots()[before], 15_000);
  await page.waitForSelector('.modal:has-text("waiting for approval")');
  await page.click('.modal-foot [data-close]');
  await page.waitForSelector('#modal', { state: 'hidden' });
  await page.waitForSelector(`#messages [data-ts="${root.ts}"]`);
  return root;
}

async function approveAs(userId: string, ts: string): Promise<void> {
  await become(userId);
  await page.locator(`#messages [data-ts="${ts}"] button.bk-button`, { hasText: /^Approve/ }).click();
  if (await page.locator('#confirm').isVisible()) await page.click('#confirm [data-answer="yes"]');
}

beforeAll(async () => {
  playground = await startPlayground({ port: 0, logLevel: 'silent' });
  browser = await launchBrowser();
  page = await browser.context.newPage();
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterAll(async () => {
  await browser?.close();
  await playground?.stop();
});

afterEach(() => {
  expect(playground.workspace.refusals).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('a payment asked by the operator, approved by another persona, sent and confirmed in its thread', async () => {
  await page.goto(`${playground.url}?as=${OPERATOR}`);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  const root = await askPayment('250,00', 'Invoice 4711: flyers', { shot: '15-pay-form' });
  // Nothing reaches the payment endpoints on the maker's word.
  expect(pixCalls('POST', '/api/v1/payment')).toHaveLength(0);
  const shown = page.locator(`#messages [data-ts="${root.ts}"]`);
  expect(await shown.textContent()).toContain(HOLDER);
  await shot('16-payment-waiting');

  await approveAs(APPROVER, root.ts);
  await waitFor('the payment created and approved', () => pixCalls('POST', '/api/v1/payment/approve').length === 1, 15_000);
  expect(created()).toHaveLength(1);
  const reply = await waitFor(
    'the confirmation in the thread',
    () => playground.slack.messages.find((m) => m.thread_ts === root.ts && /Payment confirmed/.test(JSON.stringify(m.blocks))),
    20_000,
  );
  // The root says it is confirmed, and the reply in its thread says so too: no one had to do anything.
  await page.waitForSelector(`#messages [data-ts="${root.ts}"]:has-text("Confirmed")`);
  await page.click(`[data-thread="${root.ts}"]`);
  const confirmed = page.locator(`#thread-messages [data-ts="${reply.ts}"]`);
  await confirmed.waitFor();
  expect(await confirmed.textContent()).toMatch(/Payment confirmed: R\$250\.00 reached the receiver/);
  // The service's side agrees: the panel lists it confirmed.
  await page.waitForSelector('#sandbox-payments .sb-payment:has-text("R$250.00 · CONFIRMED")');
  await shot('17-payment-confirmed');
});

test('the sandbox panel makes the next payment fail on the transfer limit: the reply offers the limit-request form for the account paid from', async () => {
  await page.goto(`${playground.url}?as=${OPERATOR}`);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  // The service's side: the next payment approved fails with REACH_TRANSFER_LIMIT (the panel's default choice).
  await page.selectOption('#sandbox-payments select[name=failCode]', 'REACH_TRANSFER_LIMIT');
  await page.click('#sandbox-payments [data-fail-next]');
  await page.waitForSelector('#sandbox-payments .sb-armed:has-text("REACH_TRANSFER_LIMIT")');

  const root = await askPayment('1.200,00', 'Invoice 4712: banners', { mistyped: '1200 reais' });
  await approveAs(APPROVER, root.ts);
  const reply = await waitFor(
    'the failure in the thread',
    () => playground.slack.messages.find((m) => m.thread_ts === root.ts && /Payment failed/.test(JSON.stringify(m.blocks))),
    20_000,
  );
  // Used: the panel no longer says a failure is armed, and lists the payment as failed with its code.
  await page.waitForSelector('#sandbox-payments .sb-payment:has-text("FAILED")');
  expect(await page.locator('#sandbox-payments .sb-armed').count()).toBe(0);
  await page.click(`[data-thread="${root.ts}"]`);
  const failed = page.locator(`#thread-messages [data-ts="${reply.ts}"]`);
  await failed.waitFor();
  expect(await failed.textContent()).toMatch(/Payment failed.*R\$1,200\.00.*REACH_TRANSFER_LIMIT/s);
  const button = failed.locator('button.bk-button', { hasText: 'Request a higher limit' });
  expect(await button.isVisible()).toBe(true);
  await page.locator(`#messages [data-ts="${root.ts}"]`).scrollIntoViewIfNeeded();
  await page.waitForSelector(`#messages [data-ts="${root.ts}"]:has-text("payment failed")`);
  await shot('18-payment-failed-limit');

  // Otto, an operator, opens the limit-request form from it: for the account the payment was sent from.
  await become(OPERATOR);
  await page.click(`[data-thread="${root.ts}"]`);
  await button.click();
  await page.waitForSelector('.modal [data-block-id="pixDayLimit"] input');
  // The account chosen is the one the payment was sent from.
  expect(await page.inputValue('.modal [data-block-id="companyBankAccountId"] select')).toBe(
    (created().at(-1)!.body as { sourceAccountId: string }).sourceAccountId,
  );
  await shot('19-limit-request-from-failure');
  await page.click('.modal-foot [data-close]');
  await page.waitForSelector('#modal', { state: 'hidden' });
});
