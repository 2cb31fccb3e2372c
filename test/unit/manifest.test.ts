import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppsManifestCreateArguments } from '@slack/web-api';
import { parse } from 'yaml';
import { ENTRY_TABLE } from '../../commands';
import { SLASH_COMMAND } from '../../src/entry/router';

// manifest.yml as Slack reads it when an app is created from it: within every documented limit, and
// in step with the code (what it handles, the Web API methods it calls, the scopes those need).

type Manifest = AppsManifestCreateArguments['manifest'];

const ROOT = path.resolve(__dirname, '../..');
const readManifest = (): Manifest => parse(readFileSync(path.join(ROOT, 'manifest.yml'), 'utf8')) as Manifest;

/**
 * Every limit Slack documents for a manifest, as problems (none for a good manifest). Sources: the
 * manifest reference, https://docs.slack.dev/reference/app-manifest (long description 174 to 4,000
 * characters; a slash command's usage_hint "a short usage hint about the slash command for users.
 * Maximum length is 1000 characters"), and the same page's limits as @slack/web-api's `Manifest`
 * type carries them in its comments (node_modules/@slack/web-api/dist/types/request/manifest.d.ts). The shortcut name's 24
 * characters are not on that page: Slack refuses a longer one with "must be less than 25
 * characters" (https://github.com/agentconnect-md/agentconnect/pull/179,
 * https://github.com/1024pix/pix-bot/pull/149).
 */
function manifestProblems(m: Manifest): string[] {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => void (ok || problems.push(problem));
  const length = (value: string | undefined, where: string, min: number, max: number) =>
    check(
      typeof value === 'string' && value.length >= min && value.length <= max,
      `${where}: ${value?.length ?? 'no'} characters, must be ${min} to ${max}`,
    );
  const count = (list: unknown[] | undefined, where: string, max: number) =>
    check((list?.length ?? 0) <= max, `${where}: ${list?.length} items, at most ${max}`);
  const https = (url: string | undefined, where: string) =>
    check(url === undefined || /^https:\/\/\S+$/.test(url), `${where}: must be an https URL`);

  const d = m.display_information;
  length(d?.name, 'display_information.name', 1, 35);
  if (d?.description !== undefined) length(d.description, 'display_information.description', 1, 140);
  if (d?.long_description !== undefined) length(d.long_description, 'display_information.long_description', 174, 4000);
  check(
    d?.background_color === undefined || /^#(?:[0-9a-fA-F]{3}){1,2}$/.test(d.background_color),
    'display_information.background_color: #RGB or #RRGGBB',
  );

  const f = m.features ?? {};
  if (f.bot_user) {
    length(f.bot_user.display_name, 'features.bot_user.display_name', 1, 80);
    check(/^[a-z0-9._-]+$/.test(f.bot_user.display_name), 'features.bot_user.display_name: only a-z, 0-9, -, _ and .');
  }
  count(f.slash_commands, 'features.slash_commands', 50);
  for (const [i, c] of (f.slash_commands ?? []).entries()) {
    length(c.command, `features.slash_commands[${i}].command`, 2, 32);
    check(c.command.startsWith('/'), `features.slash_commands[${i}].command: must start with /`);
    length(c.description, `features.slash_commands[${i}].description`, 1, 2000);
    if (c.usage_hint !== undefined) length(c.usage_hint, `features.slash_commands[${i}].usage_hint`, 1, 1000);
    https(c.url, `features.slash_commands[${i}].url`);
  }
  count(f.shortcuts, 'features.shortcuts', 10);
  for (const [i, s] of (f.shortcuts ?? []).entries()) {
    length(s.name, `features.shortcuts[${i}].name`, 1, 24);
    length(s.callback_id, `features.shortcuts[${i}].callback_id`, 1, 255);
    length(s.description, `features.shortcuts[${i}].description`, 1, 150);
    check(s.type === 'message' || s.type === 'global', `features.shortcuts[${i}].type: message or global`);
  }
  count(f.unfurl_domains, 'features.unfurl_domains', 5);

  const scopes = m.oauth_config?.scopes;
  for (const kind of ['bot', 'user', 'bot_optional', 'user_optional'] as const) {
    const list = scopes?.[kind] as string[] | undefined;
    count(list, `oauth_config.scopes.${kind}`, 255);
    check(new Set(list).size === (list?.length ?? 0), `oauth_config.scopes.${kind}: a scope listed twice`);
  }
  count(m.oauth_config?.redirect_urls, 'oauth_config.redirect_urls', 1000);

  const s = m.settings ?? {};
  count(s.allowed_ip_address_ranges, 'settings.allowed_ip_address_ranges', 50);
  count(s.event_subscriptions?.bot_events, 'settings.event_subscriptions.bot_events', 100);
  count(s.event_subscriptions?.user_events, 'settings.event_subscriptions.user_events', 100);
  https(s.event_subscriptions?.request_url, 'settings.event_subscriptions.request_url');
  https(s.interactivity?.request_url, 'settings.interactivity.request_url');
  https(s.interactivity?.message_menu_options_url, 'settings.interactivity.message_menu_options_url');
  return problems;
}

/**
 * The bot scope each Web API method the app calls needs, from each method's page
 * (https://docs.slack.dev/reference/methods/<method>, "Required scopes"). `all`: every one is needed,
 * because the call reaches each kind of conversation (conversations.replies reads the thread where
 * the request's root was posted: a public or private channel, or a DM or group DM).
 */
const METHOD_SCOPES: Record<string, { any?: string[]; all?: string[] }> = {
  'chat.postMessage': { any: ['chat:write'] },
  'chat.update': { any: ['chat:write'] },
  'chat.postEphemeral': { any: ['chat:write'] },
  // A link to an approval's root for its escalation (https://docs.slack.dev/reference/methods/chat.getPermalink: no scope).
  'chat.getPermalink': {},
  // A DM with one user (the DM fallback of a thread root): im:write.
  'conversations.open': { any: ['im:write'] },
  'conversations.replies': { all: ['channels:history', 'groups:history', 'im:history', 'mpim:history'] },
  // Looking for a root that was posted but whose answer was lost: the same history scopes.
  'conversations.history': { all: ['channels:history', 'groups:history', 'im:history', 'mpim:history'] },
  // The bot's own bot_id (https://docs.slack.dev/reference/methods/auth.test: no scope).
  'auth.test': {},
  'files.info': { any: ['files:read'] },
  // files.getUploadURLExternal and files.completeUploadExternal, which uploadV2 calls.
  'files.uploadV2': { any: ['files:write'] },
  // The audit export streams its CSV through the two steps of uploadV2 itself (files:write).
  'files.getUploadURLExternal': { any: ['files:write'] },
  'files.completeUploadExternal': { any: ['files:write'] },
  'users.info': { any: ['users:read'] },
  'usergroups.users.list': { any: ['usergroups:read'] },
  'views.open': {},
  'views.update': {},
  'views.publish': {},
};

/**
 * The Web API namespaces, to find calls like `deps.slack.retried.chat.postMessage(`, `client.views.open(` or
 * `slack.quick.usergroups.users.list(` (not `messages(locale).files.…(`).
 */
const CALL =
  /(?:\bslack|\bclient|Client\([^()]*\))(?:\.(?:retried|exact|quick))?\.((?:admin|apps|auth|bookmarks|bots|calls|canvases|chat|conversations|dnd|emoji|files|oauth|pins|reactions|reminders|search|team|usergroups|users|views|workflows)\.[A-Za-z][\w.]*?)\s*\(/g;

/** Every Web API method the app's code calls (the sandbox is a separate service and calls none). */
function methodsUsed(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        // The other side (the sandbox Pix API, the Slack stand-in and the playground on it) makes none of the bot's calls.
        if (!['sandbox', 'slack-standin', 'playground'].some((d) => file === path.join(ROOT, 'src', d))) walk(file);
      } else if (entry.name.endsWith('.ts')) {
        for (const match of readFileSync(file, 'utf8').matchAll(CALL)) {
          found.set(match[1]!, [...(found.get(match[1]!) ?? []), path.relative(ROOT, file)]);
        }
      }
    }
  };
  for (const dir of ['src', 'commands', 'views']) walk(path.join(ROOT, dir));
  return found;
}

const sourceText = (dirs: string[]) =>
  dirs
    .flatMap((dir) => readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(ROOT, dir, f)))
    .filter((f) => f.endsWith('.ts') && !f.includes(`${path.sep}sandbox${path.sep}`))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');

describe('manifest.yml: within what Slack documents', () => {
  it('breaks none of the limits', () => {
    expect(manifestProblems(readManifest())).toEqual([]);
  });

  it('the checks catch what Slack refuses (the shortcut name that made Slack refuse the manifest)', () => {
    const m = readManifest();
    const broken: Manifest = {
      ...m,
      display_information: { ...m.display_information, long_description: 'Too short.' },
      features: { ...m.features, shortcuts: [{ ...m.features!.shortcuts![0]!, name: 'Request limit increase with these files' }] },
    };
    expect(manifestProblems(broken)).toEqual([
      'display_information.long_description: 10 characters, must be 174 to 4000',
      'features.shortcuts[0].name: 39 characters, must be 1 to 24',
    ]);
  });

  it('names the message shortcut as the contract (docs/product.md) does', () => {
    expect(readManifest().features?.shortcuts).toEqual([expect.objectContaining({ name: 'Request limit increase', type: 'message' })]);
  });
});

describe('manifest.yml and the code cannot drift apart', () => {
  const m = readManifest();
  const rows = ENTRY_TABLE;

  it('declares the slash command the router answers, and no other', () => {
    expect((m.features?.slash_commands ?? []).map((c) => c.command)).toEqual([SLASH_COMMAND]);
  });

  it('declares exactly the shortcuts of the entry table, as message shortcuts', () => {
    const declared = (m.features?.shortcuts ?? []).map((s) => `${s.type}:${s.callback_id}`).sort();
    const handled = rows
      .filter((r) => r.kind === 'shortcut')
      .map((r) => `message:${r.id}`)
      .sort();
    expect(handled.length).toBeGreaterThan(0);
    expect(declared).toEqual(handled);
  });

  it('subscribes to exactly the events of the entry table; the Home tab is on for its event', () => {
    const handled = rows
      .filter((r) => r.kind === 'event')
      .map((r) => r.id)
      .sort();
    expect(handled).toContain('app_home_opened');
    expect([...(m.settings?.event_subscriptions?.bot_events ?? [])].sort()).toEqual(handled);
    expect(m.features?.app_home?.home_tab_enabled).toBe(true);
  });

  it('shows every subcommand in the usage hint, with its arguments, in the order of /pix help', () => {
    const subcommands = rows.filter((r) => r.kind === 'command').map((r) => [r.id, r.argsUsage].filter(Boolean).join(' '));
    expect(subcommands.length).toBeGreaterThan(20);
    expect(m.features?.slash_commands?.[0]?.usage_hint?.split(' | ')).toEqual(subcommands);
  });

  it('escapes the command’s text, so that a user named in it (the delegate of `/pix away`) arrives as <@U…|name>', () => {
    // https://docs.slack.dev/reference/app-manifest (slash_commands.should_escape)
    expect(rows.some((r) => r.kind === 'command' && r.id === 'away')).toBe(true);
    expect(m.features?.slash_commands?.[0]?.should_escape).toBe(true);
  });

  it('turns the Messages tab on, read-only, since the bot writes to direct messages', () => {
    // The audit export, secrets and decisions whose thread is gone go to a DM (conversations.open);
    // with the tab off, Slack shows people no conversation with the app to read them in.
    expect(methodsUsed().has('conversations.open')).toBe(true);
    expect(m.features?.app_home).toMatchObject({ messages_tab_enabled: true, messages_tab_read_only_enabled: true });
  });

  it('turns interactivity on for buttons, submissions and shortcuts, and an options load URL for external selects', () => {
    expect(rows.some((r) => r.kind === 'action' || r.kind === 'view')).toBe(true);
    expect(m.settings?.interactivity?.is_enabled).toBe(true);
    const suggestions = rows.filter((r) => r.kind === 'options');
    expect(Boolean(m.settings?.interactivity?.message_menu_options_url)).toBe(suggestions.length > 0);
  });

  it('declares the scope of every Web API method the code calls, and no scope nothing needs', () => {
    const used = methodsUsed();
    // The scan must see the calls it is there to see.
    for (const known of [
      'chat.postMessage',
      'views.open',
      'views.publish',
      'users.info',
      'usergroups.users.list',
      'conversations.replies',
      'files.uploadV2',
    ]) {
      expect([...used.keys()]).toContain(known);
    }
    const unknown = [...used.keys()].filter((method) => !(method in METHOD_SCOPES));
    expect(unknown).toEqual([]); // a new method: add it to METHOD_SCOPES with the scope its page names
    const stale = Object.keys(METHOD_SCOPES).filter((method) => !used.has(method));
    expect(stale).toEqual([]);

    const declared = new Set(m.oauth_config?.scopes?.bot ?? []);
    const needed = new Set<string>();
    for (const method of used.keys()) {
      const { any = [], all = [] } = METHOD_SCOPES[method]!;
      if (any.length > 0) {
        const have = any.filter((s) => declared.has(s as never));
        expect({ method, scope: have.length > 0 ? have : any }).toEqual({ method, scope: have });
        needed.add(have[0] ?? any[0]!);
      }
      for (const scope of all) {
        expect({ method, declared: declared.has(scope as never) }).toEqual({ method, declared: true });
        needed.add(scope);
      }
    }
    // Beyond methods: slash commands and shortcuts need `commands`
    // (https://docs.slack.dev/reference/scopes/commands); downloading a shared file with the bot token
    // (url_private_download) and the file_input element need `files:read`
    // (https://docs.slack.dev/reference/block-kit/block-elements/file-input-element).
    if ((m.features?.slash_commands?.length ?? 0) + (m.features?.shortcuts?.length ?? 0) > 0) needed.add('commands');
    const code = sourceText(['src', 'commands', 'views']);
    if (/url_private_download|'file_input'/.test(code)) needed.add('files:read');

    expect([...declared].sort()).toEqual([...needed].sort());
  });
});
