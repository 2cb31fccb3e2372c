import { formatCents } from '../../src/domain/money';
import { type Harness, messageText, startHarness } from '../support/harness';
import { blockAction } from '../support/interactions';
import { approve, decisionReplies, fileTrackedRequest } from '../support/limit-requests';
import { waitFor } from '../support/wait';

// Slack users and the locale Slack gives for each (users.info with include_locale).
const EN = 'U0LANGEN1'; // en-US
const PT = 'U0LANGPT1'; // pt-BR
const ES = 'U0LANGES1'; // es-ES: a language Pix Ops does not speak
const NO_LOCALE = 'U0LANGNO1'; // Slack gives no locale
const BROKEN = 'U0LANGXX1'; // users.info fails
const FRESH = 'U0LANGPT2'; // pt-BR, asked nothing before the cache test
const STRANGER_PT = 'U0LANGST1'; // pt-BR, no role
const STRANGER_EN = 'U0LANGST2'; // en-GB, no role
const CHANNEL = 'C0LANG001';

/**
 * Every text in the user's language, through the real app (HTTP mode), the fake Slack and the sandbox:
 * English for English speakers, Brazilian Portuguese for everyone else, and for anyone whose locale
 * cannot be known.
 */
describe('language: each user reads Pix Ops in their Slack locale, pt-BR by default', () => {
  let h: Harness;
  let limits: Record<string, unknown>;

  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: [EN, PT, ES, NO_LOCALE, BROKEN, FRESH].join(','), POLL_SCHEDULE: '0 0 1 1 *' });
    const locales: Record<string, string | null> = {
      [PT]: 'pt-BR',
      [ES]: 'es-ES',
      [NO_LOCALE]: null,
      [FRESH]: 'pt-BR',
      [STRANGER_PT]: 'pt-BR',
      [STRANGER_EN]: 'en-GB',
    };
    for (const [user, locale] of Object.entries(locales)) h.slack.locales.set(user, locale);
    h.slack.on('users.info', (args) => {
      const user = String(args.user);
      if (user === BROKEN) return { ok: false, error: 'user_not_found' };
      const locale = h.slack.locales.has(user) ? h.slack.locales.get(user) : h.slack.defaultLocale;
      const withLocale = args.include_locale === true || args.include_locale === 'true';
      return { ok: true, user: { id: user, ...(withLocale && locale ? { locale } : {}) } };
    });
    const main = h.sandbox.companies.main;
    const res = await fetch(`${h.sandbox.url}/api/v1/limits/${main.defaultAccountId}`, { headers: { authorization: main.mainAppId } });
    limits = ((await res.json()) as { limits: Record<string, unknown> }).limits;
  });
  afterAll(() => h.close());

  const answerTo = async (userId: string, text: string) => {
    const res = await h.slash(userId, text, { channelId: CHANNEL });
    if (res.ack?.text) return messageText(res.ack);
    const [answer] = await waitFor(`the answer to /pix ${text}`, () => {
      const r = h.slack.responsesTo(res.responseId);
      return r.length ? r : undefined;
    });
    return messageText(answer!.body);
  };
  const infoCallsFor = (user: string) => h.slack.callsOf('users.info').filter((c) => c.args.user === user);

  test('/pix limits: English words and R$1,234.56 for an en-US user', async () => {
    const text = await answerTo(EN, 'limits');
    expect(text).toContain('Limits of account');
    expect(text).toContain('(default account)');
    expect(text).toContain(`*Pix day*\n${formatCents(limits.pixDayLimit as number, 'en')}`);
    expect(text).toContain(`*Pix out · same holder · day*\n${formatCents(limits.pixOutSameHolderDayLimit as number, 'en')}`);
    expect(formatCents(limits.pixDayLimit as number, 'en')).toMatch(/^R\$\d{1,3}(,\d{3})*\.\d\d$/);
    expect(text).not.toContain('Limites');
  });

  test('/pix limits: Portuguese words and R$ 1.234,56 for a pt-BR user', async () => {
    const text = await answerTo(PT, 'limits');
    expect(text).toContain('Limites da conta');
    expect(text).toContain('(conta padrão)');
    expect(text).toContain(`*Pix diurno*\n${formatCents(limits.pixDayLimit as number, 'pt-BR')}`);
    expect(text).toContain(`*Pix noturno*\n${formatCents(limits.pixNightLimit as number, 'pt-BR')}`);
    expect(text).toContain(`*Pix saída · mesmo titular · diurno*\n${formatCents(limits.pixOutSameHolderDayLimit as number, 'pt-BR')}`);
    expect(formatCents(limits.pixDayLimit as number, 'pt-BR')).toMatch(/^R\$ \d{1,3}(\.\d{3})*,\d\d$/);
    expect(text).not.toContain('Limits of account');
  });

  test.each([
    ['a locale Pix Ops does not speak (es-ES)', ES],
    ['no locale from Slack', NO_LOCALE],
    ['users.info failing', BROKEN],
  ])('pt-BR, the default, for %s', async (_what, user) => {
    const text = await answerTo(user, 'limits');
    expect(text).toContain('Limites da conta');
    expect(text).toContain(formatCents(limits.pixDayLimit as number, 'pt-BR'));
    expect(infoCallsFor(user).length).toBeGreaterThanOrEqual(1);
  });

  test('/pix help in each language', async () => {
    const english = await answerTo(EN, 'help');
    expect(english).toContain('*Pix Ops for Slack*: what you can do as *viewer*');
    expect(english).toContain("`/pix limits [accountId]`  an account's current limits");
    const portuguese = await answerTo(PT, 'help');
    expect(portuguese).toContain('*Pix Ops para Slack*: o que você pode fazer como *visualizador*');
    expect(portuguese).toContain('`/pix limits [accountId]`  os limites atuais de uma conta');
    expect(portuguese).not.toContain('what you can do');
    // Usage lines and unknown words too.
    expect(await answerTo(PT, 'limits a b')).toContain('Uso: `/pix limits [accountId]`');
    expect(await answerTo(PT, 'limits ../x')).toContain('Isso não é um id de conta. Uso: `/pix limits [accountId]`');
    expect(await answerTo(EN, 'frobnicate')).toContain('There is no `/pix frobnicate`');
    expect(await answerTo(PT, 'frobnicate')).toContain('Não existe `/pix frobnicate`');
  });

  test('a refusal in the language of the refused user, for a command and for a button', async () => {
    const pt = await answerTo(STRANGER_PT, 'limits');
    expect(pt).toContain('Você precisa do papel *visualizador* para usar `/pix limits`');
    expect(pt).toContain('ACCESS_VIEWERS');
    expect(pt).toContain('Nada foi feito.');
    const en = await answerTo(STRANGER_EN, 'limits');
    expect(en).toContain('You need the *viewer* role to use `/pix limits`');

    await blockAction(h, { userId: STRANGER_PT, actionId: 'limit_list_next', value: '2', channelId: CHANNEL, responseId: 'lang-refused' });
    const [refusal] = await waitFor('the refusal of the button', () => {
      const r = h.slack.responsesTo('lang-refused');
      return r.length ? r : undefined;
    });
    expect(messageText(refusal!.body)).toContain('Você precisa do papel *visualizador* para listar as solicitações de limite');
  });

  test('the locale is asked of Slack once per user (with include_locale), then cached', async () => {
    expect(infoCallsFor(FRESH)).toHaveLength(0);
    expect(await answerTo(FRESH, 'help')).toContain('o que você pode fazer');
    expect(await answerTo(FRESH, 'limits')).toContain('Limites da conta');
    const calls = infoCallsFor(FRESH);
    expect(calls).toHaveLength(1);
    expect(String(calls[0]!.args.include_locale)).toBe('true');
    // The English speaker of the first tests was not asked again either.
    expect(infoCallsFor(EN)).toHaveLength(1);
  });

  test("the decision reply and the updated root speak the requester's language", async () => {
    const r = await fileTrackedRequest(h, { requesterId: PT, channel: CHANNEL });
    await approve(h.sandbox, r.id);
    await h.app.poller.tick();
    const [reply] = decisionReplies(h.slack.messages, r);
    const text = messageText(reply);
    expect(text).toContain(`<@${PT}> a solicitação de aumento de limite \`${r.id}\` foi *aprovada*`);
    expect(text).toContain(
      `• Pix diurno: ${formatCents(r.current.pixDayLimit!, 'pt-BR')} → *${formatCents(r.requested.pixDayLimit!, 'pt-BR')}*`,
    );
    const root = h.slack.messages.find((m) => m.channel === r.channel && m.ts === r.rootTs);
    expect(messageText(root)).toContain(':white_check_mark: Aprovada');

    const theirs = await fileTrackedRequest(h, { requesterId: EN, channel: CHANNEL });
    await approve(h.sandbox, theirs.id);
    await h.app.poller.tick();
    expect(messageText(decisionReplies(h.slack.messages, theirs)[0])).toContain(
      `the limit increase request \`${theirs.id}\` was *approved*`,
    );
  });
});
