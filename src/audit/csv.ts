import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Locale, messages } from '../i18n';
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

const FORMULA = /^[=+\-@\t\r]/;
const SPECIAL = /^[=+\-@\t\r]|[",\r\n]/;

/**
 * One field, RFC 4180: quoted when it holds a comma, a quote or a line break, its quotes doubled.
 * A field that a spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) is prefixed with `'`, as OWASP advises against CSV injection; no field the app
 * writes begins so, but nothing guarantees it of what Slack or the Pix API sent.
 */
export function csvField(value: string | number | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'number') return String(value);
  // The common case, one test and no copy: nothing to quote or defuse.
  if (!SPECIAL.test(value)) return value;
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRecord = (fields: Array<string | number | undefined>) => `${fields.map(csvField).join(',')}${EOL}`;

/** The file's beginning: the byte-order mark and the header, in the reader's language. */
export function csvHead(locale: Locale): string {
  const words = messages(locale).audit;
  return `${BOM}${csvRecord(COLUMNS.map(([, word]) => words[word] as string))}`;
}

/** One entry's record. */
export function csvEntry(entry: AuditEntry): string {
  return csvRecord(COLUMNS.map(([field]) => entry[field]));
}

const COMMA = 0x2c;
const CRLF = Buffer.from(EOL, 'latin1');

/** The bytes of `csvEntry(entry)`, counted without making it. */
function recordBytes(entry: AuditEntry): number {
  let bytes = COLUMNS.length - 1 + CRLF.length;
  for (const [field] of COLUMNS) bytes += Buffer.byteLength(csvField(entry[field]), 'utf8');
  return bytes;
}

/** Writes `csvEntry(entry)` into `buffer` at `at`, field by field (the caller made room); returns where it ends. */
function writeRecord(buffer: Buffer, at: number, entry: AuditEntry): number {
  let end = at;
  for (let i = 0; i < COLUMNS.length; i++) {
    if (i > 0) buffer[end++] = COMMA;
    end += buffer.write(csvField(entry[COLUMNS[i]![0]]), end, 'utf8');
  }
  return end + CRLF.copy(buffer, end);
}

/** A CSV file written out to a private temporary folder, to be uploaded, then removed with `dispose`. */
export interface SpooledCsv {
  file: string;
  bytes: number;
  entries: number;
  dispose(): Promise<void>;
}

/** The write buffer of a spool: records go into it, and it goes to the file when full. */
const SPOOL_BUFFER = 256 * 1024;

/**
 * The CSV of a snapshot, written to a temporary file (mode 0600, in a folder of its own) as it is
 * read, batch by batch, through one reused buffer: never all of it in memory. Slack wants a file's
 * length before its bytes (files.getUploadURLExternal), and a file knows it.
 */
export async function spoolCsv(snapshot: AuditSnapshot, locale: Locale, under = tmpdir()): Promise<SpooledCsv> {
  const dir = await mkdtemp(path.join(under, 'pix-ops-audit-'));
  const file = path.join(dir, 'audit.csv');
  const dispose = () => rm(dir, { recursive: true, force: true });
  try {
    const handle = await open(file, 'wx', 0o600);
    let bytes = 0;
    let entries = 0;
    try {
      const buffer = Buffer.allocUnsafe(SPOOL_BUFFER);
      let used = 0;
      const flush = async () => {
        for (let at = 0; at < used; ) at += (await handle.write(buffer, at, used - at)).bytesWritten;
        used = 0;
      };
      const head = Buffer.from(csvHead(locale), 'utf8');
      used = head.copy(buffer);
      bytes = head.length;
      // Field by field into the buffer, awaiting only to flush it: at 100,000 entries, a string, a
      // buffer or a promise per record is garbage enough for the collector to let the process grow
      // by tens of MiB (bench/audit.ts).
      for await (const batch of snapshot.batches()) {
        for (const entry of batch) {
          const length = recordBytes(entry);
          if (used + length > buffer.length) await flush();
          if (length > buffer.length) await handle.write(csvEntry(entry), null, 'utf8');
          else used = writeRecord(buffer, used, entry);
          bytes += length;
        }
        entries += batch.length;
      }
      await flush();
    } finally {
      await handle.close();
    }
    return { file, bytes, entries, dispose };
  } catch (err) {
    await dispose();
    throw err;
  }
}
