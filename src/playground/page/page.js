/*
 * The playground page: what a person sees of the workspace (GET /api/state), redrawn when the server
 * says something changed (server-sent events), and what they do sent back as Slack would deliver it
 * (POST /api/…). Plain JS, no framework: a few hundred lines do it, and the page loads in one go.
 */
(() => {
  var BK = window.BlockKit;
  var $ = (sel, root) => (root || document).querySelector(sel);
  var esc = BK.escapeHtml;

  var params = new URLSearchParams(location.search);
  var ui = {
    me: params.get('as') || 'U0ADMIN',
    tab: params.get('tab') || 'channel',
    thread: null,
    state: null,
    /** Interactive elements of each drawn region (their index is each one's data-el). */
    regions: {},
    /** The modal on screen (id and hash): redrawn only when the app changes it, so typing is kept. */
    modalKey: '',
    modalErrors: {},
    /** File ids picked in the modal's file inputs, by block/action. */
    modalFiles: {},
    /** Files attached in the composer, to go with the next message. */
    attached: [],
    sandboxOpen: params.get('panel') !== 'closed',
    /** Answers "no" to the confirmation dialog on screen, if one is. */
    dismissConfirm: null,
  };

  function api(name, body) {
    return fetch(`/api/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      (res) =>
        res.json().then((json) => {
          if (!res.ok) throw new Error(json.error || `HTTP ${res.status}`);
          return json;
        }),
    );
  }

  function users() {
    var map = { U0BOT: 'Pix Ops' };
    if (ui.state) map[ui.state.channel.id] = ui.state.channel.name;
    (ui.state?.personas || []).forEach((p) => {
      map[p.id] = p.name;
    });
    return map;
  }

  /** What the person sees, pushed by the server whenever it changes (server-sent events). */
  var stream = null;
  function follow() {
    if (stream) stream.close();
    stream = new EventSource(`/api/events?user=${encodeURIComponent(ui.me)}`);
    stream.onmessage = (e) => {
      var first = !ui.state;
      ui.state = JSON.parse(e.data);
      draw();
      document.body.dataset.user = ui.state.user;
      document.body.dataset.version = String(ui.state.version);
      if (first && ui.tab === 'home') api('home', { user: ui.me });
      if (ui.sandboxOpen && ui.state.sandboxVersion !== ui.sandboxVersion) {
        ui.sandboxVersion = ui.state.sandboxVersion;
        sandboxSoon();
      }
    };
  }

  /** The panel reads the sandbox again after a change, at most twice a second. */
  var sandboxTimer = null;
  function sandboxSoon() {
    if (sandboxTimer) return;
    sandboxTimer = setTimeout(() => {
      sandboxTimer = null;
      drawSandbox();
    }, 500);
  }

  var settlingTimer = null;
  function settlingSoon() {
    if (settlingTimer) return;
    settlingTimer = setTimeout(() => {
      settlingTimer = null;
      drawSandbox();
    }, 1000);
  }

  /** Draws again what is on screen (the person's own moves, such as opening a thread). */
  function refresh() {
    if (ui.state) draw();
  }

  // ---- drawing -------------------------------------------------------------------------------

  function tsTime(ts) {
    var d = new Date(Number(String(ts).split('.')[0]) * 1000);
    return d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  }

  function region(name, render) {
    var ctx = { users: users(), elements: [] };
    var html = render(ctx);
    ui.regions[name] = ctx.elements;
    return html;
  }

  function filesHtml(files) {
    return (files || [])
      .map(
        (f) =>
          '<a class="file" href="/files/' +
          encodeURIComponent(f.id) +
          '/' +
          encodeURIComponent(f.name) +
          '" target="_blank"><span class="file-icon">' +
          esc((f.filetype || 'file').toUpperCase()) +
          '</span><span>' +
          esc(f.name) +
          '<br><small>' +
          esc(String(f.size)) +
          ' bytes</small></span></a>',
      )
      .join('');
  }

  function messageHtml(m, ctx, opts) {
    var u = users();
    var isBot = Boolean(m.bot_id);
    var ref = m.ephemeralId ? { kind: 'ephemeral', id: m.ephemeralId } : { kind: 'message', channel: m.channel, ts: m.ts };
    var replies = opts.replies || 0;
    var author = isBot ? 'Pix Ops <span class="app-tag">APP</span>' : esc(u[m.user] || m.user);
    var avatar = isBot ? '<div class="avatar bot">PX</div>' : `<div class="avatar">${esc((u[m.user] || m.user || '?').slice(0, 1))}</div>`;
    return (
      '<div class="message' +
      (m.ephemeralId ? ' ephemeral' : '') +
      '" data-ref="' +
      esc(JSON.stringify(ref)) +
      '" data-ts="' +
      esc(m.ts) +
      '">' +
      avatar +
      '<div class="message-main"><div class="message-head"><b>' +
      author +
      '</b> <span class="time">' +
      tsTime(m.ts) +
      '</span>' +
      (m.ephemeralId ? ' <span class="only-you">Only visible to you</span>' : '') +
      (!m.ephemeralId && !opts.inThread ? `<button class="more" title="More actions" data-more="${esc(m.ts)}">⋯</button>` : '') +
      '</div>' +
      '<div class="message-body">' +
      BK.renderMessage(m, ctx) +
      '</div>' +
      (m.files?.length ? `<div class="files">${filesHtml(m.files)}</div>` : '') +
      (replies && !opts.inThread
        ? `<button class="replies" data-thread="${esc(m.ts)}">${replies}${replies === 1 ? ' reply' : ' replies'}</button>`
        : '') +
      '</div></div>'
    );
  }

  function tsKey(ts) {
    var p = String(ts).split('.');
    return `${p[0].padStart(12, '0')}.${(p[1] || '').padEnd(6, '0')}`;
  }
  function byTs(a, b) {
    return tsKey(a.ts) < tsKey(b.ts) ? -1 : 1;
  }

  function conversation() {
    var s = ui.state;
    return ui.tab === 'dm'
      ? { id: s.dm.id, name: 'Pix Ops', messages: s.dm.messages }
      : { id: s.channel.id, name: `#${s.channel.name}`, messages: s.channel.messages };
  }

  function ephemeralsIn(channel, threadTs) {
    return ui.state.ephemerals
      .filter((e) => e.channel === channel && (threadTs ? e.thread_ts === threadTs : !e.thread_ts))
      .map((e) => {
        // Slack shows an app's ephemeral message as the app's, to the one person.
        return Object.assign({}, e, { ephemeralId: e.id, user: 'U0BOT', bot_id: 'B0BOT' });
      });
  }

  function drawPersonas() {
    var s = ui.state;
    $('#persona').innerHTML = s.personas
      .map(
        (p) =>
          '<option value="' +
          esc(p.id) +
          '"' +
          (p.id === ui.me ? ' selected' : '') +
          '>' +
          esc(p.name) +
          ' — ' +
          esc(p.role) +
          ' (' +
          esc(p.id) +
          ')</option>',
      )
      .join('');
  }

  function drawRefusals() {
    var list = ui.state.refusals || [];
    $('#refusals').innerHTML = list
      .slice(-3)
      .map(
        (r) =>
          '<div class="refusal"><b>Slack would refuse this (' +
          esc(r.where) +
          '):</b><ul>' +
          r.problems.map((p) => `<li>${esc(p)}</li>`).join('') +
          '</ul></div>',
      )
      .join('');
  }

  function drawConversation() {
    var c = conversation();
    var all = c.messages;
    var roots = all.filter((m) => !m.thread_ts || m.thread_ts === m.ts);
    var replyCount = (ts) => all.filter((m) => m.thread_ts === ts && m.ts !== ts).length;
    var items = roots.concat(ephemeralsIn(c.id)).sort(byTs);
    $('#conversation-title').textContent = c.name;
    var list = $('#messages');
    var atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    drawMessages(list, items, replyCount);
    if (atBottom) list.scrollTop = list.scrollHeight;
    drawThread(c, all);
  }

  /**
   * The channel's messages, each drawn once and kept while it is the same (a push carries the whole
   * state; redrawing every message on each would grow with the channel). Each message holds its own
   * interactive elements (region `m:<key>`).
   */
  var drawn = new Map();
  function drawMessages(list, items, replyCount) {
    if (!items.length) {
      list.innerHTML = '<p class="empty">No messages yet. Type <code>/pix help</code> below and press Enter.</p>';
      drawn.clear();
      return;
    }
    var keep = new Map();
    var nodes = items.map((m) => {
      var key = `m:${m.ephemeralId || `${m.channel}/${m.ts}`}`;
      var sig = JSON.stringify([m.text, m.blocks, m.files, replyCount(m.ts), ui.me]);
      var old = drawn.get(key);
      if (old && old.sig === sig) {
        keep.set(key, old);
        return old.node;
      }
      var holder = document.createElement('div');
      holder.innerHTML = region(key, (ctx) => messageHtml(m, ctx, { replies: replyCount(m.ts) }));
      var node = holder.firstChild;
      node.dataset.region = key;
      keep.set(key, { sig: sig, node: node });
      return node;
    });
    drawn.forEach((_v, key) => {
      if (!keep.has(key)) delete ui.regions[key];
    });
    drawn = keep;
    var empty = list.querySelector('.empty');
    if (empty) empty.remove();
    // Put the nodes in order, moving only those out of place.
    nodes.forEach((node, i) => {
      if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null);
    });
    while (list.children.length > nodes.length) list.lastChild.remove();
  }

  function drawThread(c, all) {
    var pane = $('#thread');
    if (!ui.thread) {
      pane.hidden = true;
      return;
    }
    pane.hidden = false;
    var items = all
      .filter((m) => m.ts === ui.thread || m.thread_ts === ui.thread)
      .concat(ephemeralsIn(c.id, ui.thread))
      .sort(byTs);
    var list = $('#thread-messages');
    list.innerHTML = region('thread', (ctx) => items.map((m) => messageHtml(m, ctx, { inThread: true })).join(''));
    list.scrollTop = list.scrollHeight;
  }

  function drawHome() {
    var home = ui.state.home;
    $('#home').innerHTML = home
      ? `<div data-view-id="${esc(home.id)}">${region('home', (ctx) => BK.renderBlocks(home.blocks, ctx))}</div>`
      : '<p class="empty">Opening the Home tab…</p>';
  }

  function drawModal() {
    var stack = ui.state.modals;
    var top = stack[stack.length - 1];
    var box = $('#modal');
    var key = top ? `${top.id}:${top.hash}:${JSON.stringify(ui.modalErrors)}` : '';
    if (key === ui.modalKey) return;
    // Another modal (not the same one updated): its files and errors start empty.
    if (!top || ui.modalKey.indexOf(`${top.id}:`) !== 0) ui.modalFiles = {};
    ui.modalKey = key;
    if (!top) {
      box.hidden = true;
      box.innerHTML = '';
      return;
    }
    box.hidden = false;
    // Like Slack: an updated view keeps what was typed in inputs whose block_id and action_id it still has.
    var current = box.querySelector('.modal[data-view-id]');
    var typed = current && current.dataset.viewId === top.id ? collectValues(current, 'modal') : {};
    var t = (o) => (o ? BK.text(o, users()) : '');
    box.innerHTML =
      '<div class="modal" role="dialog" data-view-id="' +
      esc(top.id) +
      '">' +
      '<div class="modal-head">' +
      (stack.length > 1 ? `<span class="stack">${stack.length}</span>` : '') +
      '<h2>' +
      t(top.title) +
      '</h2><button class="modal-x" data-close="' +
      esc(top.id) +
      '" title="Close">✕</button></div>' +
      '<div class="modal-body">' +
      region('modal', (ctx) => {
        ctx.errors = ui.modalErrors;
        return BK.renderBlocks(top.blocks, ctx);
      }) +
      '</div>' +
      '<div class="modal-foot"><button class="bk-button" data-close="' +
      esc(top.id) +
      '">' +
      (t(top.close) || 'Cancel') +
      '</button>' +
      (top.submit ? `<button class="bk-button primary" data-submit="${esc(top.id)}">${t(top.submit)}</button>` : '') +
      '</div></div>';
    restoreValues(box.querySelector('.modal'), typed);
    // Files already picked in this modal stay listed after a redraw.
    Object.keys(ui.modalFiles).forEach((k) => {
      var parts = k.split('/');
      var input = box.querySelector(`[data-block-id="${CSS.escape(parts[0])}"][data-action-id="${CSS.escape(parts[1])}"]`);
      if (input) listFiles(input, ui.modalFiles[k]);
    });
  }

  function draw() {
    drawPersonas();
    drawRefusals();
    document.querySelectorAll('.tab').forEach((b) => {
      b.classList.toggle('active', b.dataset.tab === ui.tab);
    });
    $('#chat').hidden = ui.tab === 'home';
    $('#home').hidden = ui.tab !== 'home';
    if (ui.tab === 'home') drawHome();
    else drawConversation();
    drawModal();
  }

  // ---- the sandbox panel ---------------------------------------------------------------------

  var disputes = { available: true, opened: [] };

  function drawSandbox() {
    var panel = $('#sandbox');
    panel.hidden = !ui.sandboxOpen;
    if (!ui.sandboxOpen) return;
    fetch('/api/sandbox')
      .then((r) => r.json())
      .then((sb) => {
        // A payment approved ends on the sandbox's own clock, with no write to tell it: read again until it has.
        if (sb.payments?.some((p) => p.status === 'APPROVED')) settlingSoon();
        // Redrawn only when it changed: a limit being typed in the panel is kept.
        var seen = JSON.stringify(sb);
        if (seen === ui.sandboxSeen) return;
        ui.sandboxSeen = seen;
        // What a person is typing survives the redraw (another change of the sandbox's state redraws it all),
        // and so does the field they are typing in: the next keys land there.
        const typed = typedValues(['#sandbox-requests', '#sandbox-accounts']);
        const typing = focusedField(['#sandbox-requests', '#sandbox-accounts']);
        var inReview = sb.limitRequests.filter((r) => r.status === 'IN_REVIEW');
        var decided = sb.limitRequests.filter((r) => r.status !== 'IN_REVIEW').slice(0, 5);
        var limitsOf = (r) => r.requestedLimits || {};
        $('#sandbox-requests').innerHTML =
          (inReview.length
            ? inReview
                .map((r) => {
                  var fields = Object.keys(limitsOf(r));
                  return (
                    '<form class="sb-request" data-request="' +
                    esc(r.id) +
                    '"><div class="sb-id">' +
                    esc(r.id) +
                    '</div><small>account ' +
                    esc(r.companyBankAccountId) +
                    '</small>' +
                    fields
                      .map(
                        (f) =>
                          '<label>' +
                          esc(f) +
                          ' (cents) <input type="number" min="0" name="' +
                          esc(f) +
                          '" value="' +
                          esc(String(limitsOf(r)[f])) +
                          '"></label>',
                      )
                      .join('') +
                    '<div class="sb-buttons"><button type="button" class="bk-button primary" data-decide="approve">Approve</button><button type="button" class="bk-button danger" data-decide="reject">Reject</button></div></form>'
                  );
                })
                .join('')
            : '<p class="empty">No limit request in review.</p>') +
          decided.map((r) => `<div class="sb-decided">${esc(r.id)} · ${esc(r.status)}</div>`).join('');
        $('#sandbox-accounts').innerHTML = sb.accounts
          .map((a) => {
            // The account's API returns `pixKeyWithdraw` (null when no key is set) only where the withdraw-key API is enabled.
            var on = Object.hasOwn(a, 'pixKeyWithdraw');
            var blocked = a.withdrawBlocked === true;
            var available = a.balance ? a.balance.available : 0;
            return (
              '<div class="sb-account" data-account="' +
              esc(a.accountId) +
              '"><span>' +
              esc(a.accountId) +
              (a.isDefault ? ' <small>(default)</small>' : '') +
              '</span><small class="sb-balance-text">available ' +
              esc(a.availableText || String(available)) +
              (blocked ? ' · <b>withdrawals blocked</b>' : '') +
              '</small><form class="sb-balance"><label>Available balance (cents) <input type="number" min="0" name="available" value="' +
              esc(String(available)) +
              '"></label><button type="button" class="bk-button" data-set-balance>Set balance</button></form>' +
              '<button class="bk-button" data-block="' +
              (blocked ? '0' : '1') +
              '">' +
              (blocked ? 'Unblock' : 'Block') +
              ' withdrawals</button><button class="bk-button" data-withdraw="' +
              esc(a.accountId) +
              '" data-enabled="' +
              (on ? '0' : '1') +
              '">' +
              (on ? 'Disable' : 'Enable') +
              ' withdraw key</button></div>'
            );
          })
          .join('');
        restoreTyped(typed);
        if (typing) fieldOf(typing)?.focus();
        drawPayments(sb);
        drawDisputes();
      });
  }

  /** An input of the panel by its row (`data-request`, `data-account`) and name: what outlives a redraw. */
  function fieldKey(input) {
    const owner = input.closest('[data-request],[data-account]');
    return owner ? `${owner.dataset.request || owner.dataset.account}|${input.name}` : undefined;
  }

  function fieldOf(key) {
    const [id, name] = key.split('|');
    const owner = document.querySelector(`[data-request="${CSS.escape(id)}"],[data-account="${CSS.escape(id)}"]`);
    return owner?.querySelector(`input[name="${CSS.escape(name)}"]`);
  }

  /** The inputs under `selectors` whose value was changed by hand, by their key (fieldKey). */
  function typedValues(selectors) {
    const kept = new Map();
    for (const input of document.querySelectorAll(selectors.map((s) => `${s} input[name]`).join(','))) {
      const key = fieldKey(input);
      if (key && input.value !== input.defaultValue) kept.set(key, input.value);
    }
    return kept;
  }

  /** The key of the input under `selectors` that has the keyboard, if one has. */
  function focusedField(selectors) {
    const input = document.activeElement;
    if (input?.tagName !== 'INPUT' || !input.name || !selectors.some((s) => input.closest(s))) return undefined;
    return fieldKey(input);
  }

  function restoreTyped(kept) {
    for (const [key, value] of kept) {
      const input = fieldOf(key);
      if (input) input.value = value;
    }
  }

  /**
   * How the sandbox's payments end: confirmed after its delay, unless the next one is made to fail with a
   * code (the failure armed is shown until a payment uses it); and its latest payments with their status.
   */
  function drawPayments(sb) {
    var outcomes = sb.paymentOutcomes;
    var codes = outcomes ? Object.keys(outcomes.failureCodes) : [];
    if (!ui.failCode || codes.indexOf(ui.failCode) < 0)
      ui.failCode = codes.indexOf('REACH_TRANSFER_LIMIT') >= 0 ? 'REACH_TRANSFER_LIMIT' : codes[0];
    var armed = outcomes?.failNext;
    $('#sandbox-payments').innerHTML =
      (outcomes
        ? '<p class="sb-note">An approved payment is confirmed ' +
          esc(String(outcomes.confirmDelayMs / 1000)) +
          ' s later, with its signed webhook.</p>' +
          '<form class="sb-fail"><label>Next payment fails with <select name="failCode">' +
          codes
            .map(
              (c) =>
                '<option value="' +
                esc(c) +
                '"' +
                (c === ui.failCode ? ' selected' : '') +
                ' title="' +
                esc(outcomes.failureCodes[c]) +
                '">' +
                esc(c) +
                '</option>',
            )
            .join('') +
          '</select></label><button type="button" class="bk-button" data-fail-next>Fail the next payment</button></form>' +
          (armed
            ? '<p class="sb-armed">The next ' +
              (armed.count > 1 ? `${esc(String(armed.count))} payments approved fail` : 'payment approved fails') +
              ' with <code>' +
              esc(armed.code) +
              '</code>.</p>'
            : '')
        : '') +
      (sb.payments.length
        ? sb.payments
            .map(
              (p) =>
                '<div class="sb-payment" data-payment="' +
                esc(p.id) +
                '"><span>' +
                esc(p.valueText || String(p.value)) +
                ' · <b>' +
                esc(p.status) +
                '</b>' +
                (p.error ? ` <code>${esc(p.error.code)}</code>` : '') +
                '</span><small>to ' +
                esc(p.destinationAlias) +
                '</small></div>',
            )
            .join('')
        : '<p class="empty">No payment yet.</p>');
  }

  function drawDisputes() {
    $('#sandbox-disputes').innerHTML = disputes.available
      ? '<form id="dispute-form"><label>Type <select name="type"><option>MED</option><option>CHARGEBACK</option></select></label>' +
        '<label>Value (cents) <input name="value" inputmode="numeric" placeholder="15000"></label><label>Reason <input name="reason" placeholder="Golpe"></label>' +
        '<button type="button" class="bk-button" data-dispute-open>Open a dispute</button></form>' +
        disputes.opened
          .map(
            (d) =>
              '<div class="sb-dispute"><span>' +
              esc(d.id) +
              ' · ' +
              esc(d.status) +
              '</span>' +
              (d.status === 'OPENED'
                ? ['ACCEPTED', 'REJECTED', 'CANCELED']
                    .map(
                      (s) =>
                        '<button class="bk-button" data-dispute="' +
                        esc(d.id) +
                        '" data-status="' +
                        s +
                        '">' +
                        s.toLowerCase() +
                        '</button>',
                    )
                    .join('')
                : '') +
              '</div>',
          )
          .join('')
      : '<p class="empty">Disputes are not in this build of the sandbox yet.</p>';
  }

  function sandboxPost(path, body) {
    return fetch(`/api/sandbox/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body || {}),
    }).then((res) =>
      res.text().then((t) => {
        var json = {};
        try {
          json = JSON.parse(t);
        } catch {
          json = {};
        }
        return { status: res.status, json: json };
      }),
    );
  }

  // ---- what the person does ------------------------------------------------------------------

  function elementOf(node) {
    var holder = node.closest('[data-el]');
    if (!holder) return null;
    var own = holder.closest('[data-region]');
    var where = own ? own.dataset.region : holder.closest('#thread-messages') ? 'thread' : holder.closest('#home') ? 'home' : 'modal';
    var entry = ui.regions[where][Number(holder.dataset.el)];
    return entry ? { node: holder, def: entry.element, blockId: entry.blockId, where: where } : null;
  }

  function findOption(def, value) {
    var all = (def.options || []).concat.apply(
      def.options || [],
      (def.option_groups || []).map((g) => g.options),
    );
    return all.filter((o) => o.value === value)[0] || null;
  }

  /** The stateful elements of a modal or of the Home tab, as Slack's `view.state.values`. */
  function collectValues(container, whereName) {
    var values = {};
    container.querySelectorAll('[data-el]').forEach((node) => {
      var entry = ui.regions[whereName][Number(node.dataset.el)];
      if (!entry) return;
      var def = entry.element;
      var v;
      switch (def.type) {
        case 'plain_text_input':
        case 'email_text_input':
        case 'url_text_input':
        case 'number_input':
          v = { type: def.type, value: node.value === '' ? null : node.value };
          break;
        case 'static_select':
          v = { type: def.type, selected_option: findOption(def, node.value) };
          break;
        case 'multi_static_select':
          v = {
            type: def.type,
            selected_options: Array.from(node.selectedOptions).map((o) => findOption(def, o.value)),
          };
          break;
        case 'external_select': {
          const input = node.querySelector('input');
          v = {
            type: def.type,
            selected_option: input.dataset.value ? { text: { type: 'plain_text', text: input.value }, value: input.dataset.value } : null,
          };
          break;
        }
        case 'datepicker':
          v = { type: def.type, selected_date: node.value || null };
          break;
        case 'checkboxes':
          v = {
            type: def.type,
            selected_options: Array.from(node.querySelectorAll('input:checked')).map((i) => findOption(def, i.value)),
          };
          break;
        case 'radio_buttons': {
          const on = node.querySelector('input:checked');
          v = { type: def.type, selected_option: on ? findOption(def, on.value) : null };
          break;
        }
        case 'file_input':
          v = { type: def.type, files: ui.modalFiles[`${entry.blockId}/${def.action_id}`] || [] };
          break;
        default:
          return;
      }
      values[entry.blockId] = values[entry.blockId] || {};
      values[entry.blockId][def.action_id] = v;
    });
    return values;
  }

  /** Puts back what was typed or picked (`values`, as collectValues gives them) into a redrawn view. */
  function restoreValues(container, values) {
    container.querySelectorAll('[data-el]').forEach((node) => {
      var entry = ui.regions.modal[Number(node.dataset.el)];
      var v = entry && values[entry.blockId] && values[entry.blockId][entry.element.action_id];
      if (!v || v.type !== entry.element.type) return;
      if ('value' in v && v.value !== null) node.value = v.value;
      else if (v.selected_date) node.value = v.selected_date;
      else if (v.selected_option && node.tagName === 'SELECT') node.value = v.selected_option.value;
      else if (v.selected_option && v.type === 'external_select') {
        const input = node.querySelector('input');
        input.value = v.selected_option.text.text;
        input.dataset.value = v.selected_option.value;
      }
    });
  }

  /** Slack's confirmation dialog of an element with a `confirm` object; resolves true to go on. */
  function confirmFirst(def) {
    if (!def.confirm) return Promise.resolve(true);
    var c = def.confirm;
    var box = $('#confirm');
    var u = users();
    box.innerHTML =
      '<div class="modal confirm" role="alertdialog"><div class="modal-head"><h2>' +
      BK.text(c.title, u) +
      '</h2></div><div class="modal-body">' +
      BK.text(c.text, u) +
      '</div>' +
      '<div class="modal-foot"><button class="bk-button" data-answer="no">' +
      (c.deny ? BK.text(c.deny, u) : 'Cancel') +
      '</button><button class="bk-button ' +
      (c.style === 'danger' ? 'danger' : 'primary') +
      '" data-answer="yes">' +
      (c.confirm ? BK.text(c.confirm, u) : 'Yes') +
      '</button></div></div>';
    box.hidden = false;
    return new Promise((resolve) => {
      var answer = (yes) => {
        box.hidden = true;
        box.onclick = null;
        ui.dismissConfirm = null;
        resolve(yes);
      };
      ui.dismissConfirm = () => answer(false);
      box.onclick = (e) => {
        var b = e.target.closest('[data-answer]');
        if (b) answer(b.dataset.answer === 'yes');
      };
    });
  }

  /**
   * What was on screen for the persona left: their modal (Slack shows a modal only to the person who
   * opened it), a confirmation they had not answered (answered no: it must not act as the next one),
   * the shortcut menu. The next persona's state brings their own modal, if they have one open.
   */
  function clearPersonalOverlays() {
    if (ui.dismissConfirm) ui.dismissConfirm();
    var box = $('#modal');
    box.hidden = true;
    box.innerHTML = '';
    ui.modalKey = '';
    ui.modalErrors = {};
    ui.modalFiles = {};
    $('#shortcut-menu').hidden = true;
  }

  /** Sends a block action from wherever the element is: a message, the Home tab, a modal. */
  function act(found, action) {
    var full = Object.assign({ action_id: found.def.action_id, block_id: found.blockId || 'block', type: found.def.type }, action);
    if (found.where === 'modal' || found.where === 'home') {
      const container = found.node.closest('[data-view-id]');
      return api('click', { user: ui.me, viewId: container.dataset.viewId, action: full, values: collectValues(container, found.where) });
    }
    var message = found.node.closest('[data-ref]');
    return api('click', { user: ui.me, ref: JSON.parse(message.dataset.ref), action: full });
  }

  function listFiles(input, ids) {
    var list = input.parentNode.querySelector('.bk-file-list');
    if (list) list.textContent = ids.length ? `${ids.length} file(s) uploaded` : '';
  }

  /** The types the server refuses (what a cross-site form can send): such a file goes as application/octet-stream. */
  const FORM_TYPES = /^(text\/plain|application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

  function upload(file) {
    const type = file.type && !FORM_TYPES.test(file.type) ? file.type : 'application/octet-stream';
    return fetch(`/api/upload?name=${encodeURIComponent(file.name)}`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: file,
    }).then((r) => r.json());
  }

  document.addEventListener('click', (e) => {
    var target = e.target;
    var tab = target.closest('.tab');
    if (tab) {
      ui.tab = tab.dataset.tab;
      ui.thread = null;
      if (ui.tab === 'home') api('home', { user: ui.me });
      draw();
      return;
    }
    var thread = target.closest('[data-thread]');
    if (thread) {
      ui.thread = thread.dataset.thread;
      draw();
      return;
    }
    if (target.closest('#thread-close')) {
      ui.thread = null;
      draw();
      return;
    }
    var more = target.closest('[data-more]');
    if (more) {
      const menu = $('#shortcut-menu');
      menu.innerHTML = ui.state.shortcuts
        .map((s) => `<button data-shortcut="${esc(s.callbackId)}" data-ts="${esc(more.dataset.more)}">${esc(s.name)}</button>`)
        .join('');
      const r = more.getBoundingClientRect();
      menu.style.top = `${r.bottom + window.scrollY}px`;
      menu.style.left = `${Math.max(8, r.right - 240)}px`;
      menu.hidden = false;
      return;
    }
    var shortcut = target.closest('[data-shortcut]');
    $('#shortcut-menu').hidden = true;
    if (shortcut) {
      api('shortcut', { user: ui.me, callbackId: shortcut.dataset.shortcut, channel: conversation().id, ts: shortcut.dataset.ts });
      return;
    }
    var close = target.closest('[data-close]');
    if (close) {
      ui.modalErrors = {};
      api('close', { user: ui.me, viewId: close.dataset.close });
      return;
    }
    var submit = target.closest('[data-submit]');
    if (submit) {
      const modal = submit.closest('[data-view-id]');
      submit.disabled = true;
      api('submit', { user: ui.me, viewId: submit.dataset.submit, values: collectValues(modal, 'modal') }).then((answer) => {
        submit.disabled = false;
        ui.modalErrors = answer.errors || {};
        ui.modalKey = '';
        refresh();
      });
      return;
    }
    var suggestion = target.closest('[data-suggestion]');
    if (suggestion) {
      const holder = suggestion.closest('.bk-external');
      const input = holder.querySelector('input');
      input.value = suggestion.textContent;
      input.dataset.value = suggestion.dataset.suggestion;
      holder.querySelector('.bk-suggestions').innerHTML = '';
      const f = elementOf(holder);
      const block = holder.closest('.bk-input-block');
      if (f && (!block || block.dataset.dispatch))
        act(f, { selected_option: { text: { type: 'plain_text', text: input.value }, value: input.dataset.value } });
      return;
    }
    var decide = target.closest('[data-decide]');
    if (decide) {
      const form = decide.closest('[data-request]');
      const limits = {};
      form.querySelectorAll('input[type=number]').forEach((i) => {
        limits[i.name] = Number(i.value);
      });
      sandboxPost(
        `limit-requests/${encodeURIComponent(form.dataset.request)}/${decide.dataset.decide}`,
        decide.dataset.decide === 'approve' ? { limits: limits } : {},
      ).then(drawSandbox);
      return;
    }
    var setBalance = target.closest('[data-set-balance]');
    if (setBalance) {
      const row = setBalance.closest('[data-account]');
      sandboxPost(`accounts/${encodeURIComponent(row.dataset.account)}/balance`, {
        available: Number(row.querySelector('input[name=available]').value),
      }).then(drawSandbox);
      return;
    }
    var block = target.closest('[data-block]');
    if (block) {
      const row = block.closest('[data-account]');
      sandboxPost(`accounts/${encodeURIComponent(row.dataset.account)}/withdraw-blocked`, { blocked: block.dataset.block === '1' }).then(
        drawSandbox,
      );
      return;
    }
    if (target.closest('[data-fail-next]')) {
      sandboxPost('payments/fail', { code: ui.failCode }).then(drawSandbox);
      return;
    }
    if (target.closest('[data-digest-now]')) {
      api('digest', {});
      return;
    }
    var withdraw = target.closest('[data-withdraw]');
    if (withdraw) {
      sandboxPost(`accounts/${encodeURIComponent(withdraw.dataset.withdraw)}/withdraw-key-api`, {
        enabled: withdraw.dataset.enabled === '1',
      }).then(drawSandbox);
      return;
    }
    if (target.closest('[data-dispute-open]')) {
      const df = $('#dispute-form');
      const body = {};
      ['type', 'value', 'reason'].forEach((k) => {
        var v = df.elements[k].value.trim();
        if (v) body[k] = k === 'value' ? Number(v) : v;
      });
      sandboxPost('disputes', body).then((r) => {
        if (r.status === 404) disputes.available = false;
        else if (r.status < 300) {
          const d = r.json.dispute || r.json;
          disputes.opened.unshift({ id: d.id, status: d.status });
        }
        drawDisputes();
      });
      return;
    }
    var dispute = target.closest('[data-dispute]');
    if (dispute) {
      sandboxPost(`disputes/${encodeURIComponent(dispute.dataset.dispute)}/decide`, { status: dispute.dataset.status }).then((r) => {
        if (r.status < 300) {
          disputes.opened.forEach((d) => {
            if (d.id === dispute.dataset.dispute) d.status = dispute.dataset.status;
          });
        }
        drawDisputes();
      });
      return;
    }
    if (target.closest('#sandbox-toggle')) {
      ui.sandboxOpen = !ui.sandboxOpen;
      ui.sandboxSeen = '';
      drawSandbox();
      return;
    }
    var found = elementOf(target);
    if (found && found.def.type === 'button') {
      e.preventDefault();
      if (found.def.url) window.open(found.def.url, '_blank', 'noopener');
      confirmFirst(found.def).then((yes) => {
        if (yes) act(found, { value: found.def.value, text: found.def.text });
      });
    }
  });

  document.addEventListener('change', (e) => {
    var target = e.target;
    if (target.id === 'persona') {
      ui.me = target.value;
      ui.thread = null;
      ui.state = null;
      clearPersonalOverlays();
      // The address names the persona: a reload comes back as them, to their own modals.
      params.set('as', ui.me);
      history.replaceState(null, '', `?${params}`);
      follow();
      return;
    }
    if (target.name === 'failCode' && target.closest('#sandbox-payments')) {
      ui.failCode = target.value;
      return;
    }
    if (target.id === 'attach') {
      Promise.all(Array.from(target.files).map(upload)).then((ups) => {
        ui.attached = ui.attached.concat(ups.map((u) => u.id));
        $('#attached').textContent = ui.attached.length ? `📎 ${ups.map((u) => u.file.name).join(', ')}` : '';
        target.value = '';
      });
      return;
    }
    var found = elementOf(target);
    if (!found) return;
    if (found.def.type === 'file_input') {
      const key = `${found.blockId}/${found.def.action_id}`;
      Promise.all(Array.from(target.files).map(upload)).then((ups) => {
        ui.modalFiles[key] = ups.map((u) => u.id);
        listFiles(target, ui.modalFiles[key]);
      });
      return;
    }
    var block = target.closest('.bk-input-block');
    // Elements of input blocks tell the app only when the block asks (dispatch_action).
    if (block && !block.dataset.dispatch) return;
    if (found.def.type === 'static_select' || found.def.type === 'overflow') {
      const option = findOption(found.def, target.value);
      if (!option) return;
      confirmFirst(found.def).then((yes) => {
        if (yes) act(found, { selected_option: option });
      });
    }
  });

  var typing = null;
  document.addEventListener('input', (e) => {
    var input = e.target;
    if (!input.classList.contains('bk-typeahead')) return;
    input.dataset.value = '';
    var holder = input.closest('.bk-external');
    var found = elementOf(holder);
    var container = holder.closest('[data-view-id]');
    if (!found || !container) return;
    var min = found.def.min_query_length === undefined ? 3 : found.def.min_query_length;
    clearTimeout(typing);
    if (input.value.length < min) {
      holder.querySelector('.bk-suggestions').innerHTML = '';
      return;
    }
    typing = setTimeout(() => {
      api('suggest', {
        user: ui.me,
        viewId: container.dataset.viewId,
        actionId: found.def.action_id,
        blockId: found.blockId,
        value: input.value,
      }).then((answer) => {
        var options = (answer.options || []).concat.apply(
          answer.options || [],
          (answer.option_groups || []).map((g) => g.options),
        );
        holder.querySelector('.bk-suggestions').innerHTML = options.length
          ? options.map((o) => `<button type="button" data-suggestion="${esc(o.value)}">${esc(o.text.text)}</button>`).join('')
          : '<span class="none">No matches</span>';
      });
    }, 150);
  });

  function send(box, threadTs) {
    var text = box.value.trim();
    if (!text && !ui.attached.length) return;
    box.value = '';
    var channel = conversation().id;
    var m = /^\/(\S+)\s*([\s\S]*)$/.exec(text);
    if (m && m[1] === 'pix') {
      api('command', { user: ui.me, channel: channel, text: m[2] });
      return;
    }
    if (m) {
      $('#composer-note').textContent = `/${m[1]} is not a valid command. This workspace has /pix.`;
      return;
    }
    $('#composer-note').textContent = '';
    api('say', { user: ui.me, channel: channel, text: text, thread_ts: threadTs, files: ui.attached });
    ui.attached = [];
    $('#attached').textContent = '';
  }

  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.shiftKey) return;
    if (e.target.id === 'composer') {
      e.preventDefault();
      send(e.target);
    } else if (e.target.id === 'thread-composer') {
      e.preventDefault();
      send(e.target, ui.thread);
    }
  });

  follow();
  drawSandbox();
})();
