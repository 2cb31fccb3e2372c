/**
 * Slack's documented Block Kit limits, as one validator: what real Slack refuses, the Slack stand-in
 * refuses too (see web-api.ts), so a payload that would fail in a real workspace fails a test.
 *
 * Each group of rules names the Slack page it comes from. A rule is never looser than that page; where
 * a page leaves something open (the exact wording of an error, for instance) the answer follows what
 * Slack is seen to send: `[ERROR] must be less than 25 characters [json-pointer:/view/title/text]`.
 */

export type Surface = 'modal' | 'home' | 'message';

/** One refused part of a payload: what is wrong, and where (a JSON pointer into the payload). */
export interface Problem {
  message: string;
  pointer: string;
}

/** As Slack writes it in `response_metadata.messages`. */
export function problemText(p: Problem): string {
  return `[ERROR] ${p.message} [json-pointer:${p.pointer}]`;
}

/** Slack's answer to a `views.*` call it refuses (https://docs.slack.dev/reference/methods/views.open#errors). */
export function viewsRefusal(problems: Problem[]) {
  return { ok: false, error: 'invalid_arguments', response_metadata: { messages: problems.map(problemText) } };
}

/** Slack's answer to a `chat.*` call it refuses (https://docs.slack.dev/reference/methods/chat.postMessage#errors). */
export function blocksRefusal(problems: Problem[]) {
  return {
    ok: false,
    error: 'invalid_blocks',
    errors: problems.map((p) => `${p.message} [json-pointer:${p.pointer}]`),
    response_metadata: { messages: problems.map(problemText) },
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Walks one surface (a view, a message, an answer) and collects its problems. */
class Check {
  readonly problems: Problem[] = [];
  private readonly blockIds = new Set<string>();
  private focused = 0;

  constructor(readonly surface: Surface) {}

  fail(pointer: string, message: string): void {
    this.problems.push({ pointer, message });
  }

  // --- Primitives ------------------------------------------------------------------------------

  required(parent: Obj, key: string, pointer: string): boolean {
    if (parent[key] === undefined || parent[key] === null) {
      this.fail(pointer, `missing required field: ${key}`);
      return false;
    }
    return true;
  }

  string(value: unknown, pointer: string, limits: { min?: number; max?: number } = {}): value is string {
    if (typeof value !== 'string') {
      this.fail(pointer, 'must be a string');
      return false;
    }
    if (limits.min !== undefined && value.length < limits.min) this.fail(pointer, `must be more than ${limits.min - 1} characters`);
    if (limits.max !== undefined && value.length > limits.max) this.fail(pointer, `must be less than ${limits.max + 1} characters`);
    return true;
  }

  optionalString(parent: Obj, key: string, pointer: string, limits: { min?: number; max?: number }): void {
    if (parent[key] !== undefined) this.string(parent[key], `${pointer}/${key}`, limits);
  }

  array(value: unknown, pointer: string, limits: { min?: number; max?: number } = {}): value is unknown[] {
    if (!Array.isArray(value)) {
      this.fail(pointer, 'must be an array');
      return false;
    }
    if (limits.min !== undefined && value.length < limits.min) this.fail(pointer, `must provide at least ${limits.min} items`);
    if (limits.max !== undefined && value.length > limits.max) this.fail(pointer, `no more than ${limits.max} items allowed`);
    return true;
  }

  object(value: unknown, pointer: string): value is Obj {
    if (!isObj(value)) {
      this.fail(pointer, 'must be an object');
      return false;
    }
    return true;
  }

  integer(value: unknown, pointer: string, min: number, max: number): void {
    if (!Number.isInteger(value)) this.fail(pointer, 'must be an integer');
    else if ((value as number) < min) this.fail(pointer, `must be at least ${min}`);
    else if ((value as number) > max) this.fail(pointer, `must be at most ${max}`);
  }

  oneOf(value: unknown, allowed: readonly string[], pointer: string): void {
    if (typeof value !== 'string' || !allowed.includes(value)) this.fail(pointer, `must be one of ${allowed.join(', ')}`);
  }

  // --- Text object: https://docs.slack.dev/reference/block-kit/composition-objects/text-object ----
  // `type` plain_text or mrkdwn; `text` 1 to 3,000 characters (less where the field says so);
  // `emoji` only with plain_text, `verbatim` only with mrkdwn.

  text(value: unknown, pointer: string, options: { plain?: boolean; max?: number } = {}): void {
    if (!this.object(value, pointer)) return;
    if (value.type !== 'plain_text' && value.type !== 'mrkdwn') {
      this.fail(`${pointer}/type`, 'must be one of plain_text, mrkdwn');
      return;
    }
    if (options.plain && value.type !== 'plain_text') this.fail(`${pointer}/type`, 'must be plain_text');
    if (value.emoji !== undefined && value.type !== 'plain_text') this.fail(`${pointer}/emoji`, 'emoji is only usable with plain_text');
    if (value.verbatim !== undefined && value.type !== 'mrkdwn') this.fail(`${pointer}/verbatim`, 'verbatim is only usable with mrkdwn');
    if (this.required(value, 'text', pointer)) this.string(value.text, `${pointer}/text`, { min: 1, max: options.max ?? 3000 });
  }

  optionalText(parent: Obj, key: string, pointer: string, options: { plain?: boolean; max?: number }): void {
    if (parent[key] !== undefined) this.text(parent[key], `${pointer}/${key}`, options);
  }

  // --- Blocks: https://docs.slack.dev/reference/block-kit/blocks -----------------------------------
  // Up to 50 blocks in a message, 100 in a modal or a Home tab. `block_id` at most 255 characters and
  // unique in the message or view.

  blocks(value: unknown, pointer: string): void {
    const max = this.surface === 'message' ? 50 : 100;
    if (!this.array(value, pointer, { max })) return;
    value.forEach((block, i) => {
      this.block(block, `${pointer}/${i}`);
    });
  }

  private block(block: unknown, pointer: string): void {
    if (!this.object(block, pointer)) return;
    if (block.block_id !== undefined && this.string(block.block_id, `${pointer}/block_id`, { min: 1, max: 255 })) {
      if (this.blockIds.has(block.block_id)) this.fail(`${pointer}/block_id`, `duplicate block_id: ${block.block_id}`);
      this.blockIds.add(block.block_id);
    }
    switch (block.type) {
      case 'section':
        this.section(block, pointer);
        return;
      case 'header':
        this.header(block, pointer);
        return;
      case 'context':
        this.context(block, pointer);
        return;
      case 'actions':
        this.actions(block, pointer);
        return;
      case 'input':
        this.input(block, pointer);
        return;
      case 'image':
        this.imageBlock(block, pointer);
        return;
      case 'divider':
        return;
      default:
        this.fail(`${pointer}/type`, `unsupported block type: ${String(block.type)}`);
    }
  }

  // Section: https://docs.slack.dev/reference/block-kit/blocks/section-block
  // `text` (1 to 3,000) or `fields` (at most 10, each at most 2,000); an accessory of the listed kinds.
  private section(block: Obj, pointer: string): void {
    if (block.text === undefined && block.fields === undefined) this.fail(pointer, 'missing required field: text');
    this.optionalText(block, 'text', pointer, { max: 3000 });
    if (block.fields !== undefined && this.array(block.fields, `${pointer}/fields`, { min: 1, max: 10 })) {
      block.fields.forEach((f, i) => {
        this.text(f, `${pointer}/fields/${i}`, { max: 2000 });
      });
    }
    if (block.accessory !== undefined) this.element(block.accessory, `${pointer}/accessory`, SECTION_ACCESSORIES);
  }

  // Header: https://docs.slack.dev/reference/block-kit/blocks/header-block — plain_text, at most 150.
  private header(block: Obj, pointer: string): void {
    if (this.required(block, 'text', pointer)) this.text(block.text, `${pointer}/text`, { plain: true, max: 150 });
  }

  // Context: https://docs.slack.dev/reference/block-kit/blocks/context-block — 1 to 10 text or image elements.
  private context(block: Obj, pointer: string): void {
    if (!this.required(block, 'elements', pointer) || !this.array(block.elements, `${pointer}/elements`, { min: 1, max: 10 })) return;
    block.elements.forEach((e, i) => {
      const at = `${pointer}/elements/${i}`;
      if (isObj(e) && e.type === 'image') this.imageElement(e, at);
      else this.text(e, at);
    });
  }

  // Actions: https://docs.slack.dev/reference/block-kit/blocks/actions-block — 1 to 25 interactive
  // elements; an action_id is unique among those of its block.
  private actions(block: Obj, pointer: string): void {
    if (!this.required(block, 'elements', pointer) || !this.array(block.elements, `${pointer}/elements`, { min: 1, max: 25 })) return;
    const ids = new Set<string>();
    block.elements.forEach((e, i) => {
      const at = `${pointer}/elements/${i}`;
      this.element(e, at, ACTIONS_ELEMENTS);
      if (isObj(e) && typeof e.action_id === 'string') {
        if (ids.has(e.action_id)) this.fail(`${at}/action_id`, `duplicate action_id in block: ${e.action_id}`);
        ids.add(e.action_id);
      }
    });
  }

  // Input: https://docs.slack.dev/reference/block-kit/blocks/input-block — a plain_text `label` and
  // `hint` of at most 2,000, one input element. Where each element may be: the "Available in surfaces"
  // column of https://docs.slack.dev/reference/block-kit/block-elements (file, email, number and URL
  // inputs only in modals; rich text input not in messages).
  private input(block: Obj, pointer: string): void {
    if (this.required(block, 'label', pointer)) this.text(block.label, `${pointer}/label`, { plain: true, max: 2000 });
    this.optionalText(block, 'hint', pointer, { plain: true, max: 2000 });
    if (!this.required(block, 'element', pointer)) return;
    this.element(block.element, `${pointer}/element`, INPUT_ELEMENTS);
    const type = isObj(block.element) ? block.element.type : undefined;
    if (MODAL_ONLY_INPUTS.includes(type as string) && this.surface !== 'modal')
      this.fail(`${pointer}/element/type`, `${String(type)} is only available in modals`);
    if (type === 'rich_text_input' && this.surface === 'message')
      this.fail(`${pointer}/element/type`, 'rich_text_input is not available in messages');
  }

  // Image block: https://docs.slack.dev/reference/block-kit/blocks/image-block
  private imageBlock(block: Obj, pointer: string): void {
    if (this.required(block, 'alt_text', pointer)) this.string(block.alt_text, `${pointer}/alt_text`, { min: 1, max: 2000 });
    if (block.image_url === undefined && block.slack_file === undefined) this.fail(pointer, 'missing required field: image_url');
    this.optionalString(block, 'image_url', pointer, { min: 1, max: 3000 });
    this.optionalText(block, 'title', pointer, { plain: true, max: 2000 });
  }

  // --- Elements: https://docs.slack.dev/reference/block-kit/block-elements ------------------------
  // Every element: `action_id` at most 255; at most one `focus_on_load` in a view.

  private element(value: unknown, pointer: string, allowed: readonly string[]): void {
    if (!this.object(value, pointer)) return;
    const type = value.type;
    if (typeof type !== 'string' || !allowed.includes(type)) {
      this.fail(`${pointer}/type`, `${String(type)} is not allowed here`);
      return;
    }
    this.optionalString(value, 'action_id', pointer, { min: 1, max: 255 });
    if (value.confirm !== undefined) this.confirm(value.confirm, `${pointer}/confirm`);
    if (value.focus_on_load === true && ++this.focused > 1)
      this.fail(`${pointer}/focus_on_load`, 'only one element can be set to focus_on_load');
    this.optionalText(value, 'placeholder', pointer, { plain: true, max: 150 });
    switch (type) {
      case 'button':
        this.button(value, pointer);
        return;
      case 'static_select':
      case 'multi_static_select':
        this.staticSelect(value, pointer);
        return;
      case 'external_select':
      case 'multi_external_select':
        this.externalSelect(value, pointer);
        return;
      case 'overflow':
        this.optionList(value, pointer, 5);
        return;
      case 'checkboxes':
      case 'radio_buttons':
        this.optionList(value, pointer, 10);
        return;
      case 'plain_text_input':
        this.plainTextInput(value, pointer);
        return;
      case 'file_input':
        this.fileInput(value, pointer);
        return;
      case 'image':
        this.imageElement(value, pointer);
        return;
      default:
        return;
    }
  }

  // Button: https://docs.slack.dev/reference/block-kit/block-elements/button-element — plain_text
  // `text` at most 75, `value` at most 2,000, `url` at most 3,000, `style` primary or danger,
  // `accessibility_label` at most 75.
  private button(el: Obj, pointer: string): void {
    if (this.required(el, 'text', pointer)) this.text(el.text, `${pointer}/text`, { plain: true, max: 75 });
    this.optionalString(el, 'value', pointer, { max: 2000 });
    this.optionalString(el, 'url', pointer, { min: 1, max: 3000 });
    this.optionalString(el, 'accessibility_label', pointer, { min: 1, max: 75 });
    if (el.style !== undefined) this.oneOf(el.style, ['primary', 'danger'], `${pointer}/style`);
  }

  // Select menus: https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element —
  // static: `options` (at most 100) or `option_groups` (at most 100 groups), not both; an
  // `initial_option` exactly matching one of them; `placeholder` at most 150 (checked above).
  private staticSelect(el: Obj, pointer: string): void {
    const all: unknown[] = [];
    if (el.options !== undefined && el.option_groups !== undefined) this.fail(pointer, 'options and option_groups cannot both be given');
    if (el.options === undefined && el.option_groups === undefined) this.fail(pointer, 'missing required field: options');
    if (el.options !== undefined && this.array(el.options, `${pointer}/options`, { min: 1, max: 100 })) {
      el.options.forEach((o, i) => {
        this.option(o, `${pointer}/options/${i}`);
      });
      all.push(...el.options);
    }
    if (el.option_groups !== undefined && this.array(el.option_groups, `${pointer}/option_groups`, { min: 1, max: 100 })) {
      el.option_groups.forEach((g, i) => {
        all.push(...this.optionGroup(g, `${pointer}/option_groups/${i}`));
      });
    }
    const initial = [
      ...(el.initial_option !== undefined ? [['initial_option', el.initial_option]] : []),
      ...(Array.isArray(el.initial_options) ? el.initial_options.map((o, i) => [`initial_options/${i}`, o]) : []),
    ] as Array<[string, unknown]>;
    for (const [key, option] of initial) {
      this.option(option, `${pointer}/${key}`);
      if (!all.some((o) => sameJson(o, option))) this.fail(`${pointer}/${key}`, 'must exactly match one of the options');
    }
  }

  // External data source: the same page, "Select menu of external data source" — an `initial_option`
  // is a valid option (its options come from the app's options load URL); `min_query_length` ≥ 0.
  private externalSelect(el: Obj, pointer: string): void {
    if (el.initial_option !== undefined) this.option(el.initial_option, `${pointer}/initial_option`);
    if (Array.isArray(el.initial_options)) {
      el.initial_options.forEach((o, i) => {
        this.option(o, `${pointer}/initial_options/${i}`);
      });
    }
    if (el.min_query_length !== undefined) this.integer(el.min_query_length, `${pointer}/min_query_length`, 0, Number.MAX_SAFE_INTEGER);
  }

  /** Overflow menus (1 to 5 options), checkboxes and radio buttons (at most 10). */
  private optionList(el: Obj, pointer: string, max: number): void {
    if (!this.required(el, 'options', pointer) || !this.array(el.options, `${pointer}/options`, { min: 1, max })) return;
    el.options.forEach((o, i) => {
      this.option(o, `${pointer}/options/${i}`, el.type === 'checkboxes' || el.type === 'radio_buttons');
    });
  }

  // Option: https://docs.slack.dev/reference/block-kit/composition-objects/option-object — `text` at
  // most 75 (plain_text in menus), `value` at most 150, `description` at most 75, `url` at most 3,000.
  // Option group: https://docs.slack.dev/reference/block-kit/composition-objects/option-group-object
  // — a plain_text `label` of at most 75, at most 100 options.
  option(value: unknown, pointer: string, mrkdwnAllowed = false): void {
    if (!this.object(value, pointer)) return;
    if (this.required(value, 'text', pointer)) this.text(value.text, `${pointer}/text`, { plain: !mrkdwnAllowed, max: 75 });
    if (this.required(value, 'value', pointer)) this.string(value.value, `${pointer}/value`, { min: 1, max: 150 });
    this.optionalText(value, 'description', pointer, { max: 75 });
    this.optionalString(value, 'url', pointer, { min: 1, max: 3000 });
  }

  optionGroup(value: unknown, pointer: string): unknown[] {
    if (!this.object(value, pointer)) return [];
    if (this.required(value, 'label', pointer)) this.text(value.label, `${pointer}/label`, { plain: true, max: 75 });
    if (!this.required(value, 'options', pointer) || !this.array(value.options, `${pointer}/options`, { min: 1, max: 100 })) return [];
    value.options.forEach((o, i) => {
      this.option(o, `${pointer}/options/${i}`);
    });
    return value.options;
  }

  // Plain-text input: https://docs.slack.dev/reference/block-kit/block-elements/plain-text-input-element
  // — `min_length` 0 to 3,000, `max_length` 1 to 3,000.
  private plainTextInput(el: Obj, pointer: string): void {
    if (el.min_length !== undefined) this.integer(el.min_length, `${pointer}/min_length`, 0, 3000);
    if (el.max_length !== undefined) this.integer(el.max_length, `${pointer}/max_length`, 1, 3000);
    if (typeof el.min_length === 'number' && typeof el.max_length === 'number' && el.min_length > el.max_length) {
      this.fail(`${pointer}/min_length`, 'must not be more than max_length');
    }
    if (el.initial_value !== undefined) this.string(el.initial_value, `${pointer}/initial_value`);
  }

  // File input: https://docs.slack.dev/reference/block-kit/block-elements/file-input-element —
  // `max_files` 1 to 10; only in an input block of a modal (see input()).
  private fileInput(el: Obj, pointer: string): void {
    if (el.max_files !== undefined) this.integer(el.max_files, `${pointer}/max_files`, 1, 10);
    if (el.filetypes !== undefined && this.array(el.filetypes, `${pointer}/filetypes`)) {
      el.filetypes.forEach((t, i) => {
        this.string(t, `${pointer}/filetypes/${i}`, { min: 1 });
      });
    }
  }

  // Image element: https://docs.slack.dev/reference/block-kit/block-elements/image-element
  private imageElement(el: Obj, pointer: string): void {
    if (this.required(el, 'alt_text', pointer)) this.string(el.alt_text, `${pointer}/alt_text`, { min: 1, max: 2000 });
    if (el.image_url === undefined && el.slack_file === undefined) this.fail(pointer, 'missing required field: image_url');
    this.optionalString(el, 'image_url', pointer, { min: 1, max: 3000 });
  }

  // Confirmation dialog: https://docs.slack.dev/reference/block-kit/composition-objects/confirmation-dialog-object
  // — all four required: plain_text `title` at most 100, `text` at most 300, `confirm` and `deny` at
  // most 30; `style` primary or danger.
  private confirm(value: unknown, pointer: string): void {
    if (!this.object(value, pointer)) return;
    if (this.required(value, 'title', pointer)) this.text(value.title, `${pointer}/title`, { plain: true, max: 100 });
    if (this.required(value, 'text', pointer)) this.text(value.text, `${pointer}/text`, { max: 300 });
    if (this.required(value, 'confirm', pointer)) this.text(value.confirm, `${pointer}/confirm`, { plain: true, max: 30 });
    if (this.required(value, 'deny', pointer)) this.text(value.deny, `${pointer}/deny`, { plain: true, max: 30 });
    if (value.style !== undefined) this.oneOf(value.style, ['primary', 'danger'], `${pointer}/style`);
  }
}

const SECTION_ACCESSORIES = [
  'button',
  'checkboxes',
  'datepicker',
  'image',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
  'overflow',
  'radio_buttons',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'timepicker',
  'workflow_button',
] as const;
const ACTIONS_ELEMENTS = [...SECTION_ACCESSORIES.filter((t) => t !== 'image' && !t.startsWith('multi_')), 'datetimepicker'];
const INPUT_ELEMENTS = [
  'checkboxes',
  'datepicker',
  'datetimepicker',
  'email_text_input',
  'file_input',
  'multi_static_select',
  'multi_external_select',
  'multi_users_select',
  'multi_conversations_select',
  'multi_channels_select',
  'number_input',
  'plain_text_input',
  'radio_buttons',
  'rich_text_input',
  'static_select',
  'external_select',
  'users_select',
  'conversations_select',
  'channels_select',
  'timepicker',
  'url_text_input',
] as const;
const MODAL_ONLY_INPUTS = ['file_input', 'email_text_input', 'number_input', 'url_text_input'];

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObj(v))
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canonical(v[k])]),
    );
  return v;
}

// --- Views: https://docs.slack.dev/reference/views/modal-views and .../home-tab-views ------------------
// Modal: a plain_text `title`, `close` and `submit` of at most 24 characters; `submit` required when
// there is an input block; at most 100 blocks; `private_metadata` at most 3,000; `callback_id` at most
// 255. Home tab: at most 100 blocks, the same `private_metadata` and `callback_id` limits.

/** A modal or Home tab view (`views.open/update/push/publish`, or a `response_action`'s view). */
export function checkView(view: unknown, pointer = '/view', only?: 'modal'): Problem[] {
  const probe = new Check('modal');
  if (!probe.object(view, pointer)) return probe.problems;
  const type = view.type;
  if (type !== 'modal' && (only === 'modal' || type !== 'home')) {
    probe.fail(`${pointer}/type`, only === 'modal' ? 'must be modal' : 'must be one of modal, home');
    return probe.problems;
  }
  const c = new Check(type as 'modal' | 'home');
  if (type === 'modal') {
    if (c.required(view, 'title', pointer)) c.text(view.title, `${pointer}/title`, { plain: true, max: 24 });
    c.optionalText(view, 'close', pointer, { plain: true, max: 24 });
    c.optionalText(view, 'submit', pointer, { plain: true, max: 24 });
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isObj(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) c.fail(pointer, 'missing required field: submit');
  }
  if (c.required(view, 'blocks', pointer)) c.blocks(view.blocks, `${pointer}/blocks`);
  c.optionalString(view, 'private_metadata', pointer, { max: 3000 });
  c.optionalString(view, 'callback_id', pointer, { max: 255 });
  return c.problems;
}

// --- Messages: https://docs.slack.dev/reference/methods/chat.postMessage (and chat.update,
// chat.postEphemeral, response_url bodies) — the blocks as above, at most 50.

/** A message's blocks (a chat.* call, a response_url body, a slash command's acknowledgement). */
export function checkMessage(message: unknown, pointer = ''): Problem[] {
  const c = new Check('message');
  if (!c.object(message, pointer || '/')) return c.problems;
  if (message.blocks !== undefined) c.blocks(message.blocks, `${pointer}/blocks`);
  return c.problems;
}

// --- Answers to view submissions: https://docs.slack.dev/surfaces/modals#updating_response and
// #displaying_errors — `response_action` is update or push (with a valid modal), clear, or errors: an
// object whose keys are block_ids of input blocks in the submitted view.

export function checkViewSubmissionAck(ack: unknown, submitted: unknown): Problem[] {
  if (ack === undefined || ack === null || (isObj(ack) && Object.keys(ack).length === 0)) return [];
  const c = new Check('modal');
  if (!c.object(ack, '/')) return c.problems;
  switch (ack.response_action) {
    case 'update':
    case 'push':
      return c.required(ack, 'view', '/') ? checkView(ack.view, '/view', 'modal') : c.problems;
    case 'clear':
      return c.problems;
    case 'errors': {
      if (!c.required(ack, 'errors', '/') || !c.object(ack.errors, '/errors')) return c.problems;
      const inputs = new Set(
        (isObj(submitted) && Array.isArray(submitted.blocks) ? submitted.blocks : [])
          .filter((b): b is Obj => isObj(b) && b.type === 'input' && typeof b.block_id === 'string')
          .map((b) => b.block_id as string),
      );
      const entries = Object.entries(ack.errors);
      if (entries.length === 0) c.fail('/errors', 'must provide at least 1 items');
      for (const [key, text] of entries) {
        if (!inputs.has(key)) c.fail(`/errors/${key}`, `${key} is not the block_id of an input block of this view`);
        c.string(text, `/errors/${key}`, { min: 1 });
      }
      return c.problems;
    }
    default:
      c.fail('/response_action', 'must be one of update, push, clear, errors');
      return c.problems;
  }
}

// --- Answers to block_suggestion (an external select's options load URL):
// https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element#external_select — the
// answer carries `options` (at most 100) or `option_groups`, each option as above.

export function checkOptionsAck(ack: unknown): Problem[] {
  const c = new Check('modal');
  if (!c.object(ack, '/')) return c.problems;
  if (ack.options !== undefined && c.array(ack.options, '/options', { max: 100 })) {
    ack.options.forEach((o, i) => {
      c.option(o, `/options/${i}`);
    });
  }
  if (ack.option_groups !== undefined && c.array(ack.option_groups, '/option_groups', { max: 100 })) {
    ack.option_groups.forEach((g, i) => {
      c.optionGroup(g, `/option_groups/${i}`);
    });
  }
  if (ack.options === undefined && ack.option_groups === undefined) c.fail('/', 'missing required field: options');
  return c.problems;
}
