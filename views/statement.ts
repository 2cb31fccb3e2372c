import type { KnownBlock } from '@slack/types';
import { formatApiCents } from '../src/domain/money';
import { formatSaoPauloDateTime } from '../src/domain/sao-paulo-date';
import { type Locale, messages } from '../src/i18n';
import type { StatementPage } from './carried';
import { context, escapeMrkdwn, fields, pageButtons, pageOf, type SlackMessage, section } from './message';

// The statement and transaction reads have no documented shape (section 4.6): everything here reads
// whatever JSON comes back, shows the fields that are there, and never throws on an odd value. Their
// amounts are in cents (the service's field conventions) and are shown in R$ (formatApiCents).

export const STATEMENT_PAGE_SIZE = 15;
export const STATEMENT_PREV_ACTION_ID = 'statement_prev';
export const STATEMENT_NEXT_ACTION_ID = 'statement_next';

/** Names under which an entry's moment is found, best first. */
const TIME_KEYS = ['time', 'date', 'createdAt', 'created_at', 'timestamp', 'datetime', 'dateTime', 'paidAt', 'updatedAt'];
const AMOUNT_KEYS = ['value', 'amount'];
/** Fields that hold money wherever they appear (cents), and a balance's parts under `balance`. */
const MONEY_KEYS = new Set([...AMOUNT_KEYS, 'balance', 'fee']);
const BALANCE_PARTS = /(?:^|\.)balance\.(?:total|blocked|available|blockedBySecurity|blockedByWithdrawSafety)$/;
/** Whether a field, by its dotted path (`value`, `balance.total`), is an amount in cents. */
const isMoneyField = (path: string) => MONEY_KEYS.has(path.slice(path.lastIndexOf('.') + 1)) || BALANCE_PARTS.test(path);
const DESCRIPTION_KEYS = ['description', 'title', 'memo', 'name', 'comment'];
/** Names under which a list of entries is found in a wrapped answer, best first. */
const LIST_KEYS = ['statement', 'entries', 'items', 'transactions', 'data', 'results', 'records', 'list', 'content', 'rows'];

const MAX_TEXT = 2_900;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * One value as text (mrkdwn-escaped), `path` its field's dotted name: amounts in R$, other numbers as
 * sent, dates, nested objects flattened, lists summarized.
 */
export function formatValue(locale: Locale, path: string, value: unknown, depth = 0): string {
  const c = messages(locale).common;
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? c.yes : c.no;
  if (typeof value === 'number') return !Number.isFinite(value) ? '—' : isMoneyField(path) ? formatApiCents(value, locale) : String(value);
  if (typeof value === 'string') {
    const date = formatSaoPauloDateTime(value, locale);
    return date ?? escapeMrkdwn(clip(value, 300));
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return c.none;
    if (depth >= 2 || value.some((v) => typeof v === 'object' && v !== null)) return c.items(value.length);
    return clip(value.map((v) => formatValue(locale, path, v, depth + 1)).join(', '), 300);
  }
  if (isRecord(value)) {
    const inner = Object.entries(value);
    if (inner.length === 0) return '—';
    if (depth >= 2) return c.fields(inner.length);
    return clip(inner.map(([k, v]) => `${escapeMrkdwn(k)}: ${formatValue(locale, `${path}.${k}`, v, depth + 1)}`).join(', '), 500);
  }
  return escapeMrkdwn(clip(String(value), 300));
}

/** The fields of an object, nested ones as `parent.child`, for a fields block. */
export function flattenFields(locale: Locale, value: Record<string, unknown>, prefix = '', depth = 0): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [key, v] of Object.entries(value)) {
    const label = `${prefix}${key}`;
    if (isRecord(v) && depth < 1 && Object.keys(v).length > 0 && Object.keys(v).length <= 8)
      out.push(...flattenFields(locale, v, `${label}.`, depth + 1));
    else out.push([escapeMrkdwn(label), formatValue(locale, label, v)]);
  }
  return out;
}

/** Where the entries of a statement answer are: a bare array, or an array under a known (or any) name. */
export function findEntries(body: unknown): { entries: unknown[]; path?: string; rest: Record<string, unknown> } | undefined {
  if (Array.isArray(body)) return { entries: body, rest: {} };
  if (!isRecord(body)) return undefined;
  const search = (obj: Record<string, unknown>, path: string[], depth: number): { entries: unknown[]; path: string[] } | undefined => {
    for (const key of LIST_KEYS) if (Array.isArray(obj[key])) return { entries: obj[key] as unknown[], path: [...path, key] };
    for (const [key, v] of Object.entries(obj)) if (Array.isArray(v) && v.some(isRecord)) return { entries: v, path: [...path, key] };
    if (depth >= 2) return undefined;
    for (const key of [...LIST_KEYS, ...Object.keys(obj).filter((k) => !LIST_KEYS.includes(k))]) {
      const v = obj[key];
      if (isRecord(v)) {
        const found = search(v, [...path, key], depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  };
  const found = search(body, [], 0);
  if (!found) return undefined;
  const top = found.path[0]!;
  const rest = Object.fromEntries(Object.entries(body).filter(([k]) => k !== top));
  return { entries: found.entries, path: found.path.join('.'), rest };
}

function pick(entry: Record<string, unknown>, keys: string[], accept: (v: unknown) => boolean): [string, unknown] | undefined {
  for (const key of keys) if (key in entry && accept(entry[key])) return [key, entry[key]];
  return undefined;
}

const CREDIT = /^(credit|in|inflow|received|c)$/i;
const DEBIT = /^(debit|out|outflow|sent|d)$/i;

/** One statement entry on a line or two: when, what, how much (its direction by its type), balance, ids, the rest. */
export function entryText(locale: Locale, entry: unknown): string {
  if (!isRecord(entry)) return formatValue(locale, '', entry);
  const used = new Set<string>();
  const parts: string[] = [];

  const when = pick(entry, TIME_KEYS, (v) => formatSaoPauloDateTime(v, locale) !== undefined);
  if (when) {
    used.add(when[0]);
    parts.push(`*${formatSaoPauloDateTime(when[1], locale)}*`);
  }
  const description = pick(entry, DESCRIPTION_KEYS, (v) => typeof v === 'string' && v.trim() !== '');
  if (description) {
    used.add(description[0]);
    parts.push(escapeMrkdwn(clip(String(description[1]), 200)));
  }
  const type = typeof entry.type === 'string' ? entry.type : undefined;
  const amount = pick(entry, AMOUNT_KEYS, (v) => typeof v === 'number');
  if (amount) {
    // The arrow only says which way it went.
    const [key, value] = amount;
    used.add(key);
    const arrow = type && CREDIT.test(type) ? ':arrow_down_small: ' : type && DEBIT.test(type) ? ':arrow_up_small: ' : '';
    parts.push(`${arrow}*${formatValue(locale, key, value)}*`);
  }
  if (type) {
    used.add('type');
    parts.push(escapeMrkdwn(clip(type, 60)));
  }
  if ('balance' in entry) {
    used.add('balance');
    parts.push(messages(locale).statement.balance(formatValue(locale, 'balance', entry.balance)));
  }

  const ids: string[] = [];
  for (const key of ['id', 'transactionId', 'endToEndId']) {
    const v = entry[key];
    if (typeof v === 'string' || typeof v === 'number') {
      used.add(key);
      ids.push(key === 'id' ? `\`${escapeMrkdwn(String(v))}\`` : `${key} \`${escapeMrkdwn(String(v))}\``);
    }
  }
  const rest = Object.entries(entry)
    .filter(([k]) => !used.has(k))
    .map(([k, v]) => `${escapeMrkdwn(k)}: ${formatValue(locale, k, v)}`);

  const first = parts.length > 0 ? parts.join(' · ') : messages(locale).statement.entryWithout;
  const second = [...ids, ...rest].join(' · ');
  return clip(second ? `${first}\n${second}` : first, MAX_TEXT);
}

export interface StatementPageInput {
  body: unknown;
  /** 1-based. */
  page: number;
  /** The account given to the command, if any (read with companyBankAccount). */
  accountId?: string;
}

/** The paging buttons' value: which page, of which account's statement. */
export function pageValue(page: number, accountId?: string): string {
  const value: StatementPage = accountId ? { page, accountId } : { page };
  return JSON.stringify(value);
}

/** A page of the statement, whatever its shape, with Previous / Next when there is somewhere to go. */
export function statementMessage(locale: Locale, { body, page, accountId }: StatementPageInput): SlackMessage {
  const m = messages(locale).statement;
  const whose = accountId ? m.account(`\`${escapeMrkdwn(accountId)}\``) : m.mainAccount;
  const whoseText = accountId ? m.account(accountId) : m.mainAccount;
  const found = findEntries(body);
  if (!found) {
    // Not a list at all: show what came back.
    const blocks: KnownBlock[] = [section(m.title(whose))];
    if (isRecord(body) && Object.keys(body).length > 0) {
      blocks.push(context(m.noList), ...fields(flattenFields(locale, body).slice(0, 40)));
    } else {
      blocks.push(section(body === null || body === undefined || body === '' ? m.emptyAnswer : m.answered(formatValue(locale, '', body))));
    }
    blocks.push(context(m.timesNote));
    return { text: m.text(whoseText), blocks };
  }

  const total = found.entries.length;
  const { page: current, pages, start, end } = pageOf(total, STATEMENT_PAGE_SIZE, page);
  const shown = found.entries.slice(start, end);

  const blocks: KnownBlock[] = [];
  if (total === 0) {
    blocks.push(section(`${m.title(whose)}\n${m.noEntries}`));
  } else {
    blocks.push(section(m.page({ whose, from: start + 1, to: start + shown.length, total, page: current, pages })));
    for (const entry of shown) blocks.push(section(entryText(locale, entry)));
  }
  const extra =
    Object.keys(found.rest).length > 0
      ? flattenFields(locale, found.rest)
          .map(([k, v]) => `${k}: ${v}`)
          .join(' · ')
      : '';
  if (extra) blocks.push(context(clip(m.alsoInAnswer(extra), MAX_TEXT)));
  blocks.push(context(`${m.timesNote} ${m.order}${found.path ? ` ${m.readFrom(`\`${escapeMrkdwn(found.path)}\``)}` : ''}`));

  blocks.push(
    ...pageButtons(locale, {
      blockId: 'statement_nav',
      prev: STATEMENT_PREV_ACTION_ID,
      next: STATEMENT_NEXT_ACTION_ID,
      page: current,
      pages,
      value: (p) => pageValue(p, accountId),
    }),
  );

  return {
    text: total === 0 ? m.textEmpty(whoseText) : m.textPage({ whose: whoseText, page: current, pages }),
    blocks,
  };
}

/** The object of a transaction answer: `{ transaction: {…} }` (or another single wrapper) unwrapped. */
function unwrapTransaction(body: unknown): unknown {
  if (!isRecord(body)) return body;
  for (const key of ['transaction', 'data', 'item', 'result']) if (isRecord(body[key])) return body[key];
  const keys = Object.keys(body);
  if (keys.length === 1 && isRecord(body[keys[0]!])) return body[keys[0]!];
  return body;
}

/** One transaction: its fields, money and dates formatted, nested objects flattened. */
export function transactionMessage(locale: Locale, input: { transactionId: string; accountId?: string; body: unknown }): SlackMessage {
  const m = messages(locale).statement;
  const title = m.transactionTitle({
    id: `\`${escapeMrkdwn(input.transactionId)}\``,
    ...(input.accountId ? { account: `\`${escapeMrkdwn(input.accountId)}\`` } : {}),
  });
  const tx = unwrapTransaction(input.body);
  const blocks: KnownBlock[] = [section(title)];
  if (isRecord(tx) && Object.keys(tx).length > 0) {
    const summary = entryText(locale, tx).split('\n')[0]!;
    blocks.push(section(summary));
    const pairs = flattenFields(locale, tx);
    blocks.push(...fields(pairs.slice(0, 40).map(([k, v]) => [k, clip(v, 1_900)])));
    if (pairs.length > 40) blocks.push(context(m.moreFields(pairs.length - 40)));
  } else if (Array.isArray(tx)) {
    blocks.push(context(m.answeredList), ...tx.slice(0, STATEMENT_PAGE_SIZE).map((e) => section(entryText(locale, e))));
  } else {
    blocks.push(section(tx === null || tx === undefined || tx === '' ? m.emptyAnswer : m.answered(formatValue(locale, '', tx))));
  }
  blocks.push(context(m.timesNote));
  return { text: m.transactionText(input.transactionId), blocks };
}
