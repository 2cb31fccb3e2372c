import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DECISION_EVENT_TYPE } from '../../src/limit-requests/deliver';
import { type Playground, startPlayground } from '../../src/playground';
import { type Browser, launchBrowser } from '../support/browser';
import { messageText } from '../support/harness';
import { PDF } from '../support/limit-form';
import { waitFor } from '../support/wait';

/**
 * The playground driven in a real browser (the system's Chromium, headless), as a newcomer would:
 * a whole limit request, its four-eyes approval by a second persona, the decision from the sandbox
 * panel, a larger one approved by two checkers, a refusal for the persona with no role, mrkdwn as Slack
 * draws it, and modals that stay with their opener. The walkthrough's screenshots go to docs/screenshots
 * (docs/playground.md) when UPDATE_SCREENSHOTS=1, and only then; the last two tests save what they saw in
 * the test's output folder (OUTPUT) on every run.
 */

const SHOTS = path.join(__dirname, '..', '..', 'docs', 'screenshots');
/** The test's output: what it saw, written on every run for a person to look at (never committed). */
const OUTPUT = path.join(tmpdir(), 'pix-ops-playground-browser');
const ADMIN = 'U0ADMIN';
const APPROVER = 'U0APPROVER';
const OPERATOR = 'U0OPERATOR';
const NOBODY = 'U0NOBODY';
const VIEWER = 'U0VIEWER';

// A browser and the whole app on a shared machine: more time than the default 30 s per test.
jest.setTimeout(90_000);

let playground: Playground;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

async function shot(name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

async function saw(name: string): Promise<void> {
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: path.join(OUTPUT, `${name}.png`) });
}

async function type(text: string): Promise<void> {
  await page.fill('#composer', text);
  await page.press('#composer', 'Enter');
}

async function become(userId: string): Promise<void> {
  await page.selectOption('#persona', userId);
  // The page's own code runs in the browser; as text here, since this project compiles without the DOM's types.
  await page.waitForFunction(
    `document.querySelector('#persona').value === '${userId}' && document.querySelector('#persona option:checked')`,
  );
}

/** The page drawn from `userId`'s own state (the server's first push for them). */
async function drawnFor(userId: string): Promise<void> {
  await page.waitForSelector(`body[data-user="${userId}"]`, { state: 'attached' });
}

const pixCalls = (method: string, route: string) => playground.sandbox.calls.filter((c) => c.method === method && c.path.startsWith(route));

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
  // Nothing the bot sent was refused (the page would show it as an error instead), and the page's script never threw.
  expect(playground.workspace.refusals).toEqual([]);
  expect(pageErrors).toEqual([]);
});

test('a limit request from the command to the decision in its thread, approved by a second person', async () => {
  await page.goto(playground.url);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  expect(await page.inputValue('#persona')).toBe(ADMIN);
  await shot('01-playground');

  // The command opens the form (views.open, then views.update once the accounts and limits are read).
  await type('/pix limit request');
  await page.waitForSelector('.modal [data-block-id="pixDayLimit"] input');
  const dayLimit = page.locator('.modal [data-block-id="pixDayLimit"] input');
  await dayLimit.fill('7500.00');
  await page.setInputFiles('.modal input[type=file]', { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.waitForSelector('.modal .bk-file-list:has-text("1 file")');
  await shot('02-limit-request-form');
  await page.click('.modal [data-submit]');
  // The modal now says the request waits for approval; closing it is the person's move.
  await page.waitForSelector('.modal:has-text("waiting for approval")');
  await page.click('.modal-foot [data-close]');
  await page.waitForSelector('#modal', { state: 'hidden' });

  // APPROVALS=limit-request: nothing reaches the Pix API until a second person approves.
  const pending = await waitFor(
    'the approval request in the channel',
    () => playground.slack.messages.find((m) => m.channel === 'C0FINANCE' && /approve/i.test(messageText(m.blocks))),
    15_000,
  );
  expect(pixCalls('POST', '/api/v1/limits/request')).toHaveLength(0);
  await page.waitForSelector(`[data-ts="${pending.ts}"]`);
  await shot('03-waiting-for-approval');

  await become(APPROVER);
  const approve = page.locator(`[data-ts="${pending.ts}"] button.bk-button`, { hasText: /^Approve/ });
  await approve.click();
  if (await page.locator('#confirm').isVisible()) await page.click('#confirm [data-answer="yes"]');

  // Approved: the request is filed with the PDF and the day limit typed (cents), and its root posted.
  const filed = await waitFor('the limit request filed', () => pixCalls('POST', '/api/v1/limits/request')[0], 15_000);
  expect(filed.body).toMatchObject({ pixDayLimit: 750_000 });
  expect(pixCalls('POST', '/api/v1/files')).toHaveLength(1);
  // With an approval, the approval's message becomes the request's thread root, in review.
  await waitFor(
    'the root in review',
    () => /in review/i.test(messageText(playground.slack.messages.find((m) => m.ts === pending.ts))),
    15_000,
  );
  await page.waitForSelector(`[data-ts="${pending.ts}"]:has-text("in review")`);
  // The sandbox panel lists it, in review.
  const form = page.locator('[data-request]').first();
  await form.waitFor();
  await shot('04-approved-and-filed');

  // The service decides in the sandbox panel: approved, with a smaller day limit than asked.
  await form.locator('input[name="pixDayLimit"]').fill('600000');
  await shot('05-sandbox-panel');
  await form.locator('[data-decide="approve"]').click();

  const reply = await waitFor(
    'the decision in the thread',
    () => playground.slack.messages.find((m) => m.thread_ts === pending.ts && m.metadata?.event_type === DECISION_EVENT_TYPE),
    15_000,
  );
  await page.click(`[data-thread="${pending.ts}"]`);
  await page.waitForSelector(`#thread-messages [data-ts="${reply.ts}"]`);
  expect(await page.textContent(`#thread-messages [data-ts="${reply.ts}"]`)).toMatch(/6,000\.00/);
  await shot('06-decision-in-thread');
});

test('a limit request above the quorum amount waits for two checkers: the first approval is shown, the second files it', async () => {
  await page.goto(`${playground.url}?as=${OPERATOR}`);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  const roots = () => playground.slack.messages.filter((m) => m.channel === 'C0FINANCE' && m.metadata?.event_type === 'pix_approval');
  const before = roots().length;
  const filed = () => pixCalls('POST', '/api/v1/limits/request').length;
  const filedBefore = filed();

  await type('/pix limit request');
  await page.waitForSelector('.modal [data-block-id="pixDayLimit"] input');
  // Above the playground's APPROVAL_QUORUM_ABOVE (R$ 10.000,00): two checkers.
  await page.locator('.modal [data-block-id="pixDayLimit"] input').fill('15000.00');
  await page.setInputFiles('.modal input[type=file]', { name: 'proof.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.waitForSelector('.modal .bk-file-list:has-text("1 file")');
  await page.click('.modal [data-submit]');
  await page.waitForSelector('.modal:has-text("waiting for approval")');
  await page.click('.modal-foot [data-close]');
  const pending = await waitFor('the approval request in the channel', () => roots()[before], 15_000);
  await page.waitForSelector(`[data-ts="${pending.ts}"]:has-text("Needs 2 approvals")`);

  const approveAs = async (userId: string) => {
    await become(userId);
    await page.locator(`[data-ts="${pending.ts}"] button.bk-button`, { hasText: /^Approve/ }).click();
    if (await page.locator('#confirm').isVisible()) await page.click('#confirm [data-answer="yes"]');
  };
  await approveAs(APPROVER);
  await page.waitForSelector(`[data-ts="${pending.ts}"]:has-text("1 of 2 approvals")`);
  expect(filed()).toBe(filedBefore);
  await shot('11-two-checkers-first-approval');

  await approveAs(ADMIN);
  await waitFor('the limit request filed', () => filed() === filedBefore + 1, 15_000);
  await page.waitForSelector(`[data-ts="${pending.ts}"]:has-text("in review")`);
  expect(await page.textContent(`[data-ts="${pending.ts}"]`)).toMatch(/Filed once .*Abel.* and .*Ana.* approved it/);
  await shot('12-two-checkers-filed');
});

test('the persona with no role is refused, and only they see it', async () => {
  await page.goto(`${playground.url}?as=${NOBODY}`);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  const writes = () => playground.sandbox.calls.filter((c) => c.method !== 'GET').length;
  const before = writes();
  const opened = playground.slack.callsOf('views.open').length;
  await type('/pix limit request');
  const refusal = page.locator('.message.ephemeral', { hasText: /role/i }).last();
  await refusal.waitFor();
  expect(await refusal.textContent()).toMatch(/Only visible to you/);
  expect(writes()).toBe(before);
  expect(playground.slack.callsOf('views.open')).toHaveLength(opened);
  await shot('07-refused-without-a-role');

  await become(ADMIN);
  await page.waitForFunction(`![...document.querySelectorAll('.message.ephemeral')].some((e) => /role/i.test(e.textContent))`);
});

test('the Home tab: opening it delivers app_home_opened, and the view the bot publishes is drawn', async () => {
  await page.goto(`${playground.url}?as=${ADMIN}`);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  const published = playground.slack.callsOf('views.publish').length;
  await page.click('.tab[data-tab="home"]');
  // A view published earlier (after a decision) may be on the tab already: wait for the one this opening publishes.
  await waitFor('the Home view published', () => playground.slack.callsOf('views.publish').length > published, 10_000);
  await page.waitForSelector('#home [data-view-id] .bk-block');
  expect(playground.slack.callsOf('views.publish').length).toBeGreaterThan(published);
  expect(playground.slack.callsOf('views.publish').at(-1)!.args.user_id).toBe(ADMIN);
  await shot('08-home-tab');
});

test('a dispute opened in the sandbox panel: its webhook makes one root in the channel, its decision a reply in the thread', async () => {
  await page.goto(`${playground.url}?as=${ADMIN}`);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  const roots = () =>
    playground.slack.messages.filter((m) => m.channel === 'C0FINANCE' && !m.thread_ts && m.metadata?.event_type === 'pix_dispute');
  const before = roots().length;
  await page.click('[data-dispute-open]');
  const root = await waitFor('the dispute root', () => roots()[before], 20_000);
  await page.waitForSelector(`[data-ts="${root.ts}"]`);
  expect(await page.textContent(`[data-ts="${root.ts}"]`)).toMatch(/SANDBOX/);
  await shot('09-dispute-desk');

  await page.click('[data-dispute][data-status="ACCEPTED"]');
  const reply = await waitFor('the decision in the thread', () => playground.slack.messages.find((m) => m.thread_ts === root.ts), 20_000);
  await page.click(`[data-thread="${root.ts}"]`);
  await page.waitForSelector(`#thread-messages [data-ts="${reply.ts}"]`);
  expect(roots()).toHaveLength(before + 1);
  await shot('10-dispute-decided');
});

test('the sandbox panel sets a balance (cents) and blocks withdrawals: an alert each, within seconds; then the digest, posted at once', async () => {
  await page.goto(`${playground.url}?as=${ADMIN}`);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  const account = playground.sandbox.companies.main.defaultAccountId;
  const row = `.sb-account[data-account="${account}"]`;
  await page.waitForSelector(row);
  expect(await page.textContent(`${row} .sb-balance-text`)).toContain('R$15,000.00');
  const inChannel = (type: string) => playground.slack.messages.filter((m) => m.channel === 'C0FINANCE' && m.metadata?.event_type === type);
  const alerts = inChannel('pix_balance_alert').length;
  // The playground polls every 5 s: let one tick record the account as it is before it drops.
  await waitFor('a balance sweep', () => playground.sandbox.calls.some((c) => c.method === 'GET' && c.path === '/api/v1/account'), 15_000);
  await page.fill(`${row} input[name=available]`, '750000');
  await page.click(`${row} [data-set-balance]`);
  await page.waitForFunction(`/R\\$7,500\\.00/.test(document.querySelector('${row} .sb-balance-text').textContent)`);
  const low = await waitFor('the low-balance alert', () => inChannel('pix_balance_alert')[alerts], 20_000);
  await page.waitForSelector(`[data-ts="${low.ts}"]`);
  expect(await page.textContent(`[data-ts="${low.ts}"]`)).toMatch(/R\$ 7\.500,00.*R\$ 10\.000,00/s);
  await shot('13-balance-alert');

  await page.click(`${row} [data-block="1"]`);
  const blocked = await waitFor('the withdraw-block alert', () => inChannel('pix_balance_alert')[alerts + 1], 20_000);
  await page.waitForSelector(`[data-ts="${blocked.ts}"]`);
  expect(await page.textContent(`[data-ts="${blocked.ts}"]`)).toMatch(/bloqueados/);

  const digests = inChannel('pix_digest').length;
  await page.click('[data-digest-now]');
  const digest = await waitFor('the digest', () => inChannel('pix_digest')[digests], 20_000);
  await page.waitForSelector(`[data-ts="${digest.ts}"]`);
  const shown = (await page.textContent(`[data-ts="${digest.ts}"]`)) ?? '';
  expect(shown).toMatch(/Contas abaixo de R\$ 10\.000,00/);
  expect(shown).toMatch(/R\$ 7\.500,00/);
  expect(shown).toMatch(/Saques bloqueados/);
  await page.locator(`[data-ts="${digest.ts}"]`).scrollIntoViewIfNeeded();
  await shot('14-digest');

  // Back as it was, for whatever runs next.
  await page.click(`${row} [data-block="0"]`);
  // The panel is drawn again when the sandbox answers: the balance is typed into the new one.
  await page.waitForSelector(`${row} [data-block="1"]`);
  await page.fill(`${row} input[name=available]`, '1500000');
  await page.click(`${row} [data-set-balance]`);
  await page.waitForFunction(`/R\\$15,000\\.00/.test(document.querySelector('${row} .sb-balance-text').textContent)`);
});

test('a balance being typed when the sandbox panel is drawn again keeps its digits and the keyboard: the rest of it lands in the same field', async () => {
  await page.goto(`${playground.url}?as=${ADMIN}`);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  const account = playground.sandbox.companies.main.defaultAccountId;
  const input = `.sb-account[data-account="${account}"] input[name=available]`;
  await page.waitForSelector(input);
  await page.fill(input, '');
  await page.keyboard.type('12');
  // The field as it is now, marked: a redraw puts a new one in its place.
  await page.evaluate(`document.querySelector('${input}').dataset.before = 'redraw'`);
  // A change of the sandbox's state from elsewhere (not this page's panel), which draws the panel again.
  const withdrawKey = (enabled: boolean) =>
    page.evaluate(
      `fetch('/api/sandbox/accounts/${account}/withdraw-key-api', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"enabled":${enabled}}' }).then((r) => r.status)`,
    );
  // Turned the other way from how it is (the panel's button says which way a click would turn it), then back.
  const turnOn = (await page.getAttribute(`[data-withdraw="${account}"]`, 'data-enabled')) === '1';
  expect(await withdrawKey(turnOn)).toBe(200);
  await page.waitForFunction(`document.querySelector('${input}').dataset.before === undefined`);
  await page.keyboard.type('3400');
  expect(await page.inputValue(input)).toBe('123400');
  expect(await withdrawKey(!turnOn)).toBe(200);
});

test("the sandbox panel's withdraw-key button turns the account's withdraw-key API on and off, and says which way the next click turns it", async () => {
  await page.goto(`${playground.url}?as=${ADMIN}`);
  await page.waitForSelector('body[data-version]', { state: 'attached' });
  const account = playground.sandbox.companies.main.defaultAccountId;
  const button = `[data-withdraw="${account}"]`;
  await page.waitForSelector(button);
  const before = (await page.textContent(button))?.trim();
  const turnOn = before === 'Enable withdraw key';
  expect(turnOn || before === 'Disable withdraw key').toBe(true);
  const turned = turnOn ? 'Disable withdraw key' : 'Enable withdraw key';
  await page.click(button);
  // The panel is drawn again from the sandbox's answer: the button now offers the other way.
  await page.waitForFunction(`document.querySelector('${button}')?.textContent.trim() === '${turned}'`);
  expect(await page.getAttribute(button, 'data-enabled')).toBe(turnOn ? '0' : '1');
  await page.click(button);
  await page.waitForFunction(`document.querySelector('${button}')?.textContent.trim() === '${before}'`);
});

test("mrkdwn as Slack draws it: the accounts list's titles are bold around the account's code, with no asterisk shown", async () => {
  await page.goto(`${playground.url}?as=${ADMIN}`);
  await drawnFor(ADMIN);
  const before = playground.slack.messages.length;
  await type('/pix accounts');
  const list = page.locator('.message', { hasText: 'Accounts of the company' }).last();
  await list.waitFor();
  const account = playground.sandbox.companies.main.defaultAccountId;
  const title = list.locator('.bk-text b', { has: page.locator('code', { hasText: account }) });
  expect(await title.textContent()).toBe(`${account} (default account)`);
  expect(await list.locator('.message-body').textContent()).not.toContain('*');
  // An ephemeral answer: nothing posted in the channel.
  expect(playground.slack.messages.length).toBe(before);
  await list.scrollIntoViewIfNeeded();
  await saw('mrkdwn-accounts-list');
});

test("a modal is its opener's: another persona never sees it, a reload shows the current persona's own, and its opener finds it again", async () => {
  await page.goto(`${playground.url}?as=${ADMIN}`);
  await drawnFor(ADMIN);
  await type('/pix limit request');
  await page.waitForSelector('.modal [data-block-id="pixDayLimit"] input');
  const adminsModal = (await page.getAttribute('#modal .modal', 'data-view-id'))!;

  // The viewer has no modal open: nothing of the admin's is on their screen.
  await become(VIEWER);
  await drawnFor(VIEWER);
  expect(await page.isHidden('#modal')).toBe(true);
  expect(await page.locator('#modal .modal').count()).toBe(0);
  await saw('modal-another-persona');

  // A reload comes back as the viewer, still without the admin's modal.
  await page.reload();
  await drawnFor(VIEWER);
  expect(await page.inputValue('#persona')).toBe(VIEWER);
  expect(await page.isHidden('#modal')).toBe(true);
  await saw('modal-after-reload');

  // The operator opens one of their own: each persona sees their own, and only theirs, after a reload too.
  await become(OPERATOR);
  await drawnFor(OPERATOR);
  expect(await page.isHidden('#modal')).toBe(true);
  await type('/pix limit request');
  await page.waitForSelector('.modal [data-block-id="pixDayLimit"] input');
  const operatorsModal = (await page.getAttribute('#modal .modal', 'data-view-id'))!;
  expect(operatorsModal).not.toBe(adminsModal);
  await page.reload();
  await drawnFor(OPERATOR);
  await page.waitForSelector(`#modal .modal[data-view-id="${operatorsModal}"]`);
  await saw('modal-own-after-reload');

  await become(ADMIN);
  await drawnFor(ADMIN);
  await page.waitForSelector(`#modal .modal[data-view-id="${adminsModal}"]`);
  expect(await page.locator('#modal .modal').count()).toBe(1);
  await page.click('.modal-foot [data-close]');
  await page.waitForSelector('#modal', { state: 'hidden' });
  await become(OPERATOR);
  await drawnFor(OPERATOR);
  await page.click(`.modal[data-view-id="${operatorsModal}"] .modal-foot [data-close]`);
  await page.waitForSelector('#modal', { state: 'hidden' });
  expect(playground.workspace.viewOf(ADMIN).modals).toEqual([]);
  expect(playground.workspace.viewOf(OPERATOR).modals).toEqual([]);
});
