import type { KnownBlock } from '@slack/types';
import { type Locale, messages } from '../src/i18n';
import { code, confirmMessage, context, escapeMrkdwn, type SlackMessage, section, sections, TEXT_MAX } from './message';

export interface ScopeGroup {
  group: string;
  scopes: string[];
}

/** The scopes answer, read tolerantly: its shape is not part of the interface. */
export type ScopesReading = { kind: 'groups'; groups: ScopeGroup[] } | { kind: 'strings'; strings: string[] };

export const ROTATE_SECRET_CONFIRM_ACTION_ID = 'rotate_secret_confirm';
export const ROTATE_SECRET_CANCEL_ACTION_ID = 'rotate_secret_cancel';

const NAME_KEYS = ['group', 'name', 'title', 'label', 'key', 'id'];
const WRAPPER_KEYS = ['scopes', 'groups', 'scopeGroups', 'data', 'items', 'result'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The names in a list: strings, or objects' name-like field. */
function namesOf(list: unknown[]): string[] | undefined {
  const names: string[] = [];
  for (const item of list) {
    if (typeof item === 'string') names.push(item);
    else if (isRecord(item)) {
      const key = NAME_KEYS.find((k) => typeof item[k] === 'string');
      if (!key) return undefined;
      names.push(item[key] as string);
    } else return undefined;
  }
  return names;
}

function groupOf(item: unknown): ScopeGroup | undefined {
  if (!isRecord(item)) return undefined;
  const nameKey = NAME_KEYS.find((k) => typeof item[k] === 'string');
  if (!nameKey) return undefined;
  for (const [key, value] of Object.entries(item)) {
    if (key === nameKey || !Array.isArray(value)) continue;
    const scopes = namesOf(value);
    if (scopes) return { group: item[nameKey] as string, scopes };
  }
  return undefined;
}

function groupsIn(value: unknown, depth = 0): ScopeGroup[] | undefined {
  if (depth > 3) return undefined;
  if (Array.isArray(value)) {
    const groups = value.map(groupOf);
    if (value.length > 0 && groups.every((g): g is ScopeGroup => g !== undefined)) return groups;
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  for (const key of WRAPPER_KEYS) {
    if (key in value) {
      const inner = groupsIn(value[key], depth + 1);
      if (inner) return inner;
    }
  }
  // `{ FILE: ['FILE_POST'], … }`: each key a group, each value its scopes.
  const entries = Object.entries(value);
  if (entries.length > 0 && entries.every(([, v]) => Array.isArray(v) && namesOf(v) !== undefined)) {
    return entries.map(([group, v]) => ({ group, scopes: namesOf(v as unknown[])! }));
  }
  return undefined;
}

function stringsIn(value: unknown, out: Set<string>, depth = 0): void {
  if (depth > 6 || out.size >= 300) return;
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) {
    for (const v of value) stringsIn(v, out, depth + 1);
  } else if (isRecord(value)) {
    for (const v of Object.values(value)) stringsIn(v, out, depth + 1);
  }
}

export function readScopes(json: unknown): ScopesReading {
  const groups = groupsIn(json);
  if (groups) return { kind: 'groups', groups };
  const strings = new Set<string>();
  stringsIn(json, strings);
  return { kind: 'strings', strings: [...strings] };
}

/** A group and its scopes on one line, or on as many as a section's 3,000 characters need. */
function groupLines(head: string, scopes: string[]): string[] {
  const lines: string[] = [];
  let line = head;
  for (const scope of scopes) {
    const next = line === head ? `${line}${scope}` : `${line}, ${scope}`;
    if (next.length > TEXT_MAX.section && line !== head) {
      lines.push(`${line},`);
      line = scope;
    } else {
      line = next;
    }
  }
  return [...lines, line];
}

/** Parts into sections of Slack's 3,000 characters, within a message's 50 blocks (with room for the rest). */
function chunked(parts: string[], separator?: string): KnownBlock[] {
  return sections(parts, separator).slice(0, 45);
}

/** `/pix scopes`: the groups and their scopes when the answer has that shape, else its strings. */
export function scopesMessage(locale: Locale, json: unknown): SlackMessage {
  const m = messages(locale).applications;
  const reading = readScopes(json);
  if (reading.kind === 'groups') {
    const lines = reading.groups.flatMap((g) =>
      g.scopes.length ? groupLines(`*${escapeMrkdwn(g.group)}*: `, g.scopes.map(code)) : [`*${escapeMrkdwn(g.group)}*: ${m.noneInGroup}`],
    );
    const count = reading.groups.reduce((n, g) => n + g.scopes.length, 0);
    return {
      text: m.scopeGroupsText({ groups: reading.groups.length, scopes: count }),
      blocks: [section(m.scopesTitle), ...chunked(lines)],
    };
  }
  if (reading.strings.length === 0) {
    return { text: m.noScopes, blocks: [section(m.scopesTitle), section(m.noScopesItalic)] };
  }
  return {
    text: m.scopesText(reading.strings.length),
    blocks: [section(m.scopesTitle), ...chunked(reading.strings.map(code), ', '), context(m.notGrouped)],
  };
}

/** The new client secret: only in the caller's ephemeral answer, never in a channel or a log. */
/**
 * The rotation, to the admin alone: the new secret, and exactly what became of the AppIDs: a new one
 * the bot does not store (shown once, here), or what happened to the one it stores (`storedAppId`).
 */
export function rotatedMessage(
  locale: Locale,
  input: { clientId: string; clientSecret?: string; shownAppId?: string; storedAppId?: string },
): SlackMessage {
  const m = messages(locale).applications;
  const blocks: KnownBlock[] = [
    section(
      input.clientSecret
        ? m.newSecret({ clientId: code(input.clientId), secret: input.clientSecret })
        : m.noSecretRead(code(input.clientId)),
    ),
    context(m.oldSecretDead),
  ];
  if (input.shownAppId) blocks.push(section(m.newAppIdShown(input.shownAppId)));
  if (input.storedAppId) blocks.push(section(input.storedAppId));
  return { text: m.rotatedText(input.clientId), blocks };
}

/** The channel's record, in the language of the admin who rotated the secret. */
export function applicationAnnouncements(locale: Locale) {
  const m = messages(locale).applications;
  return {
    rotated: (input: { userId: string; clientId: string }): SlackMessage => {
      const text = m.auditRotated({ user: `<@${input.userId}>`, clientId: code(input.clientId) });
      return { text, blocks: [section(`:arrows_counterclockwise: ${text}`)] };
    },
  };
}

/** Asked before a rotation: the current secret stops working at once. Only Confirm (admin) rotates. */
export function rotateConfirmMessage(locale: Locale, clientId: string): SlackMessage {
  const m = messages(locale).confirmations;
  return confirmMessage(locale, {
    text: m.rotateText(clientId),
    warning: m.rotate(code(clientId)),
    blockId: 'rotate_secret_confirm',
    confirm: { actionId: ROTATE_SECRET_CONFIRM_ACTION_ID, text: m.rotateButton, value: clientId },
    cancelActionId: ROTATE_SECRET_CANCEL_ACTION_ID,
  });
}
