import { EventEmitter } from 'node:events';
import {
  API_APP_ID,
  appHomeOpenedEnvelope,
  BOT_ID,
  BOT_USER_ID,
  blockSuggestionPayload,
  messageBlockActionPayload,
  messageShortcutPayload,
  newTriggerId,
  type SlackDeliveries,
  slashCommandBody,
  submittedView,
  TEAM,
  viewBlockActionPayload,
  viewClosedPayload,
  viewSubmissionPayload,
} from './deliveries';
import type { SlackStandInUploads } from './uploads';
import type { ResponseUrlCall, SlackApiCall, SlackStandIn, StoredMessage } from './web-api';

/**
 * A Slack workspace on top of the stand-in, as a person sees it: one channel, a DM with the bot per
 * person, the Home tab, modals, ephemeral messages. It turns what a person does (a command typed, a
 * click, a submission) into Slack's deliveries to the app, and what the app calls back into what the
 * person sees. The app cannot tell it from Slack: it only meets the Web API and signed deliveries.
 */

/** Slack keeps a stack of at most three views per modal (https://docs.slack.dev/surfaces/modals). */
const MAX_VIEW_STACK = 3;
/** What a long-running workspace keeps of the stand-in's logs of calls and response_url posts (the app never reads them). */
const KEPT_CALLS = 2_000;
/** Triggers live three seconds in Slack (https://docs.slack.dev/interactivity/handling-user-interaction). */
const TRIGGER_TTL_MS = 3_000;

export interface View extends Record<string, unknown> {
  id: string;
  hash: string;
}

/** A message only one person sees ("Only visible to you"). */
export interface Ephemeral {
  id: string;
  ts: string;
  channel: string;
  user: string;
  text?: string;
  blocks?: unknown;
  thread_ts?: string;
}

/** A payload Slack would refuse, shown on the page instead of being rendered. */
export interface ShownRefusal {
  at: number;
  where: string;
  problems: string[];
}

/** What a response_url was given for: who, where, and the message the element sat on (if any). */
interface ResponseTarget {
  user: string;
  channel: string;
  thread_ts?: string;
  source?: { kind: 'ephemeral'; id: string } | { kind: 'message'; ts: string };
}

export type MessageRef = { kind: 'ephemeral'; id: string } | { kind: 'message'; channel: string; ts: string };

export interface WorkspaceOptions {
  slack: SlackStandIn;
  uploads: SlackStandInUploads;
  deliveries: SlackDeliveries;
  channel: { id: string; name: string };
  /** The people of the workspace by their handle (`@abel`): a command names them as Slack sends a mention. */
  people?: ReadonlyArray<{ id: string; handle: string }>;
}

export class SlackWorkspace {
  /** `change`: something a person sees changed (the page fetches its view again). */
  readonly events = new EventEmitter();
  readonly refusals: ShownRefusal[] = [];
  private readonly slack: SlackStandIn;
  private readonly uploads: SlackStandInUploads;
  private readonly deliveries: SlackDeliveries;
  private readonly channel: { id: string; name: string };
  private readonly people: ReadonlyArray<{ id: string; handle: string }>;
  private readonly triggers = new Map<string, { user: string; at: number }>();
  private readonly responseTargets = new Map<string, ResponseTarget>();
  private readonly ephemerals: Ephemeral[] = [];
  private readonly stacks = new Map<string, View[]>();
  private readonly homes = new Map<string, View>();
  private counter = 0;
  version = 0;

  constructor(options: WorkspaceOptions) {
    this.slack = options.slack;
    this.uploads = options.uploads;
    this.deliveries = options.deliveries;
    this.channel = options.channel;
    this.people = options.people ?? [];
    this.slack.on('views.open', (args) => this.viewsOpen(args));
    this.slack.on('views.push', (args) => this.viewsPush(args));
    this.slack.on('views.update', (args) => this.viewsUpdate(args));
    this.slack.on('views.publish', (args) => this.viewsPublish(args));
    this.slack.on('chat.postEphemeral', (args) => this.postEphemeral(args));
    // Like Slack: a message posted to a user ID goes to their DM with the bot.
    this.slack.on('chat.postMessage', (args) =>
      this.slack.answerByDefault(
        'chat.postMessage',
        /^[UW]/.test(String(args.channel)) ? { ...args, channel: this.dmOf(String(args.channel)) } : args,
      ),
    );
    this.slack.events.on('call', (call: SlackApiCall) => this.afterCall(call));
    this.slack.events.on('response', (r: ResponseUrlCall) => this.onResponse(r));
    this.slack.events.on('refusal', () => {
      for (const r of this.slack.takeRefusals()) this.refusals.push({ at: Date.now(), where: r.where, problems: r.problems });
      this.refusals.splice(0, Math.max(0, this.refusals.length - 20));
      this.changed();
    });
  }

  get channelId(): string {
    return this.channel.id;
  }

  /**
   * A command's text as Slack sends it for a command whose manifest says `should_escape: true` (the
   * app's `/pix` does): `&`, `<` and `>` escaped, and a person's handle (`@abel`) as a mention,
   * `<@U…|abel>` (https://docs.slack.dev/interactivity/implementing-slash-commands#app_command_handling).
   */
  private escapedCommandText(text: string): string {
    const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return escaped.replace(/(^|\s)@([a-z0-9._-]+)/gi, (whole, before: string, handle: string) => {
      const person = this.people.find((p) => p.handle.toLowerCase() === handle.toLowerCase());
      return person ? `${before}<@${person.id}|${person.handle}>` : whole;
    });
  }

  /** The DM between the bot and `user`, as conversations.open names it. */
  dmOf(user: string): string {
    return `D${user.replace(/^[UW]/, '')}`;
  }

  /** What `user` sees: the channel, their DM, their ephemerals, Home tab and modals. */
  viewOf(user: string) {
    const dm = this.dmOf(user);
    return {
      version: this.version,
      user,
      channel: { ...this.channel, messages: this.messagesIn(this.channel.id) },
      dm: { id: dm, messages: this.messagesIn(dm) },
      ephemerals: this.ephemerals.filter((e) => e.user === user),
      home: this.homes.get(user),
      modals: [...(this.stacks.get(user) ?? [])],
      refusals: this.refusals,
    };
  }

  /** A message typed in the channel or the DM (a person's, not the bot's); `files` are file ids. */
  say(user: string, input: { channel: string; text: string; thread_ts?: string; files?: string[] }): StoredMessage {
    const files = (input.files ?? []).filter((id) => this.slack.files.has(id)).map((id) => this.slack.fileObject(id));
    const message = this.slack.addMessage({
      channel: input.channel,
      user,
      text: input.text,
      thread_ts: input.thread_ts,
      ...(files.length ? { files } : {}),
    });
    this.changed();
    return message;
  }

  /** A file a person uploads (to share it, or through a modal's file input); its id. */
  addFile(name: string, mimetype: string, bytes: Buffer): string {
    const id = `F0PG${String(++this.counter).padStart(6, '0')}`;
    this.slack.addFile({ id, name, mimetype, bytes });
    return id;
  }

  /** `/pix <text>` typed by `user` in `channel`: the acknowledgement's message is shown to them alone. */
  async command(user: string, channel: string, text: string, thread_ts?: string): Promise<void> {
    const responseUrl = this.responseUrlFor({ user, channel, thread_ts });
    const triggerId = this.trigger(user);
    const ack = await this.deliveries.post(
      slashCommandBody({
        userId: user,
        text: this.escapedCommandText(text),
        channelId: channel,
        channelName: this.channelName(channel),
        responseUrl,
        triggerId,
      }),
    );
    if (ack.status !== 200) return this.deliveryFailed(`/pix ${text}`, ack.status);
    const body = parseJson(ack.text) as Record<string, unknown> | undefined;
    if (!body || !(body.text || body.blocks) || ack.refused) return;
    if (body.response_type === 'in_channel') {
      this.slack.addMessage({
        channel,
        thread_ts,
        text: body.text as string | undefined,
        blocks: body.blocks,
        user: BOT_USER_ID,
        bot_id: BOT_ID,
      });
      this.changed();
    } else {
      this.addEphemeral({ channel, user, text: body.text as string, blocks: body.blocks, thread_ts });
    }
  }

  /** A click on a message's (or an ephemeral's) element. */
  async clickInMessage(
    user: string,
    ref: MessageRef,
    action: Record<string, unknown>,
    state?: Record<string, Record<string, unknown>>,
  ): Promise<void> {
    let channel: string;
    let ts: string;
    let message: Record<string, unknown> | undefined;
    if (ref.kind === 'ephemeral') {
      const e = this.ephemerals.find((x) => x.id === ref.id && x.user === user);
      if (!e) return;
      channel = e.channel;
      ts = e.ts;
    } else {
      const m = this.slack.messages.find((x) => x.channel === ref.channel && x.ts === ref.ts);
      if (!m) return;
      channel = m.channel;
      ts = m.ts;
      message = this.wireMessage(m);
    }
    const responseUrl = this.responseUrlFor({ user, channel, source: ref.kind === 'ephemeral' ? ref : { kind: 'message', ts } });
    const payload = messageBlockActionPayload({
      userId: user,
      channelId: channel,
      channelName: this.channelName(channel),
      messageTs: ts,
      isEphemeral: ref.kind === 'ephemeral',
      responseUrl,
      triggerId: this.trigger(user),
      message,
      state,
      action,
    });
    const ack = await this.deliveries.interaction(payload);
    if (ack.status !== 200) this.deliveryFailed('a click', ack.status);
  }

  /** A click on an element of a modal or of the Home tab (`viewId`), with the inputs' state so far. */
  async clickInView(
    user: string,
    viewId: string,
    action: Record<string, unknown>,
    values: Record<string, Record<string, unknown>> = {},
  ): Promise<void> {
    const view = this.findView(user, viewId);
    if (!view) return;
    const ack = await this.deliveries.interaction(viewBlockActionPayload(user, this.withState(view, values), action, this.trigger(user)));
    if (ack.status !== 200) this.deliveryFailed('a click', ack.status);
  }

  /**
   * The top modal submitted with these values (file inputs give file ids, made into Slack's file
   * objects here). The app's answer: inline errors (returned), an updated or pushed view, or the modal closed.
   */
  async submit(
    user: string,
    viewId: string,
    values: Record<string, Record<string, unknown>>,
  ): Promise<{ errors?: Record<string, string> }> {
    const stack = this.stacks.get(user) ?? [];
    const view = stack.find((v) => v.id === viewId);
    if (!view) return {};
    const ack = await this.deliveries.interaction(
      viewSubmissionPayload(user, this.withState(view, this.withFiles(values)), this.trigger(user)),
    );
    if (ack.status !== 200) {
      this.deliveryFailed('a submission', ack.status);
      return {};
    }
    if (ack.refused) return {};
    const body = parseJson(ack.text) as
      | { response_action?: string; view?: Record<string, unknown>; errors?: Record<string, string> }
      | undefined;
    const at = stack.indexOf(view);
    switch (body?.response_action) {
      case 'errors':
        return { errors: body.errors ?? {} };
      case 'update':
        if (at >= 0) stack[at] = this.storeView({ ...body.view, id: view.id });
        break;
      case 'push':
        if (stack.length < MAX_VIEW_STACK) stack.push(this.storeView(body.view ?? {}));
        break;
      case 'clear':
        stack.length = 0;
        break;
      default:
        if (at >= 0) stack.splice(at, 1);
    }
    this.changed();
    return {};
  }

  /** The modal closed with its ✕ or Cancel: Slack tells the app when the view asked (`notify_on_close`). */
  async closeView(user: string, viewId: string): Promise<void> {
    const stack = this.stacks.get(user) ?? [];
    const at = stack.findIndex((v) => v.id === viewId);
    if (at < 0) return;
    const [view] = stack.splice(at, 1);
    this.changed();
    if (view?.notify_on_close) await this.deliveries.interaction(viewClosedPayload(user, view));
  }

  /** What an external select offers for `value` typed so far (the app's options, or option groups). */
  async suggest(user: string, viewId: string, input: { actionId: string; blockId: string; value: string }): Promise<unknown> {
    const view = this.findView(user, viewId);
    const ack = await this.deliveries.interaction(blockSuggestionPayload(user, { ...input, view }));
    if (ack.status !== 200 || ack.refused) return { options: [] };
    return parseJson(ack.text) ?? { options: [] };
  }

  /** A message shortcut run on a message of the channel or the DM. */
  async shortcut(user: string, callbackId: string, channel: string, ts: string): Promise<void> {
    const m = this.slack.messages.find((x) => x.channel === channel && x.ts === ts);
    if (!m) return;
    const responseUrl = this.responseUrlFor({ user, channel });
    const payload = messageShortcutPayload(user, {
      callbackId,
      channelId: channel,
      channelName: this.channelName(channel),
      responseUrl,
      message: this.wireMessage(m),
      triggerId: this.trigger(user),
    });
    const ack = await this.deliveries.interaction(payload);
    if (ack.status !== 200) this.deliveryFailed('a shortcut', ack.status);
  }

  /** The person opened the Home tab. */
  async openHome(user: string): Promise<void> {
    const ack = await this.deliveries.event(appHomeOpenedEnvelope(user, this.dmOf(user), this.homes.get(user)));
    if (ack.status !== 200) this.deliveryFailed('the Home tab', ack.status);
  }

  private changed(): void {
    this.version++;
    this.events.emit('change', this.version);
  }

  private channelName(channel: string): string {
    return channel === this.channel.id ? this.channel.name : 'directmessage';
  }

  /** Top-level messages and replies (the page groups them), with their files. */
  private messagesIn(channel: string) {
    return this.slack.messages.filter((m) => m.channel === channel).map((m) => this.wireMessage(m));
  }

  /** A message as Slack's payloads and history give it. */
  private wireMessage(m: StoredMessage): Record<string, unknown> {
    const { metadata: _metadata, ...rest } = m;
    return { type: 'message', ...rest, ...(m.bot_id ? { app_id: API_APP_ID } : {}), team: TEAM.id };
  }

  private trigger(user: string): string {
    const id = newTriggerId('trigger-pg');
    const now = Date.now();
    for (const [k, t] of this.triggers) if (now - t.at > TRIGGER_TTL_MS) this.triggers.delete(k);
    this.triggers.set(id, { user, at: now });
    return id;
  }

  private responseUrlFor(target: ResponseTarget): string {
    const id = `pg-${++this.counter}`;
    this.responseTargets.set(id, target);
    return this.slack.responseUrl(id);
  }

  private deliveryFailed(what: string, status: number): void {
    this.refusals.push({ at: Date.now(), where: what, problems: [`the app answered HTTP ${status} (Slack would show "dispatch_failed")`] });
    this.changed();
  }

  private addEphemeral(e: Omit<Ephemeral, 'id' | 'ts'>): Ephemeral {
    const ephemeral: Ephemeral = { ...e, id: `E${++this.counter}`, ts: this.ts() };
    this.ephemerals.push(ephemeral);
    this.changed();
    return ephemeral;
  }

  private ts(): string {
    return `${Math.floor(Date.now() / 1000)}.${String(++this.counter % 1_000_000).padStart(6, '0')}`;
  }

  private storeView(view: Record<string, unknown>, id?: string): View {
    return {
      ...view,
      id: id ?? (typeof view.id === 'string' ? view.id : `V0PG${++this.counter}`),
      hash: `h${++this.counter}`,
      team_id: TEAM.id,
      app_id: API_APP_ID,
      bot_id: BOT_ID,
      state: { values: {} },
    };
  }

  private findView(user: string, viewId: string): View | undefined {
    return (
      (this.stacks.get(user) ?? []).find((v) => v.id === viewId) ?? (this.homes.get(user)?.id === viewId ? this.homes.get(user) : undefined)
    );
  }

  private withState(view: View, values: Record<string, Record<string, unknown>>): Record<string, unknown> {
    return submittedView(view, view.id, values);
  }

  private withFiles(values: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const [block, actions] of Object.entries(values)) {
      out[block] = {};
      for (const [action, value] of Object.entries(actions)) {
        const v = value as { type?: string; files?: string[] };
        out[block]![action] =
          v.type === 'file_input'
            ? { type: 'file_input', files: (v.files ?? []).filter((id) => this.slack.files.has(id)).map((id) => this.slack.fileObject(id)) }
            : value;
      }
    }
    return out;
  }

  private userOfTrigger(triggerId: unknown): string | undefined {
    const t = this.triggers.get(String(triggerId));
    if (!t || Date.now() - t.at > TRIGGER_TTL_MS) return undefined;
    this.triggers.delete(String(triggerId));
    return t.user;
  }

  private viewsOpen(args: Record<string, unknown>): unknown {
    const user = this.userOfTrigger(args.trigger_id);
    if (!user) return { ok: false, error: 'invalid_trigger_id' };
    const view = this.storeView(args.view as Record<string, unknown>);
    this.stacks.set(user, [view]);
    this.changed();
    return { ok: true, view };
  }

  private viewsPush(args: Record<string, unknown>): unknown {
    const user = this.userOfTrigger(args.trigger_id);
    if (!user) return { ok: false, error: 'invalid_trigger_id' };
    const stack = this.stacks.get(user) ?? [];
    if (stack.length === 0) return { ok: false, error: 'not_found' };
    if (stack.length >= MAX_VIEW_STACK) return { ok: false, error: 'push_limit_reached' };
    const view = this.storeView(args.view as Record<string, unknown>);
    stack.push(view);
    this.changed();
    return { ok: true, view };
  }

  private viewsUpdate(args: Record<string, unknown>): unknown {
    const viewId = String(args.view_id ?? '');
    for (const stack of this.stacks.values()) {
      const at = stack.findIndex((v) => v.id === viewId || (args.external_id !== undefined && v.external_id === args.external_id));
      if (at < 0) continue;
      // Like Slack: an update made from a view that changed since is refused (https://docs.slack.dev/reference/methods/views.update).
      if (args.hash !== undefined && args.hash !== stack[at]!.hash) return { ok: false, error: 'hash_conflict' };
      const view = this.storeView(args.view as Record<string, unknown>, stack[at]!.id);
      stack[at] = view;
      this.changed();
      return { ok: true, view };
    }
    for (const [user, home] of this.homes) {
      if (home.id !== viewId) continue;
      if (args.hash !== undefined && args.hash !== home.hash) return { ok: false, error: 'hash_conflict' };
      const view = this.storeView(args.view as Record<string, unknown>, home.id);
      this.homes.set(user, view);
      this.changed();
      return { ok: true, view };
    }
    // Like Slack: a modal that was closed cannot be updated any more.
    return { ok: false, error: 'not_found' };
  }

  private viewsPublish(args: Record<string, unknown>): unknown {
    const user = String(args.user_id);
    const view = this.storeView(args.view as Record<string, unknown>, this.homes.get(user)?.id);
    this.homes.set(user, view);
    this.changed();
    return { ok: true, view };
  }

  private postEphemeral(args: Record<string, unknown>): unknown {
    const e = this.addEphemeral({
      channel: String(args.channel),
      user: String(args.user),
      text: args.text as string | undefined,
      blocks: args.blocks,
      thread_ts: args.thread_ts as string | undefined,
    });
    return { ok: true, message_ts: e.ts };
  }

  private afterCall(call: SlackApiCall): void {
    if (this.slack.calls.length > KEPT_CALLS) this.slack.calls.splice(0, this.slack.calls.length - KEPT_CALLS);
    const answer = call.response as { ok?: boolean } | undefined;
    if (!answer?.ok) return;
    if (call.method === 'files.completeUploadExternal') this.shareUploads(call.args);
    if (['chat.postMessage', 'chat.update', 'chat.delete', 'files.completeUploadExternal'].includes(call.method)) this.changed();
  }

  /** Files the app shared with files.uploadV2: a message of the bot carrying them, in the channel (or thread) given. */
  private shareUploads(args: Record<string, unknown>): void {
    const channel = args.channel_id === undefined ? undefined : String(args.channel_id);
    if (!channel) return;
    const ids = ((Array.isArray(args.files) ? args.files : []) as Array<{ id: string }>).map((f) => f.id);
    const files = ids.flatMap((id) => {
      const u = this.uploads.uploads.get(id);
      if (!u?.bytes) return [];
      this.slack.addFile({ id, name: u.filename, mimetype: mimeOf(u.filename), bytes: u.bytes });
      return [this.slack.fileObject(id)];
    });
    this.slack.addMessage({
      channel,
      thread_ts: args.thread_ts === undefined ? undefined : String(args.thread_ts),
      text: args.initial_comment === undefined ? '' : String(args.initial_comment),
      user: BOT_USER_ID,
      bot_id: BOT_ID,
      files,
    });
  }

  /** A post to a response_url: a new ephemeral (or channel) message, or the original replaced or deleted. */
  private onResponse(r: ResponseUrlCall): void {
    if (this.slack.responses.length > KEPT_CALLS) this.slack.responses.splice(0, this.slack.responses.length - KEPT_CALLS);
    const target = this.responseTargets.get(r.id);
    if (!target) return;
    const body = r.body as {
      text?: string;
      blocks?: unknown;
      response_type?: string;
      replace_original?: boolean | string;
      delete_original?: boolean | string;
    };
    const flag = (v: unknown) => v === true || v === 'true';
    const source = target.source;
    if (flag(body.delete_original) && source) {
      const list: Array<{ id?: string; ts: string; channel: string }> = source.kind === 'ephemeral' ? this.ephemerals : this.slack.messages;
      const at = list.findIndex((m) =>
        source.kind === 'ephemeral' ? m.id === source.id : m.channel === target.channel && m.ts === source.ts,
      );
      if (at >= 0) list.splice(at, 1);
    } else if (flag(body.replace_original) && source) {
      const found =
        source.kind === 'ephemeral'
          ? this.ephemerals.find((e) => e.id === source.id)
          : this.slack.messages.find((m) => m.channel === target.channel && m.ts === source.ts);
      if (found) Object.assign(found, { text: body.text, blocks: body.blocks });
    } else if (body.response_type === 'in_channel') {
      this.slack.addMessage({
        channel: target.channel,
        thread_ts: target.thread_ts,
        text: body.text,
        blocks: body.blocks,
        user: BOT_USER_ID,
        bot_id: BOT_ID,
      });
    } else {
      this.addEphemeral({ channel: target.channel, user: target.user, text: body.text, blocks: body.blocks, thread_ts: target.thread_ts });
      return;
    }
    this.changed();
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function mimeOf(name: string): string {
  const ext = name.split('.').pop()?.toLowerCase();
  return (
    (
      {
        csv: 'text/csv',
        pdf: 'application/pdf',
        png: 'image/png',
        jpg: 'image/jpeg',
        jpeg: 'image/jpeg',
        txt: 'text/plain',
        json: 'application/json',
      } as Record<string, string>
    )[ext ?? ''] ?? 'application/octet-stream'
  );
}
