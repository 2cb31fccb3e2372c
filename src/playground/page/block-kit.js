/*
 * Block Kit and mrkdwn to HTML, as Slack shows them: pure functions (text in, HTML out), used by the
 * page and unit-tested (test/playground/block-kit.test.ts). Plain JS so the browser loads it as is.
 * References: https://docs.slack.dev/reference/block-kit/blocks, …/block-elements,
 * https://docs.slack.dev/messaging/formatting-message-text
 */
((root, factory) => {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.BlockKit = factory();
})(typeof self !== 'undefined' ? self : this, () => {
  /** The shortcodes the app uses, and a few common ones; any other stays as typed, as Slack shows an unknown one. */
  var EMOJI = {
    white_check_mark: '✅',
    x: '❌',
    warning: '⚠️',
    hourglass_flowing_sand: '⏳',
    hourglass: '⌛',
    lock: '🔒',
    key: '🔑',
    bank: '🏦',
    moneybag: '💰',
    money_with_wings: '💸',
    page_facing_up: '📄',
    paperclip: '📎',
    memo: '📝',
    bell: '🔔',
    no_entry: '⛔',
    no_entry_sign: '🚫',
    information_source: 'ℹ️',
    eyes: '👀',
    heavy_check_mark: '✔️',
    rotating_light: '🚨',
    clipboard: '📋',
    inbox_tray: '📥',
    outbox_tray: '📤',
    hammer_and_wrench: '🛠️',
    test_tube: '🧪',
    mag: '🔍',
    link: '🔗',
    arrow_right: '➡️',
    arrows_counterclockwise: '🔄',
    large_green_circle: '🟢',
    large_yellow_circle: '🟡',
    red_circle: '🔴',
    large_blue_circle: '🔵',
    white_circle: '⚪',
    black_circle: '⚫',
    speech_balloon: '💬',
    busts_in_silhouette: '👥',
    bust_in_silhouette: '👤',
    calendar: '📆',
    date: '📅',
    chart_with_upwards_trend: '📈',
    receipt: '🧾',
    scales: '⚖️',
    shield: '🛡️',
    tada: '🎉',
    thumbsup: '👍',
    '+1': '👍',
    thumbsdown: '👎',
    wave: '👋',
    house: '🏠',
    gear: '⚙️',
    zap: '⚡',
    repeat: '🔁',
    hourglass_done: '⌛',
    stop_sign: '🛑',
    heavy_plus_sign: '➕',
    heavy_minus_sign: '➖',
    pencil: '✏️',
    pencil2: '✏️',
    wastebasket: '🗑️',
    card_index: '📇',
    label: '🏷️',
    alarm_clock: '⏰',
    arrow_down_small: '🔽',
    arrow_up_small: '🔼',
    heavy_multiplication_x: '✖️',
    raised_hand: '✋',
    construction: '🚧',
    question: '❓',
    exclamation: '❗',
    grey_question: '❔',
    sparkles: '✨',
    crossed_swords: '⚔️',
    envelope: '✉️',
    ballot_box_with_check: '☑️',
    palm_tree: '🌴',
    handshake: '🤝',
  };

  function escapeHtml(s) {
    return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  }

  /** Text Slack already escaped (`&amp;`, `&lt;`, `&gt;`): its entities are kept, anything else escaped. */
  function escapeSlackText(s) {
    return String(s)
      .replace(/&(?!(amp|lt|gt);)/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;');
  }

  function emoji(html) {
    return html.replace(/:([a-z0-9_+-]+):/g, (all, name) =>
      Object.hasOwn(EMOJI, name) ? `<span class="emoji" title=":${name}:">${EMOJI[name]}</span>` : all,
    );
  }

  function safeUrl(url) {
    return /^(https?:|mailto:)/i.test(url) ? url : '#';
  }

  function nameOf(users, id) {
    return users?.[id] ? users[id] : id;
  }

  /** One `<…>` control sequence: a link, a user or channel mention (`users` names both), a group, a special mention. */
  function controlSequence(inner, users) {
    var bar = inner.indexOf('|');
    var target = bar < 0 ? inner : inner.slice(0, bar);
    var label = bar < 0 ? undefined : inner.slice(bar + 1);
    if (target[0] === '@') return `<span class="mention">@${escapeHtml(label || nameOf(users, target.slice(1)))}</span>`;
    if (target[0] === '#') return `<span class="mention">#${escapeHtml(label || nameOf(users, target.slice(1)))}</span>`;
    if (target[0] === '!') {
      const special = target.slice(1);
      if (special.indexOf('subteam^') === 0) return `<span class="mention">${escapeSlackText(label || `@${special.slice(8)}`)}</span>`;
      if (special.indexOf('date^') === 0) return escapeSlackText(label || special);
      return `<span class="mention">@${escapeHtml(special)}</span>`;
    }
    var href = target.replace(/&amp;/g, '&');
    return `<a href="${escapeHtml(safeUrl(href))}" target="_blank" rel="noopener">${escapeSlackText(label || target)}</a>`;
  }

  /** `*bold*`, `_italics_`, `~strike~`: the tag each delimiter makes. */
  const STYLES = { '*': 'b', _: 'i', '~': 's' };

  const isSpace = (t) => typeof t === 'string' && /\s/.test(t);
  const isWordChar = (t) => typeof t === 'string' && /[\p{L}\p{N}]/u.test(t);

  /**
   * Text outside code blocks as a list of tokens: inline code spans and `<…>` control sequences, each one
   * token (its HTML: nothing inside it is formatted), and every other character on its own.
   */
  function tokens(text, users) {
    const out = [];
    const re = /`([^`\n]+)`|<([^<>\s][^<>]*)>/g;
    let last = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      out.push(...text.slice(last, m.index));
      out.push({ html: m[1] === undefined ? controlSequence(m[2], users) : `<code>${escapeSlackText(m[1])}</code>` });
      last = re.lastIndex;
    }
    out.push(...text.slice(last));
    return out;
  }

  /**
   * Where the delimiter at `i` closes, or -1. Slack's rules: it opens at the start, after a space or a
   * punctuation mark (never inside a word: `snake_case`, `2*3*4`), before something that is not a space;
   * it closes on the same line, after something that is not a space, before a space, punctuation or the end.
   * What lies between may hold code, links, mentions and the other two styles (`*`code` and <url|link>*`).
   * A delimiter doubled is not one (`**not bold**`, a masked `***.456.789-**`).
   */
  function closing(list, i) {
    const d = list[i];
    const opens = !isWordChar(list[i - 1]) && list[i - 1] !== d && list[i + 1] !== undefined && !isSpace(list[i + 1]) && list[i + 1] !== d;
    if (!opens) return -1;
    for (let j = i + 2; j < list.length && list[j] !== '\n'; j++) {
      if (list[j] === d && !isSpace(list[j - 1]) && list[j - 1] !== d && !isWordChar(list[j + 1]) && list[j + 1] !== d) return j;
    }
    return -1;
  }

  /** Tokens to HTML: bold, italics and strike, nested as written; the rest escaped, with emoji. */
  function styled(list) {
    let html = '';
    let run = '';
    const flush = () => {
      html += emoji(escapeSlackText(run));
      run = '';
    };
    for (let i = 0; i < list.length; i++) {
      const t = list[i];
      const end = typeof t === 'string' && STYLES[t] ? closing(list, i) : -1;
      if (typeof t !== 'string') {
        flush();
        html += t.html;
      } else if (end < 0) {
        run += t;
      } else {
        flush();
        html += `<${STYLES[t]}>${styled(list.slice(i + 1, end))}</${STYLES[t]}>`;
        i = end;
      }
    }
    flush();
    return html;
  }

  /** Line breaks, and lines starting with "&gt; " as quotes, in text outside code blocks. */
  function lines(html) {
    return html
      .split('\n')
      .map((line) => (line.indexOf('&gt; ') === 0 ? `<span class="quote">${line.slice(5)}</span>` : line))
      .join('<br>');
  }

  /** Slack's mrkdwn (https://docs.slack.dev/messaging/formatting-message-text) to HTML. */
  function mrkdwn(text, users) {
    const s = String(text == null ? '' : text);
    const out = [];
    const re = /```([\s\S]*?)```/g;
    let last = 0;
    // A code block breaks the lines around it; formatting never reaches into it or across it.
    for (let m = re.exec(s); m; m = re.exec(s)) {
      out.push(lines(styled(tokens(s.slice(last, m.index), users)).replace(/\n$/, '')));
      out.push(`<pre class="code-block">${escapeSlackText(m[1].replace(/^\n/, ''))}</pre>`);
      last = re.lastIndex;
    }
    out.push(lines(styled(tokens(s.slice(last), users))));
    return out.join('');
  }

  /** A text object: mrkdwn, or plain text (with emoji shortcodes unless `emoji: false`). */
  function text(obj, users) {
    if (!obj) return '';
    if (obj.type === 'mrkdwn') return mrkdwn(obj.text, users);
    var html = escapeHtml(obj.text);
    return obj.emoji === false ? html : emoji(html);
  }

  function attr(name, value) {
    return value === undefined || value === null ? '' : ` ${name}="${escapeHtml(value)}"`;
  }

  /** Registers an interactive element so the page finds its definition (options, confirm) from the DOM. */
  function register(ctx, element, blockId) {
    ctx.elements.push({ element: element, blockId: blockId });
    return (
      ' data-el="' +
      (ctx.elements.length - 1) +
      '"' +
      attr('data-action-id', element.action_id) +
      attr('data-block-id', blockId) +
      attr('data-type', element.type)
    );
  }

  function optionsHtml(element, selected) {
    var html = '';
    var isSelected = (o) => selected && selected.value === o.value;
    var one = (o) => `<option${attr('value', o.value)}${isSelected(o) ? ' selected' : ''}>${escapeHtml(o.text.text)}</option>`;
    (element.options || []).forEach((o) => {
      html += one(o);
    });
    (element.option_groups || []).forEach((g) => {
      html += `<optgroup${attr('label', g.label.text)}>${g.options.map(one).join('')}</optgroup>`;
    });
    return html;
  }

  function placeholder(element) {
    return element.placeholder ? element.placeholder.text : '';
  }

  /** An interactive element (in an actions block, a section's accessory, or an input). */
  function element(el, blockId, ctx) {
    var users = ctx.users;
    var data = register(ctx, el, blockId);
    switch (el.type) {
      case 'button':
        return (
          '<button class="bk-button' +
          (el.style ? ` ${escapeHtml(el.style)}` : '') +
          '"' +
          data +
          attr('value', el.value) +
          '>' +
          text(el.text, users) +
          '</button>'
        );
      case 'static_select':
        return (
          '<select class="bk-select"' +
          data +
          '><option value="">' +
          escapeHtml(placeholder(el) || 'Select an option') +
          '</option>' +
          optionsHtml(el, el.initial_option) +
          '</select>'
        );
      case 'multi_static_select':
        return `<select multiple class="bk-select"${data}>${optionsHtml(el)}</select>`;
      case 'external_select':
        return (
          '<span class="bk-external"' +
          data +
          '><input type="text" class="bk-input bk-typeahead" autocomplete="off"' +
          attr('placeholder', placeholder(el) || 'Type to search') +
          attr('value', el.initial_option ? el.initial_option.text.text : '') +
          attr('data-value', el.initial_option ? el.initial_option.value : '') +
          '><span class="bk-suggestions"></span></span>'
        );
      case 'overflow':
        return `<select class="bk-overflow"${data}><option value="">⋯</option>${optionsHtml(el)}</select>`;
      case 'plain_text_input':
        return el.multiline
          ? '<textarea class="bk-input"' +
              data +
              attr('placeholder', placeholder(el)) +
              attr('maxlength', el.max_length) +
              '>' +
              escapeHtml(el.initial_value || '') +
              '</textarea>'
          : '<input type="text" class="bk-input"' +
              data +
              attr('placeholder', placeholder(el)) +
              attr('value', el.initial_value) +
              attr('maxlength', el.max_length) +
              '>';
      case 'number_input':
        return (
          '<input type="number" class="bk-input"' +
          data +
          attr('value', el.initial_value) +
          attr('min', el.min_value) +
          attr('max', el.max_value) +
          (el.is_decimal_allowed ? ' step="any"' : '') +
          '>'
        );
      case 'email_text_input':
      case 'url_text_input':
        return (
          '<input type="' +
          (el.type === 'email_text_input' ? 'email' : 'url') +
          '" class="bk-input"' +
          data +
          attr('value', el.initial_value) +
          attr('placeholder', placeholder(el)) +
          '>'
        );
      case 'datepicker':
        return `<input type="date" class="bk-input"${data}${attr('value', el.initial_date)}>`;
      case 'file_input':
        return (
          '<input type="file" class="bk-file" multiple' +
          data +
          attr('accept', (el.filetypes || []).map((t) => `.${t}`).join(',') || undefined) +
          '><span class="bk-file-list"></span>'
        );
      case 'checkboxes':
      case 'radio_buttons':
        return (
          '<span class="bk-choices"' +
          data +
          '>' +
          (el.options || [])
            .map((o) => {
              var on =
                el.type === 'checkboxes'
                  ? (el.initial_options || []).some((i) => i.value === o.value)
                  : el.initial_option && el.initial_option.value === o.value;
              return (
                '<label><input type="' +
                (el.type === 'checkboxes' ? 'checkbox' : 'radio') +
                '"' +
                attr('name', `${blockId}/${el.action_id}`) +
                attr('value', o.value) +
                (on ? ' checked' : '') +
                '> ' +
                text(o.text, users) +
                '</label>'
              );
            })
            .join('') +
          '</span>'
        );
      case 'image':
        return `<img class="bk-image-el"${attr('src', safeUrl(el.image_url || ''))}${attr('alt', el.alt_text)}>`;
      default:
        return `<span class="bk-unknown">[${escapeHtml(el.type)}]</span>`;
    }
  }

  var BLOCKS = {
    section: (b, ctx) => {
      var html = '<div class="bk-section"><div class="bk-section-body">';
      if (b.text) html += `<div class="bk-text">${text(b.text, ctx.users)}</div>`;
      if (b.fields) html += `<div class="bk-fields">${b.fields.map((f) => `<div>${text(f, ctx.users)}</div>`).join('')}</div>`;
      html += '</div>';
      if (b.accessory) html += `<div class="bk-accessory">${element(b.accessory, b.block_id, ctx)}</div>`;
      return `${html}</div>`;
    },
    header: (b, ctx) => `<div class="bk-header">${text(b.text, ctx.users)}</div>`,
    divider: () => '<hr class="bk-divider">',
    context: (b, ctx) =>
      '<div class="bk-context">' +
      b.elements
        .map((e) =>
          e.type === 'image'
            ? `<img class="bk-context-img"${attr('src', safeUrl(e.image_url || ''))}${attr('alt', e.alt_text)}>`
            : `<span>${text(e, ctx.users)}</span>`,
        )
        .join('') +
      '</div>',
    actions: (b, ctx) => `<div class="bk-actions">${b.elements.map((e) => element(e, b.block_id, ctx)).join('')}</div>`,
    input: (b, ctx) => {
      var error = ctx.errors && b.block_id && ctx.errors[b.block_id];
      return (
        '<div class="bk-input-block' +
        (error ? ' has-error' : '') +
        '"' +
        attr('data-block-id', b.block_id) +
        (b.dispatch_action ? ' data-dispatch="1"' : '') +
        '><label class="bk-label">' +
        text(b.label, ctx.users) +
        (b.optional ? ' <span class="bk-optional">(optional)</span>' : '') +
        '</label>' +
        element(b.element, b.block_id, ctx) +
        (error ? `<div class="bk-error">${escapeHtml(error)}</div>` : '') +
        (b.hint ? `<div class="bk-hint">${text(b.hint, ctx.users)}</div>` : '') +
        '</div>'
      );
    },
    image: (b, ctx) =>
      '<figure class="bk-image">' +
      (b.title ? `<figcaption>${text(b.title, ctx.users)}</figcaption>` : '') +
      '<img' +
      attr('src', safeUrl(b.image_url || '')) +
      attr('alt', b.alt_text) +
      '></figure>',
    rich_text: (b, ctx) => `<div class="bk-rich">${(b.elements || []).map((e) => richElement(e, ctx)).join('')}</div>`,
  };

  function richInline(el, ctx) {
    if (el.type === 'text') {
      let s = escapeHtml(el.text);
      const st = el.style || {};
      if (st.code) s = `<code>${s}</code>`;
      if (st.bold) s = `<b>${s}</b>`;
      if (st.italic) s = `<i>${s}</i>`;
      if (st.strike) s = `<s>${s}</s>`;
      return s.replace(/\n/g, '<br>');
    }
    if (el.type === 'link')
      return `<a href="${escapeHtml(safeUrl(el.url))}" target="_blank" rel="noopener">${escapeHtml(el.text || el.url)}</a>`;
    if (el.type === 'user') return `<span class="mention">@${escapeHtml(nameOf(ctx.users, el.user_id))}</span>`;
    if (el.type === 'usergroup') return `<span class="mention">@${escapeHtml(el.usergroup_id)}</span>`;
    if (el.type === 'emoji') return emoji(`:${escapeHtml(el.name)}:`);
    return '';
  }

  function richElement(e, ctx) {
    var inner = (e.elements || []).map((x) => (x.elements ? richElement(x, ctx) : richInline(x, ctx))).join('');
    if (e.type === 'rich_text_preformatted') return `<pre class="code-block">${inner}</pre>`;
    if (e.type === 'rich_text_quote') return `<span class="quote">${inner}</span>`;
    if (e.type === 'rich_text_list') return e.style === 'ordered' ? `<ol>${inner}</ol>` : `<ul>${inner}</ul>`;
    if (e.type === 'rich_text_section') return `<div>${inner}</div>`;
    return inner;
  }

  /**
   * Blocks to HTML. `ctx`: `users` (ID → name, for mentions), `errors` (block_id → inline error of
   * an input), and `elements`, which collects the interactive elements (their index is each one's `data-el`).
   */
  function renderBlocks(blocks, ctx) {
    ctx = ctx || {};
    ctx.elements = ctx.elements || [];
    return (blocks || [])
      .map((b) => {
        var render = BLOCKS[b.type];
        return (
          '<div class="bk-block bk-' +
          escapeHtml(b.type) +
          '-wrap"' +
          attr('data-block-id', b.block_id) +
          '>' +
          (render ? render(b, ctx) : `<span class="bk-unknown">[${escapeHtml(b.type)} block]</span>`) +
          '</div>'
        );
      })
      .join('');
  }

  /** A message's body as Slack shows it: its blocks, or its text when it has none. */
  function renderMessage(message, ctx) {
    ctx = ctx || {};
    var blocks = message.blocks;
    if (typeof blocks === 'string') {
      try {
        blocks = JSON.parse(blocks);
      } catch {
        blocks = undefined;
      }
    }
    return blocks?.length ? renderBlocks(blocks, ctx) : `<div class="bk-text">${mrkdwn(message.text || '', ctx.users)}</div>`;
  }

  return { escapeHtml: escapeHtml, mrkdwn: mrkdwn, text: text, renderBlocks: renderBlocks, renderMessage: renderMessage, EMOJI: EMOJI };
});
