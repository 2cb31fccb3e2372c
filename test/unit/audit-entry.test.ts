import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csvEntry, csvField, csvHead, spoolCsv } from '../../src/audit/csv';
import type { StoredAuditEntry } from '../../src/audit/entry';
import { type AuditEntry, buildEntry, maskedPixPath, targetText } from '../../src/audit/entry';
import { SecretRegistry } from '../../src/runtime/logger';

const base: AuditEntry = { time: '2026-03-05T12:00:00.000Z', user: 'U0ADMIN01', role: 'admin', action: '/pix key delete', outcome: 'ok' };

describe('audit entries: built once, masked, no secret', () => {
  test('targets in a fixed order, the Pix key masked', () => {
    expect(targetText({ pixKey: 'finance@example.com', account: 'acc1', period: '2026-03-01..2026-03-05' })).toBe(
      'account:acc1 key:f***@example.com period:2026-03-01..2026-03-05',
    );
    expect(targetText({ pixKey: '' })).toBeUndefined();
    expect(targetText({})).toBeUndefined();
  });

  test('a Pix path names its key masked; other paths are left alone', () => {
    expect(maskedPixPath('/api/v1/pix-keys/finance%40example.com', 'finance@example.com')).toBe('/api/v1/pix-keys/f***@example.com');
    // Eleven digits, a CPF or a phone: masked as strictly as either.
    expect(maskedPixPath('/api/v1/pix-keys/52998224725', '52998224725')).toBe('/api/v1/pix-keys/***25');
    // The key is only ever the last segment: a key that looks like another segment changes nothing else.
    expect(maskedPixPath('/api/v1/pix-keys/v1', 'v1')).toBe('/api/v1/pix-keys/***');
    expect(maskedPixPath('/api/v1/pix-keys/withdraw', '52998224725')).toBe('/api/v1/pix-keys/withdraw');
  });

  test('every secret the app knows is replaced, whatever field it slipped into; long texts are cut', () => {
    const secrets = new SecretRegistry();
    secrets.add('xoxb-secret-token-123456');
    secrets.add('APPID-0123456789abcdef');
    const entry = buildEntry(
      { ...base, target: 'account:APPID-0123456789abcdef', detail: 'xoxb-secret-token-123456', pixPath: `/x/${'a'.repeat(400)}` },
      (t) => secrets.scrub(t),
    );
    expect(JSON.stringify(entry)).not.toMatch(/xoxb-secret|APPID-0123/);
    expect(entry.target).toBe('account:[REDACTED]');
    expect(entry.detail).toBe('[REDACTED]');
    expect(entry.pixPath).toHaveLength(300);
    expect(entry.pixPath!.endsWith('…')).toBe(true);
  });

  test('an entry that is not one is refused (the schema is the contract of the trail)', () => {
    expect(() => buildEntry({ ...base, outcome: 'maybe' as never }, (t) => t)).toThrow();
    expect(() => buildEntry({ ...base, role: 'root' as never }, (t) => t)).toThrow();
  });
});

describe('the CSV (RFC 4180, UTF-8 with a byte-order mark)', () => {
  test('fields: quoted when they hold a comma, a quote or a line break; quotes doubled; formulas defused', () => {
    expect(csvField(undefined)).toBe('');
    expect(csvField(204)).toBe('204');
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField('cr\r\nlf')).toBe('"cr\r\nlf"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+5511')).toBe("'+5511");
  });

  test('the head: BOM, then the header in the reader’s language; records end with CRLF', () => {
    expect(csvHead('en')).toBe('\uFEFFtime (UTC),user,role,action,target,Pix method,Pix path,Pix status,maker,checker,outcome,detail\r\n');
    expect(csvHead('pt-BR')).toBe(
      '\uFEFFhorário (UTC),usuário,papel,ação,alvo,método Pix,caminho Pix,status Pix,solicitante,aprovador,resultado,detalhe\r\n',
    );
    expect(csvEntry({ ...base, pixStatus: 204, pixMethod: 'DELETE', maker: 'U1', checker: 'U2' })).toBe(
      '2026-03-05T12:00:00.000Z,U0ADMIN01,admin,/pix key delete,,DELETE,,204,U1,U2,ok,\r\n',
    );
  });
});

describe('spoolCsv: the CSV of a snapshot, through one buffer, to a private file', () => {
  const entry = (i: number, extra: Partial<AuditEntry> = {}): StoredAuditEntry => ({ ...base, id: String(i), user: `U${i}`, ...extra });

  test('the bytes are the head and each entry’s record, whatever the buffer’s flushes; a record larger than the buffer too', async () => {
    const batches: StoredAuditEntry[][] = [
      Array.from({ length: 3_000 }, (_, i) =>
        entry(i, { target: `account:a${i}`, detail: i % 3 === 0 ? 'x, "y"\nz' : undefined, pixStatus: i % 2 ? 200 : undefined }),
      ),
      [entry(3_000, { detail: 'é'.repeat(300_000) })],
      [entry(3_001, { action: '=cmd|calc' })],
    ];
    const csv = await spoolCsv(
      {
        batches: async function* () {
          yield* batches;
        },
      },
      'pt-BR',
    );
    try {
      const expected = csvHead('pt-BR') + batches.flat().map(csvEntry).join('');
      const written = readFileSync(csv.file);
      expect(written.equals(Buffer.from(expected, 'utf8'))).toBe(true);
      expect(csv.bytes).toBe(written.length);
      expect(csv.entries).toBe(3_002);
    } finally {
      await csv.dispose();
    }
    expect(existsSync(csv.file)).toBe(false);
  });

  test('a snapshot that fails leaves no file behind', async () => {
    const under = mkdtempSync(path.join(tmpdir(), 'spool-test-'));
    try {
      const failing = {
        batches: async function* () {
          yield [entry(1)];
          throw new Error('the store went away');
        },
      };
      await expect(spoolCsv(failing, 'en', under)).rejects.toThrow('the store went away');
      expect(readdirSync(under)).toEqual([]);
      const done = await spoolCsv(
        {
          batches: async function* () {
            yield [entry(2)];
          },
        },
        'en',
        under,
      );
      expect(readdirSync(under)).toHaveLength(1);
      expect(statSync(done.file).mode & 0o777).toBe(0o600);
      await done.dispose();
      expect(readdirSync(under)).toEqual([]);
    } finally {
      rmSync(under, { recursive: true, force: true });
    }
  });
});
