import { WebClient } from '@slack/web-api';
import {
  blocksRefusal,
  checkMessage,
  checkOptionsAck,
  checkView,
  checkViewSubmissionAck,
  type Problem,
  problemText,
  viewsRefusal,
} from '../../src/slack-standin/block-kit-rules';
import { SlackStandIn } from '../../src/slack-standin/web-api';

// Each rule of the validator, at its limit (accepted) and one past it (refused, with the pointer).

const plain = (text: string) => ({ type: 'plain_text', text });
const mrkdwn = (text: string) => ({ type: 'mrkdwn', text });
const x = (n: number) => 'x'.repeat(n);
const modal = (blocks: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'modal',
  title: plain('Title'),
  close: plain('Close'),
  blocks,
  ...extra,
});
const formModal = (blocks: unknown[], extra: Record<string, unknown> = {}) => modal(blocks, { submit: plain('Send'), ...extra });
const section = (text: string) => ({ type: 'section', text: mrkdwn(text) });
const input = (element: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'input',
  block_id: 'in',
  label: plain('Label'),
  element,
  ...extra,
});
const button = (extra: Record<string, unknown> = {}) => ({ type: 'button', action_id: 'b', text: plain('Go'), ...extra });
const option = (text: string, value: string) => ({ text: plain(text), value });
const texts = (problems: Problem[]) => problems.map(problemText);

/** The problems of a message made of these blocks. */
const inMessage = (...blocks: unknown[]) => texts(checkMessage({ blocks }));
/** The problems of a modal with an input block holding this element. */
const inModalInput = (element: Record<string, unknown>) => texts(checkView(formModal([input(element)])));

describe('Slack answers', () => {
  it('answers views.* as invalid_arguments and chat.* as invalid_blocks, each problem with its JSON pointer', () => {
    const problems = checkView(modal([], { title: plain(x(25)) }));
    expect(viewsRefusal(problems)).toEqual({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: { messages: ['[ERROR] must be less than 25 characters [json-pointer:/view/title/text]'] },
    });
    const blocks = checkMessage({ blocks: [section('')] });
    expect(blocksRefusal(blocks)).toEqual({
      ok: false,
      error: 'invalid_blocks',
      errors: ['must be more than 0 characters [json-pointer:/blocks/0/text/text]'],
      response_metadata: { messages: ['[ERROR] must be more than 0 characters [json-pointer:/blocks/0/text/text]'] },
    });
  });
});

describe('views', () => {
  it('modal title, close and submit: plain_text, at most 24 characters', () => {
    expect(checkView(formModal([], { title: plain(x(24)), close: plain(x(24)), submit: plain(x(24)) }))).toEqual([]);
    expect(texts(checkView(formModal([], { title: plain(x(25)), close: plain(x(25)), submit: plain(x(25)) })))).toEqual([
      '[ERROR] must be less than 25 characters [json-pointer:/view/title/text]',
      '[ERROR] must be less than 25 characters [json-pointer:/view/close/text]',
      '[ERROR] must be less than 25 characters [json-pointer:/view/submit/text]',
    ]);
    expect(texts(checkView(modal([], { title: mrkdwn('Title') })))).toEqual(['[ERROR] must be plain_text [json-pointer:/view/title/type]']);
    expect(texts(checkView({ type: 'modal', blocks: [] }))).toEqual(['[ERROR] missing required field: title [json-pointer:/view]']);
  });

  it('a modal with an input block needs a submit button', () => {
    const field = input({ type: 'plain_text_input', action_id: 't' });
    expect(checkView(formModal([field]))).toEqual([]);
    expect(texts(checkView(modal([field])))).toEqual(['[ERROR] missing required field: submit [json-pointer:/view]']);
  });

  it('blocks: at most 100 in a modal and a Home tab', () => {
    const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'divider' }));
    expect(checkView(modal(blocks(100)))).toEqual([]);
    expect(checkView({ type: 'home', blocks: blocks(100) })).toEqual([]);
    expect(texts(checkView(modal(blocks(101))))).toEqual(['[ERROR] no more than 100 items allowed [json-pointer:/view/blocks]']);
    expect(texts(checkView({ type: 'home', blocks: blocks(101) }))).toEqual([
      '[ERROR] no more than 100 items allowed [json-pointer:/view/blocks]',
    ]);
  });

  it('private_metadata at most 3,000 characters, callback_id at most 255', () => {
    expect(checkView(modal([], { private_metadata: x(3000), callback_id: x(255) }))).toEqual([]);
    expect(texts(checkView(modal([], { private_metadata: x(3001), callback_id: x(256) })))).toEqual([
      '[ERROR] must be less than 3001 characters [json-pointer:/view/private_metadata]',
      '[ERROR] must be less than 256 characters [json-pointer:/view/callback_id]',
    ]);
    expect(texts(checkView({ type: 'home', blocks: [], private_metadata: x(3001) }))).toEqual([
      '[ERROR] must be less than 3001 characters [json-pointer:/view/private_metadata]',
    ]);
  });

  it('a view is a modal or a Home tab', () => {
    expect(texts(checkView({ type: 'dialog', blocks: [] }))).toEqual(['[ERROR] must be one of modal, home [json-pointer:/view/type]']);
    expect(texts(checkView(undefined))).toEqual(['[ERROR] must be an object [json-pointer:/view]']);
  });
});

describe('messages', () => {
  it('blocks: at most 50', () => {
    const blocks = (n: number) => Array.from({ length: n }, () => ({ type: 'divider' }));
    expect(checkMessage({ blocks: blocks(50) })).toEqual([]);
    expect(texts(checkMessage({ blocks: blocks(51) }))).toEqual(['[ERROR] no more than 50 items allowed [json-pointer:/blocks]']);
  });

  it('a message without blocks is only text', () => {
    expect(checkMessage({ text: 'hello' })).toEqual([]);
  });
});

describe('blocks', () => {
  it('block_id: at most 255 characters, unique in the surface', () => {
    expect(inMessage({ type: 'divider', block_id: x(255) })).toEqual([]);
    expect(inMessage({ type: 'divider', block_id: x(256) })).toEqual([
      '[ERROR] must be less than 256 characters [json-pointer:/blocks/0/block_id]',
    ]);
    expect(inMessage({ type: 'divider', block_id: 'a' }, { type: 'divider', block_id: 'a' })).toEqual([
      '[ERROR] duplicate block_id: a [json-pointer:/blocks/1/block_id]',
    ]);
    expect(texts(checkView(formModal([input({ type: 'plain_text_input' }), input({ type: 'plain_text_input' })])))).toEqual([
      '[ERROR] duplicate block_id: in [json-pointer:/view/blocks/1/block_id]',
    ]);
  });

  it('an unknown block type is refused', () => {
    expect(inMessage({ type: 'banner' })).toEqual(['[ERROR] unsupported block type: banner [json-pointer:/blocks/0/type]']);
  });

  it('text objects are never empty', () => {
    expect(inMessage(section(''))).toEqual(['[ERROR] must be more than 0 characters [json-pointer:/blocks/0/text/text]']);
    expect(inMessage({ type: 'context', elements: [plain('')] })).toEqual([
      '[ERROR] must be more than 0 characters [json-pointer:/blocks/0/elements/0/text]',
    ]);
    expect(inMessage({ type: 'section', text: { type: 'mrkdwn' } })).toEqual([
      '[ERROR] missing required field: text [json-pointer:/blocks/0/text]',
    ]);
    expect(inMessage({ type: 'section', text: { type: 'html', text: 'a' } })).toEqual([
      '[ERROR] must be one of plain_text, mrkdwn [json-pointer:/blocks/0/text/type]',
    ]);
    expect(inMessage({ type: 'section', text: { type: 'mrkdwn', text: 'a', emoji: true } })).toEqual([
      '[ERROR] emoji is only usable with plain_text [json-pointer:/blocks/0/text/emoji]',
    ]);
  });

  it('section: text at most 3,000; fields at most 10, each at most 2,000; text or fields', () => {
    expect(inMessage(section(x(3000)))).toEqual([]);
    expect(inMessage(section(x(3001)))).toEqual(['[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/text/text]']);
    expect(inMessage({ type: 'section', fields: Array.from({ length: 10 }, () => mrkdwn(x(2000))) })).toEqual([]);
    expect(inMessage({ type: 'section', fields: Array.from({ length: 11 }, () => mrkdwn('a')) })).toEqual([
      '[ERROR] no more than 10 items allowed [json-pointer:/blocks/0/fields]',
    ]);
    expect(inMessage({ type: 'section', fields: [mrkdwn(x(2001))] })).toEqual([
      '[ERROR] must be less than 2001 characters [json-pointer:/blocks/0/fields/0/text]',
    ]);
    expect(inMessage({ type: 'section' })).toEqual(['[ERROR] missing required field: text [json-pointer:/blocks/0]']);
  });

  it('section accessory: only the elements Slack lists', () => {
    expect(inMessage({ ...section('a'), accessory: button() })).toEqual([]);
    expect(inMessage({ ...section('a'), accessory: { type: 'plain_text_input' } })).toEqual([
      '[ERROR] plain_text_input is not allowed here [json-pointer:/blocks/0/accessory/type]',
    ]);
  });

  it('header: plain_text, at most 150', () => {
    expect(inMessage({ type: 'header', text: plain(x(150)) })).toEqual([]);
    expect(inMessage({ type: 'header', text: plain(x(151)) })).toEqual([
      '[ERROR] must be less than 151 characters [json-pointer:/blocks/0/text/text]',
    ]);
    expect(inMessage({ type: 'header', text: mrkdwn('a') })).toEqual(['[ERROR] must be plain_text [json-pointer:/blocks/0/text/type]']);
  });

  it('context: 1 to 10 elements', () => {
    expect(inMessage({ type: 'context', elements: Array.from({ length: 10 }, () => mrkdwn('a')) })).toEqual([]);
    expect(inMessage({ type: 'context', elements: Array.from({ length: 11 }, () => mrkdwn('a')) })).toEqual([
      '[ERROR] no more than 10 items allowed [json-pointer:/blocks/0/elements]',
    ]);
    expect(inMessage({ type: 'context', elements: [] })).toEqual([
      '[ERROR] must provide at least 1 items [json-pointer:/blocks/0/elements]',
    ]);
  });

  it('actions: 1 to 25 elements, action_id unique in the block', () => {
    const buttons = (n: number) => Array.from({ length: n }, (_, i) => button({ action_id: `b${i}` }));
    expect(inMessage({ type: 'actions', elements: buttons(25) })).toEqual([]);
    expect(inMessage({ type: 'actions', elements: buttons(26) })).toEqual([
      '[ERROR] no more than 25 items allowed [json-pointer:/blocks/0/elements]',
    ]);
    expect(inMessage({ type: 'actions', elements: [button(), button()] })).toEqual([
      '[ERROR] duplicate action_id in block: b [json-pointer:/blocks/0/elements/1/action_id]',
    ]);
    // The same action_id in two blocks is what Slack documents as fine (unique "in the containing block").
    expect(inMessage({ type: 'actions', elements: [button()] }, { type: 'actions', elements: [button()] })).toEqual([]);
  });

  it('input: label and hint plain_text at most 2,000; an element is required', () => {
    const text = { type: 'plain_text_input', action_id: 't' };
    expect(texts(checkView(formModal([input(text, { label: plain(x(2000)), hint: plain(x(2000)) })])))).toEqual([]);
    expect(texts(checkView(formModal([input(text, { label: plain(x(2001)), hint: plain(x(2001)) })])))).toEqual([
      '[ERROR] must be less than 2001 characters [json-pointer:/view/blocks/0/label/text]',
      '[ERROR] must be less than 2001 characters [json-pointer:/view/blocks/0/hint/text]',
    ]);
    expect(texts(checkView(formModal([{ type: 'input', label: plain('a') }])))).toEqual([
      '[ERROR] missing required field: element [json-pointer:/view/blocks/0]',
    ]);
    expect(texts(checkView(formModal([input(button())])))).toEqual([
      '[ERROR] button is not allowed here [json-pointer:/view/blocks/0/element/type]',
    ]);
  });

  it('file input: only in an input block of a modal, 1 to 10 files', () => {
    const file = { type: 'file_input', action_id: 'f', max_files: 10, filetypes: ['pdf'] };
    expect(inModalInput(file)).toEqual([]);
    expect(inModalInput({ ...file, max_files: 11 })).toEqual([
      '[ERROR] must be at most 10 [json-pointer:/view/blocks/0/element/max_files]',
    ]);
    expect(texts(checkView({ type: 'home', blocks: [input(file)] }))).toEqual([
      '[ERROR] file_input is only available in modals [json-pointer:/view/blocks/0/element/type]',
    ]);
    expect(inMessage(input(file))).toEqual(['[ERROR] file_input is only available in modals [json-pointer:/blocks/0/element/type]']);
    expect(inMessage({ type: 'actions', elements: [file] })).toEqual([
      '[ERROR] file_input is not allowed here [json-pointer:/blocks/0/elements/0/type]',
    ]);
  });

  it('image block: alt_text at most 2,000, image_url at most 3,000', () => {
    expect(inMessage({ type: 'image', alt_text: x(2000), image_url: `https://e.x/${x(2988)}` })).toEqual([]);
    expect(inMessage({ type: 'image', alt_text: x(2001), image_url: `https://e.x/${x(2989)}` })).toEqual([
      '[ERROR] must be less than 2001 characters [json-pointer:/blocks/0/alt_text]',
      '[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/image_url]',
    ]);
  });
});

describe('elements', () => {
  const inActions = (element: Record<string, unknown>) => inMessage({ type: 'actions', elements: [element] });

  it('action_id at most 255', () => {
    expect(inActions(button({ action_id: x(255) }))).toEqual([]);
    expect(inActions(button({ action_id: x(256) }))).toEqual([
      '[ERROR] must be less than 256 characters [json-pointer:/blocks/0/elements/0/action_id]',
    ]);
  });

  it('button: text at most 75, value at most 2,000, url at most 3,000, style primary or danger', () => {
    expect(inActions(button({ text: plain(x(75)), value: x(2000), style: 'danger' }))).toEqual([]);
    expect(inActions(button({ text: plain(x(76)), value: x(2001), url: `https://e.x/${x(2989)}`, style: 'secondary' }))).toEqual([
      '[ERROR] must be less than 76 characters [json-pointer:/blocks/0/elements/0/text/text]',
      '[ERROR] must be less than 2001 characters [json-pointer:/blocks/0/elements/0/value]',
      '[ERROR] must be less than 3001 characters [json-pointer:/blocks/0/elements/0/url]',
      '[ERROR] must be one of primary, danger [json-pointer:/blocks/0/elements/0/style]',
    ]);
    expect(inActions(button({ text: plain('') }))).toEqual([
      '[ERROR] must be more than 0 characters [json-pointer:/blocks/0/elements/0/text/text]',
    ]);
  });

  it('confirm: title at most 100, text at most 300, confirm and deny at most 30, all required', () => {
    const confirm = { title: plain(x(100)), text: mrkdwn(x(300)), confirm: plain(x(30)), deny: plain(x(30)) };
    expect(inActions(button({ confirm }))).toEqual([]);
    expect(
      inActions(button({ confirm: { title: plain(x(101)), text: mrkdwn(x(301)), confirm: plain(x(31)), deny: plain(x(31)) } })),
    ).toEqual([
      '[ERROR] must be less than 101 characters [json-pointer:/blocks/0/elements/0/confirm/title/text]',
      '[ERROR] must be less than 301 characters [json-pointer:/blocks/0/elements/0/confirm/text/text]',
      '[ERROR] must be less than 31 characters [json-pointer:/blocks/0/elements/0/confirm/confirm/text]',
      '[ERROR] must be less than 31 characters [json-pointer:/blocks/0/elements/0/confirm/deny/text]',
    ]);
    expect(inActions(button({ confirm: { text: mrkdwn('sure?') } }))).toEqual([
      '[ERROR] missing required field: title [json-pointer:/blocks/0/elements/0/confirm]',
      '[ERROR] missing required field: confirm [json-pointer:/blocks/0/elements/0/confirm]',
      '[ERROR] missing required field: deny [json-pointer:/blocks/0/elements/0/confirm]',
    ]);
  });

  it('static select: 1 to 100 options, text at most 75 and plain_text, value at most 150, placeholder at most 150', () => {
    const options = (n: number) => Array.from({ length: n }, (_, i) => option(`o${i}`, `v${i}`));
    const select = (extra: Record<string, unknown>) => ({
      type: 'static_select',
      action_id: 's',
      placeholder: plain(x(150)),
      options: options(100),
      ...extra,
    });
    expect(inModalInput(select({}))).toEqual([]);
    expect(inModalInput(select({ options: options(101) }))).toEqual([
      '[ERROR] no more than 100 items allowed [json-pointer:/view/blocks/0/element/options]',
    ]);
    expect(inModalInput(select({ options: [option(x(76), x(151))] }))).toEqual([
      '[ERROR] must be less than 76 characters [json-pointer:/view/blocks/0/element/options/0/text/text]',
      '[ERROR] must be less than 151 characters [json-pointer:/view/blocks/0/element/options/0/value]',
    ]);
    expect(inModalInput(select({ options: [{ text: mrkdwn('a'), value: 'a' }] }))).toEqual([
      '[ERROR] must be plain_text [json-pointer:/view/blocks/0/element/options/0/text/type]',
    ]);
    expect(inModalInput(select({ placeholder: plain(x(151)) }))).toEqual([
      '[ERROR] must be less than 151 characters [json-pointer:/view/blocks/0/element/placeholder/text]',
    ]);
    expect(inModalInput({ type: 'static_select', action_id: 's' })).toEqual([
      '[ERROR] missing required field: options [json-pointer:/view/blocks/0/element]',
    ]);
  });

  it('static select: initial_option is one of the options', () => {
    const select = { type: 'static_select', action_id: 's', options: [option('A', 'a'), option('B', 'b')] };
    expect(inModalInput({ ...select, initial_option: option('B', 'b') })).toEqual([]);
    expect(inModalInput({ ...select, initial_option: option('C', 'c') })).toEqual([
      '[ERROR] must exactly match one of the options [json-pointer:/view/blocks/0/element/initial_option]',
    ]);
    expect(inModalInput({ ...select, initial_option: option('b', 'b') })).toEqual([
      '[ERROR] must exactly match one of the options [json-pointer:/view/blocks/0/element/initial_option]',
    ]);
  });

  it('option groups: label at most 75, at most 100 options each', () => {
    const select = (groups: unknown[]) => ({ type: 'static_select', action_id: 's', option_groups: groups });
    expect(inModalInput(select([{ label: plain(x(75)), options: [option('a', 'a')] }]))).toEqual([]);
    expect(inModalInput(select([{ label: plain(x(76)), options: Array.from({ length: 101 }, (_, i) => option('a', `${i}`)) }]))).toEqual([
      '[ERROR] must be less than 76 characters [json-pointer:/view/blocks/0/element/option_groups/0/label/text]',
      '[ERROR] no more than 100 items allowed [json-pointer:/view/blocks/0/element/option_groups/0/options]',
    ]);
  });

  it('external select: a valid initial_option, min_query_length ≥ 0', () => {
    const select = { type: 'external_select', action_id: 's', min_query_length: 0, initial_option: option('A', 'a') };
    expect(inModalInput(select)).toEqual([]);
    expect(inModalInput({ ...select, min_query_length: -1, initial_option: option(x(76), 'a') })).toEqual([
      '[ERROR] must be less than 76 characters [json-pointer:/view/blocks/0/element/initial_option/text/text]',
      '[ERROR] must be at least 0 [json-pointer:/view/blocks/0/element/min_query_length]',
    ]);
  });

  it('overflow: 1 to 5 options', () => {
    const overflow = (n: number) => ({
      type: 'overflow',
      action_id: 'o',
      options: Array.from({ length: n }, (_, i) => option('a', `${i}`)),
    });
    expect(inActions(overflow(5))).toEqual([]);
    expect(inActions(overflow(6))).toEqual(['[ERROR] no more than 5 items allowed [json-pointer:/blocks/0/elements/0/options]']);
  });

  it('plain-text input: min_length 0 to 3,000, max_length 1 to 3,000, placeholder at most 150', () => {
    const text = (extra: Record<string, unknown>) => ({ type: 'plain_text_input', action_id: 't', ...extra });
    expect(inModalInput(text({ min_length: 0, max_length: 3000, placeholder: plain(x(150)) }))).toEqual([]);
    expect(inModalInput(text({ min_length: 3001, max_length: 3001 }))).toEqual([
      '[ERROR] must be at most 3000 [json-pointer:/view/blocks/0/element/min_length]',
      '[ERROR] must be at most 3000 [json-pointer:/view/blocks/0/element/max_length]',
    ]);
    expect(inModalInput(text({ max_length: 0 }))).toEqual(['[ERROR] must be at least 1 [json-pointer:/view/blocks/0/element/max_length]']);
    expect(inModalInput(text({ min_length: 10, max_length: 5 }))).toEqual([
      '[ERROR] must not be more than max_length [json-pointer:/view/blocks/0/element/min_length]',
    ]);
  });

  it('focus_on_load: at most one element', () => {
    const text = { type: 'plain_text_input', action_id: 't', focus_on_load: true };
    expect(texts(checkView(formModal([input(text, { block_id: 'a' }), input(text, { block_id: 'b' })])))).toEqual([
      '[ERROR] only one element can be set to focus_on_load [json-pointer:/view/blocks/1/element/focus_on_load]',
    ]);
  });
});

describe('acknowledgements', () => {
  const submitted = formModal([input({ type: 'plain_text_input', action_id: 't' }, { block_id: 'amount' }), section('not an input')]);

  it('errors: keys are block_ids of the submitted view’s input blocks', () => {
    expect(checkViewSubmissionAck({ response_action: 'errors', errors: { amount: 'Too big' } }, submitted)).toEqual([]);
    expect(texts(checkViewSubmissionAck({ response_action: 'errors', errors: { other: 'No' } }, submitted))).toEqual([
      '[ERROR] other is not the block_id of an input block of this view [json-pointer:/errors/other]',
    ]);
    expect(texts(checkViewSubmissionAck({ response_action: 'errors', errors: {} }, submitted))).toEqual([
      '[ERROR] must provide at least 1 items [json-pointer:/errors]',
    ]);
  });

  it('update and push: a valid modal', () => {
    expect(checkViewSubmissionAck({ response_action: 'update', view: modal([section('ok')]) }, submitted)).toEqual([]);
    expect(texts(checkViewSubmissionAck({ response_action: 'push', view: modal([], { title: plain(x(25)) }) }, submitted))).toEqual([
      '[ERROR] must be less than 25 characters [json-pointer:/view/title/text]',
    ]);
    expect(texts(checkViewSubmissionAck({ response_action: 'update', view: { type: 'home', blocks: [] } }, submitted))).toEqual([
      '[ERROR] must be modal [json-pointer:/view/type]',
    ]);
  });

  it('an empty acknowledgement closes the modal; an unknown response_action is refused', () => {
    expect(checkViewSubmissionAck(undefined, submitted)).toEqual([]);
    expect(checkViewSubmissionAck({ response_action: 'clear' }, submitted)).toEqual([]);
    expect(texts(checkViewSubmissionAck({ response_action: 'close' }, submitted))).toEqual([
      '[ERROR] must be one of update, push, clear, errors [json-pointer:/response_action]',
    ]);
  });

  it('block_suggestion: at most 100 options, each valid', () => {
    const options = (n: number) => Array.from({ length: n }, (_, i) => option(`o${i}`, `v${i}`));
    expect(checkOptionsAck({ options: options(100) })).toEqual([]);
    expect(checkOptionsAck({ options: [] })).toEqual([]);
    expect(texts(checkOptionsAck({ options: options(101) }))).toEqual(['[ERROR] no more than 100 items allowed [json-pointer:/options]']);
    expect(texts(checkOptionsAck({ options: [option(x(76), 'a')] }))).toEqual([
      '[ERROR] must be less than 76 characters [json-pointer:/options/0/text/text]',
    ]);
    expect(texts(checkOptionsAck(undefined))).toEqual(['[ERROR] must be an object [json-pointer:/]']);
  });
});

describe('the fake Slack judges what it receives', () => {
  let slack: SlackStandIn;
  let client: WebClient;
  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    client = new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterAll(() => slack.close());

  it('refuses a bad view as Slack does, and keeps the refusal for the test to fail on', async () => {
    const err = await client.views
      .open({ trigger_id: 't', view: { type: 'modal', title: plain(x(25)) as never, blocks: [] } })
      .catch((e: { data: unknown }) => e);
    expect((err as { data: unknown }).data).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: { messages: ['[ERROR] must be less than 25 characters [json-pointer:/view/title/text]'] },
    });
    expect(slack.takeRefusals()).toEqual([expect.objectContaining({ where: 'views.open' })]);
    // A valid view goes through to the fake's own answer.
    await expect(client.views.publish({ user_id: 'U1', view: { type: 'home', blocks: [] } })).resolves.toMatchObject({ ok: true });
    expect(slack.takeRefusals()).toEqual([]);
  });

  it('refuses bad blocks in chat.* with invalid_blocks, and posts nothing', async () => {
    const err = await client.chat
      .postMessage({ channel: 'C1', text: 'hi', blocks: [section(x(3001)) as never] })
      .catch((e: { data: unknown }) => e);
    expect((err as { data: { error: string } }).data.error).toBe('invalid_blocks');
    expect(slack.messages).toHaveLength(0);
    expect(slack.takeRefusals().map((r) => r.where)).toEqual(['chat.postMessage']);
  });

  it('refuses a bad response_url body with a 400, like an incoming webhook', async () => {
    const res = await fetch(slack.responseUrl('r1'), {
      method: 'POST',
      body: JSON.stringify({ blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })) }),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('invalid_blocks');
    expect(slack.responsesTo('r1')).toHaveLength(0);
    expect(slack.takeRefusals().map((r) => r.where)).toEqual(['response_url']);
  });

  it('judges acknowledgements: a view submission against the view submitted, options, a command’s answer', () => {
    const view = formModal([input({ type: 'plain_text_input', action_id: 't' }, { block_id: 'amount' })]);
    const submission = new URLSearchParams({ payload: JSON.stringify({ type: 'view_submission', view }) }).toString();
    expect(slack.judgeAck(submission, JSON.stringify({ response_action: 'errors', errors: { amount: 'No' } }))).toEqual([]);
    expect(texts(slack.judgeAck(submission, JSON.stringify({ response_action: 'errors', errors: { note: 'No' } })))).toEqual([
      '[ERROR] note is not the block_id of an input block of this view [json-pointer:/errors/note]',
    ]);
    const suggestion = new URLSearchParams({ payload: JSON.stringify({ type: 'block_suggestion', value: '' }) }).toString();
    expect(slack.judgeAck(suggestion, '')).toHaveLength(1);
    const command = new URLSearchParams({ command: '/pix', text: 'help' }).toString();
    expect(slack.judgeAck(command, '')).toEqual([]);
    expect(slack.judgeAck(command, JSON.stringify({ text: 'a', blocks: [section('')] }))).toHaveLength(1);
    expect(slack.takeRefusals().map((r) => r.where)).toEqual(['ack:view_submission', 'ack:block_suggestion', 'ack:slash_command']);
  });
});
