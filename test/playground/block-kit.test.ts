import { mrkdwn, type RenderContext, renderBlocks, renderMessage, text } from '../../src/playground/page/block-kit';
import { accountsMessage } from '../../views/accounts';

const users = { U0ADMIN: 'Ana Admin', C0FINANCE: 'finance' };

describe('mrkdwn as Slack renders it', () => {
  test.each([
    ['*bold*', '<b>bold</b>'],
    ['_italics_', '<i>italics</i>'],
    ['~strike~', '<s>strike</s>'],
    ['`a < b`', '<code>a &lt; b</code>'],
    ['<https://example.com|the site>', '<a href="https://example.com" target="_blank" rel="noopener">the site</a>'],
    ['<https://example.com>', '<a href="https://example.com" target="_blank" rel="noopener">https://example.com</a>'],
    ['<@U0ADMIN>', '<span class="mention">@Ana Admin</span>'],
    ['<@U0OTHER>', '<span class="mention">@U0OTHER</span>'],
    ['<#C0FINANCE>', '<span class="mention">#finance</span>'],
    ['<!subteam^S0OPS>', '<span class="mention">@S0OPS</span>'],
    ['<!subteam^S0OPS|@ops>', '<span class="mention">@ops</span>'],
    ['<!here>', '<span class="mention">@here</span>'],
    [':white_check_mark: done', '<span class="emoji" title=":white_check_mark:">✅</span> done'],
    [':no_such_emoji:', ':no_such_emoji:'],
  ])('%s', (input, html) => {
    expect(mrkdwn(input, users)).toBe(html);
  });

  test('text Slack escaped stays escaped once, and raw HTML never gets through', () => {
    expect(mrkdwn('R&amp;D &lt;b&gt;', users)).toBe('R&amp;D &lt;b&gt;');
    // Unescaped angle brackets are a control sequence to Slack: at worst a link that goes nowhere.
    expect(mrkdwn('<script>alert(1)</script>', users)).not.toMatch(/<script/);
    expect(mrkdwn('"quoted" & more', users)).toBe('&quot;quoted&quot; &amp; more');
  });

  test('no formatting inside code; code blocks and quotes', () => {
    expect(mrkdwn('`*not bold*`')).toBe('<code>*not bold*</code>');
    expect(mrkdwn('```\nline 1\nline 2```')).toBe('<pre class="code-block">line 1\nline 2</pre>');
    expect(mrkdwn('&gt; quoted\nplain')).toBe('<span class="quote">quoted</span><br>plain');
    expect(mrkdwn('before\n```x```\nafter')).toBe('before<pre class="code-block">x</pre><br>after');
  });

  test('formatting around a link, and a link whose URL is not http(s) goes nowhere', () => {
    expect(mrkdwn('*<https://x.test|x>*')).toBe('<b><a href="https://x.test" target="_blank" rel="noopener">x</a></b>');
    expect(mrkdwn('<javascript:alert(1)|click>')).toBe('<a href="#" target="_blank" rel="noopener">click</a>');
  });

  test('words with underscores or asterisks inside are left alone', () => {
    expect(mrkdwn('snake_case_name and 2*3*4')).toBe('snake_case_name and 2*3*4');
  });
});

// Slack formats around code spans, links and mentions, and nests the three styles
// (https://docs.slack.dev/messaging/formatting-message-text#basic-formatting); nothing inside code is formatted.
describe('mrkdwn: bold, italics and strike around code, links and each other', () => {
  const link = '<a href="https://x.test" target="_blank" rel="noopener">docs</a>';
  test.each([
    ['*`48d5…508f` (default account)*', '<b><code>48d5…508f</code> (default account)</b>'],
    ['*`id`*', '<b><code>id</code></b>'],
    ['_see `x` here_', '<i>see <code>x</code> here</i>'],
    ['~`old`~ new', '<s><code>old</code></s> new'],
    ['_<https://x.test|docs>_', `<i>${link}</i>`],
    ['~read <https://x.test|docs> and `a`~', `<s>read ${link} and <code>a</code></s>`],
    ['*<@U0ADMIN> approved*', '<b><span class="mention">@Ana Admin</span> approved</b>'],
    ['*bold _italic_ and ~struck~*', '<b>bold <i>italic</i> and <s>struck</s></b>'],
    ['_*both*_ and *_both_*', '<i><b>both</b></i> and <b><i>both</i></b>'],
    ['*`a`* · *`b`*', '<b><code>a</code></b> · <b><code>b</code></b>'],
    ['(*in brackets*), *before punctuation*.', '(<b>in brackets</b>), <b>before punctuation</b>.'],
    ['*:white_check_mark: done*', '<b><span class="emoji" title=":white_check_mark:">✅</span> done</b>'],
  ])('%s', (input, html) => {
    expect(mrkdwn(input, users)).toBe(html);
  });

  test('a delimiter inside code or a link neither opens nor closes', () => {
    expect(mrkdwn('*a `b*` c*')).toBe('<b>a <code>b*</code> c</b>');
    expect(mrkdwn('`*`x*')).toBe('<code>*</code>x*');
    expect(mrkdwn('_<https://x.test/a_b|a_b>_')).toBe('<i><a href="https://x.test/a_b" target="_blank" rel="noopener">a_b</a></i>');
  });

  test('unpaired, spaced or split by a line or a code block, the delimiters stay as typed', () => {
    expect(mrkdwn('*`code` alone')).toBe('*<code>code</code> alone');
    expect(mrkdwn('* not bold *')).toBe('* not bold *');
    expect(mrkdwn('*one\ntwo*')).toBe('*one<br>two*');
    expect(mrkdwn('*a ```x``` b*')).toBe('*a <pre class="code-block">x</pre> b*');
    expect(mrkdwn('a*`b`*c')).toBe('a*<code>b</code>*c');
    // Doubled, a delimiter is not one: Markdown's bold, and a masked tax ID as the dispute messages show it.
    expect(mrkdwn('**not bold**')).toBe('**not bold**');
    expect(mrkdwn('*CPF/CNPJ*\n***.456.789-**')).toBe('<b>CPF/CNPJ</b><br>***.456.789-**');
  });

  test("the accounts list as the bot sends it shows no asterisk: each account's title is bold, its ID code", () => {
    const account = { accountId: '48d5c0de508f', isDefault: true, balance: { available: 150_000 } };
    const { blocks } = accountsMessage('en', [{ account, app: { kind: 'main' } }] as Parameters<typeof accountsMessage>[1]);
    const html = renderBlocks(blocks as unknown[], { users });
    expect(html).toContain('<b><code>48d5c0de508f</code> (default account)</b>');
    expect(html).not.toContain('*');
  });
});

describe('text objects', () => {
  test('plain_text is escaped, with emoji unless emoji is false', () => {
    expect(text({ type: 'plain_text', text: '<b> :x:' })).toBe('&lt;b&gt; <span class="emoji" title=":x:">❌</span>');
    expect(text({ type: 'plain_text', text: ':x:', emoji: false })).toBe(':x:');
    expect(text({ type: 'mrkdwn', text: '*b*' })).toBe('<b>b</b>');
  });
});

describe('blocks to HTML, per block type', () => {
  const render = (blocks: unknown[], ctx: RenderContext = {}) => renderBlocks(blocks, ctx);

  test('section: text, fields and an accessory registered as an element', () => {
    const ctx: RenderContext = {};
    const html = render(
      [
        {
          type: 'section',
          block_id: 's1',
          text: { type: 'mrkdwn', text: '*Limits*' },
          fields: [
            { type: 'mrkdwn', text: 'a' },
            { type: 'plain_text', text: 'b' },
          ],
          accessory: { type: 'button', action_id: 'go', text: { type: 'plain_text', text: 'Go' }, value: 'v' },
        },
      ],
      ctx,
    );
    expect(html).toContain('<div class="bk-text"><b>Limits</b></div>');
    expect(html).toContain('<div class="bk-fields"><div>a</div><div>b</div></div>');
    expect(html).toContain('data-el="0" data-action-id="go" data-block-id="s1" data-type="button" value="v">Go</button>');
    expect(ctx.elements).toEqual([{ element: expect.objectContaining({ action_id: 'go' }), blockId: 's1' }]);
  });

  test('header, divider, context, image', () => {
    expect(render([{ type: 'header', text: { type: 'plain_text', text: 'Title' } }])).toContain('<div class="bk-header">Title</div>');
    expect(render([{ type: 'divider' }])).toContain('<hr class="bk-divider">');
    expect(render([{ type: 'context', elements: [{ type: 'mrkdwn', text: '_note_' }] }])).toContain('<span><i>note</i></span>');
    expect(render([{ type: 'image', image_url: 'https://x.test/a.png', alt_text: 'a "chart"' }])).toContain(
      '<img src="https://x.test/a.png" alt="a &quot;chart&quot;">',
    );
  });

  test('actions: buttons with their style, static selects with groups, overflow', () => {
    const html = render([
      {
        type: 'actions',
        block_id: 'a1',
        elements: [
          { type: 'button', action_id: 'ok', style: 'primary', text: { type: 'plain_text', text: 'Approve' } },
          {
            type: 'static_select',
            action_id: 'pick',
            option_groups: [
              { label: { type: 'plain_text', text: 'G' }, options: [{ text: { type: 'plain_text', text: 'One' }, value: '1' }] },
            ],
          },
          { type: 'overflow', action_id: 'more', options: [{ text: { type: 'plain_text', text: 'Delete' }, value: 'd' }] },
        ],
      },
    ]);
    expect(html).toContain('class="bk-button primary"');
    expect(html).toContain('<optgroup label="G"><option value="1">One</option></optgroup>');
    expect(html).toContain('class="bk-overflow"');
  });

  test('input: label, optional, hint, the inline error of its block, dispatch_action', () => {
    const block = {
      type: 'input',
      block_id: 'day',
      dispatch_action: true,
      optional: true,
      label: { type: 'plain_text', text: 'Pix day' },
      hint: { type: 'plain_text', text: 'In reais' },
      element: { type: 'plain_text_input', action_id: 'v', initial_value: '5000.00' },
    };
    const html = render([block], { errors: { day: 'Must be a number' } });
    expect(html).toContain('bk-input-block has-error" data-block-id="day" data-dispatch="1"');
    expect(html).toContain('<span class="bk-optional">(optional)</span>');
    expect(html).toContain('value="5000.00"');
    expect(html).toContain('<div class="bk-error">Must be a number</div>');
    expect(html).toContain('<div class="bk-hint">In reais</div>');
    expect(render([block])).not.toContain('bk-error');
  });

  test('input elements: external select (type-ahead), file input, multiline, datepicker, radio buttons', () => {
    const input = (element: Record<string, unknown>) =>
      render([{ type: 'input', block_id: 'b', label: { type: 'plain_text', text: 'L' }, element: { action_id: 'x', ...element } }]);
    expect(input({ type: 'external_select', initial_option: { text: { type: 'plain_text', text: 'Acc 1' }, value: 'a1' } })).toContain(
      'class="bk-input bk-typeahead" autocomplete="off" placeholder="Type to search" value="Acc 1" data-value="a1"',
    );
    expect(input({ type: 'file_input', filetypes: ['pdf', 'png'] })).toContain('type="file" class="bk-file" multiple');
    expect(input({ type: 'file_input', filetypes: ['pdf', 'png'] })).toContain('accept=".pdf,.png"');
    expect(input({ type: 'plain_text_input', multiline: true, initial_value: '<x>' })).toContain('>&lt;x&gt;</textarea>');
    expect(input({ type: 'datepicker', initial_date: '2026-11-25' })).toContain('type="date" class="bk-input"');
    expect(
      input({ type: 'radio_buttons', options: [{ text: { type: 'plain_text', text: 'A' }, value: 'a' }], initial_option: { value: 'a' } }),
    ).toContain('type="radio" name="b/x" value="a" checked');
  });

  test('rich_text', () => {
    const html = render(
      [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'hi ', style: { bold: true } },
                { type: 'user', user_id: 'U0ADMIN' },
              ],
            },
          ],
        },
      ],
      { users },
    );
    expect(html).toContain('<div><b>hi </b><span class="mention">@Ana Admin</span></div>');
  });

  test('an unknown block type is shown as such, not dropped silently', () => {
    expect(render([{ type: 'video' }])).toContain('[video block]');
  });

  test('a message without blocks shows its text as mrkdwn; with blocks, the blocks', () => {
    expect(renderMessage({ text: '*hi*' })).toBe('<div class="bk-text"><b>hi</b></div>');
    expect(renderMessage({ text: 'fallback', blocks: [{ type: 'divider' }] })).not.toContain('fallback');
  });
});
