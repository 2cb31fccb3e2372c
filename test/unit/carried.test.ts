import type { z } from 'zod';
import { CAMPAIGN_NAME_MAX } from '../../views/accounts';
import { AUDIT_MAX_DAYS } from '../../views/audit';
import {
  AccountCreateMetaSchema,
  AccountLinkMetaSchema,
  AppRetrySchema,
  AuditPageRefSchema,
  BUTTON_VALUE_MAX,
  EvidenceButtonSchema,
  EvidenceMetaSchema,
  evidenceButton,
  HomeKeysSchema,
  KeyAddMetaSchema,
  KeyRefSchema,
  KeysPageSchema,
  PRIVATE_METADATA_MAX,
  RejectMetaSchema,
  readCarried,
  StatementPageSchema,
} from '../../views/carried';
import { keyButtonValue, keysPageValue } from '../../views/pix-keys';
import { pageValue } from '../../views/statement';

// The longest of each: ids at PixIdSchema's 64, Slack IDs at 30, and free text made of control
// characters, which JSON writes six characters each (`\u0001`).
const ACCOUNT = 'a'.repeat(64);
const CHANNEL = 'C'.repeat(30);
const text = (length: number) => '\u0001'.repeat(length);
const PAGE = 1_000_000;

const buttons: Array<[string, z.ZodType, string]> = [
  ['a Pix key', KeyRefSchema, keyButtonValue(ACCOUNT, text(100))],
  ['a page of keys', KeysPageSchema, keysPageValue(ACCOUNT, PAGE)],
  ['a page of the statement', StatementPageSchema, pageValue(PAGE, ACCOUNT)],
  ['the Home tab’s keys', HomeKeysSchema, JSON.stringify({ accountId: ACCOUNT, isDefault: false })],
  [
    'a page of the audit trail',
    AuditPageRefSchema,
    JSON.stringify({
      days: AUDIT_MAX_DAYS,
      since: Number.MAX_SAFE_INTEGER,
      top: text(40),
      page: PAGE,
      before: text(40),
      after: text(40),
    }),
  ],
  // A dispute's summary keeps text up to 500 characters (src/pix-events/summary.ts), its id included.
  ['a dispute’s evidence', EvidenceButtonSchema, JSON.stringify(evidenceButton(text(100), text(500)))],
  [
    'an application’s retry',
    AppRetrySchema,
    JSON.stringify({ accountId: ACCOUNT, name: text(CAMPAIGN_NAME_MAX), channelId: CHANNEL, failureTs: text(40) }),
  ],
];

const modals: Array<[string, z.ZodType, string]> = [
  ['the new account form', AccountCreateMetaSchema, JSON.stringify({ channelId: CHANNEL })],
  ['the AppID form', AccountLinkMetaSchema, JSON.stringify({ channelId: CHANNEL, accountId: ACCOUNT })],
  ['the Pix key form', KeyAddMetaSchema, JSON.stringify({ channelId: CHANNEL, accountId: ACCOUNT })],
  ['the evidence form', EvidenceMetaSchema, JSON.stringify({ channelId: CHANNEL, disputeId: ACCOUNT })],
  ['the reject form', RejectMetaSchema, JSON.stringify({ approvalId: 'f'.repeat(16) })],
];

describe('what buttons and modals carry, at its longest', () => {
  test.each(buttons)('%s: within a button value’s 2,000 characters, and read back', (_, schema, value) => {
    expect(value.length).toBeLessThanOrEqual(BUTTON_VALUE_MAX);
    expect(readCarried(schema, value)).toEqual(JSON.parse(value));
  });

  test.each(modals)('%s: within private_metadata’s 3,000 characters, and read back', (_, schema, value) => {
    expect(value.length).toBeLessThanOrEqual(PRIVATE_METADATA_MAX);
    expect(readCarried(schema, value)).toEqual(JSON.parse(value));
  });

  test('an event’s dispute id that is no id the form takes is not carried; a real one is', () => {
    expect(evidenceButton('E1', text(500))).toEqual({ endToEndId: 'E1' });
    expect(evidenceButton('E1', ACCOUNT)).toEqual({ endToEndId: 'E1', disputeId: ACCOUNT });
  });

  test('what is not JSON of its schema reads as nothing', () => {
    expect(readCarried(KeyRefSchema, undefined)).toBeUndefined();
    expect(readCarried(KeyRefSchema, '{"accountId":')).toBeUndefined();
    expect(readCarried(KeyRefSchema, JSON.stringify({ a: ACCOUNT, k: 'key' }))).toBeUndefined();
    expect(readCarried(KeyRefSchema, JSON.stringify({ accountId: ACCOUNT, pixKey: '..' }))).toBeUndefined();
  });
});
