import { Readable } from 'node:stream';
import { messages, type Locale } from '../i18n';
import type { AuditSnapshot } from '../store/audit-trail';
import type { AuditEntry } from './entry';

/** The byte-order mark: spreadsheets then read the file as UTF-8 (accents in the header, `…`). */
const BOM = '\uFEFF';
/** RFC 4180: records end with CRLF. */
const EOL = '\r\n';

/** The columns, in order: the entry's fields, with the header word of each (in the reader's language). */
const COLUMNS: Array<[keyof AuditEntry, keyof ReturnType<typeof messages>['audit']]> = [
  ['time', 'columnTime'],
  ['user', 'columnUser'],
  ['role', 'columnRole'],
  ['action', 'columnAction'],
  ['target', 'columnTarget'],
  ['pixMethod', 'columnPixMethod'],
  ['pixPath', 'columnPixPath'],
  ['pixStatus', 'columnPixStatus'],
  ['maker', 'columnMaker'],
  ['checker', 'columnChecker'],
  ['outcome', 'columnOutcome'],
  ['detail', 'columnDetail'],
];

/**
 * One field, RFC 4180: quoted when it holds a comma, a quote or a line break, its quotes doubled.
 * A field that a spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) is prefixed with `'`, as OWASP advises against CSV injection; no field the app
 * writes begins so, but nothing guarantees it of what Slack or the Pix API sent.
 */
export function csvField(value: string | number | undefined): string {
  if (value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRecord = (fields: Array<string | number | undefined>) => `${fields.map(csvField).join(',')}${EOL}`;

/** The file's beginning: the byte-order mark and the header, in the reader's language. */
export function csvHead(locale: Locale): string {
  const words = messages(locale).audit;
  return `${BOM}${csvRecord(COLUMNS.map(([, word]) => words[word] as string))}`;
}

export const csvEntry = (entry: AuditEntry) => csvRecord(COLUMNS.map(([field]) => entry[field]));

export interface AuditCsv {
  /** The file's size in bytes and its number of entries: a first read of the snapshot. */
  measure(): Promise<{ bytes: number; entries: number }>;
  /** The file, read from the snapshot batch by batch as the reader pulls (never all of it in memory). */
  stream(): Readable;
}

/**
 * The CSV of a snapshot. Slack wants a file's length before its bytes (files.getUploadURLExternal),
 * so the snapshot is read twice: once to count, once to send. A snapshot reads the same each time
 * (the trail is append-only), so the two agree.
 */
export function auditCsv(snapshot: AuditSnapshot, locale: Locale): AuditCsv {
  const head = csvHead(locale);
  async function* chunks(): AsyncGenerator<Buffer> {
    yield Buffer.from(head, 'utf8');
    for await (const batch of snapshot.batches()) yield Buffer.from(batch.map(csvEntry).join(''), 'utf8');
  }
  return {
    async measure() {
      let bytes = Buffer.byteLength(head, 'utf8');
      let entries = 0;
      for await (const batch of snapshot.batches()) {
        entries += batch.length;
        for (const entry of batch) bytes += Buffer.byteLength(csvEntry(entry), 'utf8');
      }
      return { bytes, entries };
    },
    stream: () => Readable.from(chunks(), { objectMode: false }),
  };
}
