import { ErrorCode as SlackErrorCode, WebClient } from '@slack/web-api';
import { NotADateError } from '../../src/approvals/delegation';
import { ApprovalInDoubtError } from '../../src/approvals/kinds';
import { MalformedAuditEntryError } from '../../src/audit/entry';
import { FileOverCapError } from '../../src/domain/proof-files';
import { NoStartOfDayError } from '../../src/domain/sao-paulo-date';
import { InvalidEntryTableError, UsageError } from '../../src/entry/table';
import { ClaimLostError, ConfigError, describeError, PixOpsError } from '../../src/errors';
import { DeliveryError } from '../../src/limit-requests/deliver';
import { TrackedRecordMissingError } from '../../src/limit-requests/sweep';
import { BudgetWaitAbortedError } from '../../src/pix/budget';
import { NoDefaultAccountError } from '../../src/pix/default-account';
import { PixApiError } from '../../src/pix/errors';
import { PublicKeysUnavailableError } from '../../src/pix-events/public-keys';
import { PollerStoppedError } from '../../src/poller';
import { DeadlinePassedError } from '../../src/runtime/deadline';
import { BoltListenerRefusedError } from '../../src/slack/bolt-app';
import { NotExactClientError } from '../../src/slack/exact-client';
import { IncompleteSlackAnswerError } from '../../src/slack/incomplete-answer';
import { SlackPaceError } from '../../src/slack/pacing';
import { PostUnknownError } from '../../src/slack/post-once';
import { FileShorterThanLengthError, UploadRefusedError, UploadStalledError } from '../../src/slack/upload-file';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { WrongSecretError } from '../../src/store/copy';
import { StoreLocationError, StoreRefusedError, StoreUnavailableError } from '../../src/store/errors';

const TOKEN = 'xoxb-secret-token-that-must-never-be-logged';
const APP_ID = 'app-id-that-must-never-be-logged-0123456789';

describe('one family of errors, each with a code', () => {
  const errors: PixOpsError[] = [
    new ConfigError('STORE_URL: cannot write there'),
    PixApiError.fromResponse('getLimits', 404, { error: 'not found' }),
    new BudgetWaitAbortedError(),
    new NoDefaultAccountError(),
    new FileOverCapError('statement.pdf'),
    new UsageError('one account id'),
    new InvalidEntryTableError('The entry table has no help command'),
    new DeadlinePassedError('no answer within 500 ms'),
    new PollerStoppedError(),
    new StoreUnavailableError('get', new Error('The client is offline')),
    new StoreLocationError('the folder cannot be made'),
    new StoreRefusedError('Redis’s maxmemory-policy is allkeys-lru'),
    new WrongSecretError('AppIDs'),
    new PostUnknownError(new Error('socket hang up')),
    new SlackPaceError('chat.postMessage', 'C0BUSY', 20_000),
    new NotExactClientError('A post made once'),
    new UploadRefusedError(500),
    new BoltListenerRefusedError('action'),
    new IncompleteSlackAnswerError('chat.postMessage answered without a ts'),
    new UploadStalledError(),
    new FileShorterThanLengthError(),
    new DeliveryError('post-reply', new Error('socket hang up')),
    new ApprovalInDoubtError('the limit request may have been filed'),
    new MalformedAuditEntryError('Audit entry 1-0 is not an entry'),
    new NoStartOfDayError('No start of 2026-03-05 in São Paulo'),
    new NotADateError('Not a date: 2026-02-30'),
    new TrackedRecordMissingError('in the poll set without a record; removed from the poll set'),
    new PublicKeysUnavailableError('HTTP 503'),
    new ClaimLostError('the claim on approval 0123456789abcdef lapsed'),
  ];

  test.each(errors.map((e) => [e.constructor.name, e] as const))('%s derives from PixOpsError and names itself by a code', (_, err) => {
    expect(err).toBeInstanceOf(PixOpsError);
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toMatch(/^pixops_[a-z_]+$/);
  });

  test('each class its own code', () => {
    const codes = errors.map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });
});

describe('describeError: every failure described one way, from known fields', () => {
  test('the app’s own errors: code and message, and the cause described the same way', () => {
    expect(describeError(new StoreUnavailableError('get', new Error('The client is offline')))).toEqual({
      code: 'pixops_store_unavailable',
      err: 'The store is unavailable (get): The client is offline',
      cause: { err: 'The client is offline' },
    });
    expect(describeError(new DeliveryError('post-dm', new PostUnknownError(new Error('socket hang up'))))).toEqual({
      step: 'post-dm',
      code: 'pixops_slack_post_unknown',
      err: 'chat.postMessage failed without an answer, and the channel could not be read to tell whether it was posted',
      cause: { err: 'socket hang up' },
    });
  });

  test('a Pix API error: the call, the kind, the status and the API’s words and code; never its body', () => {
    const err = PixApiError.fromResponse('createLimitRequest', 422, {
      error: 'limit too high',
      errorCode: 'LIMIT_TOO_HIGH',
      appId: APP_ID,
    });
    expect(describeError(err)).toEqual({
      pix: { operation: 'createLimitRequest', kind: 'http', status: 422, error: 'limit too high', errorCode: 'LIMIT_TOO_HIGH' },
    });
    expect(JSON.stringify(describeError(err))).not.toContain(APP_ID);
  });

  test('an error object carrying its request (headers, token): only its message', () => {
    const err = Object.assign(new Error('Request failed with status code 500'), {
      config: { headers: { Authorization: `Bearer ${TOKEN}` } },
      request: { appId: APP_ID },
    });
    expect(describeError(err)).toEqual({ err: 'Request failed with status code 500' });
    expect(describeError('a string')).toEqual({ err: 'a string' });
  });

  test('Slack’s Web API errors: the code and Slack’s error, as the client throws them', async () => {
    const slack = await new SlackStandIn().start();
    try {
      slack.on('chat.postMessage', () => ({ ok: false, error: 'not_in_channel' }));
      const client = new WebClient(TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
      const err = await client.chat.postMessage({ channel: 'C0GONE', text: 'hi' }).catch((e: unknown) => e);
      expect(describeError(err)).toEqual({
        slack: { code: SlackErrorCode.PlatformError, error: 'not_in_channel' },
        err: 'An API error occurred: not_in_channel',
      });
      expect(JSON.stringify(describeError(err))).not.toContain(TOKEN);
    } finally {
      await slack.close();
    }
  });
});
