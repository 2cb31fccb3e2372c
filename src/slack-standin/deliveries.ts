import { slackSignatureHeaders } from './signing';
import type { SlackStandIn } from './web-api';

/**
 * What Slack delivers to an app's Request URL (`/slack/events`), built as Slack builds it, and the
 * signed HTTP post that carries it. Shapes from https://docs.slack.dev/interactivity/handling-user-interaction
 * and https://docs.slack.dev/reference/interaction-payloads (block_actions, view_submission,
 * view_closed, block_suggestion, message_action) and https://docs.slack.dev/interactivity/implementing-slash-commands.
 */

export const TEAM = { id: 'T0FAKE', domain: 'fake' } as const;
export const API_APP_ID = 'A0PIXOPS';
export const BOT_USER_ID = 'U0BOT';
export const BOT_ID = 'B0BOT';

let counter = 0;
/** A fresh trigger id; Slack's are opaque strings, good once, for three seconds. */
export function newTriggerId(prefix = 'trigger'): string {
  return `${prefix}-${++counter}`;
}

const userOf = (userId: string) => ({ id: userId, username: userId.toLowerCase(), name: userId.toLowerCase(), team_id: TEAM.id });

/** The fields every interaction payload carries. */
export function interactionCommon(userId: string, triggerId = newTriggerId('trigger-i')) {
  return { team: { ...TEAM }, user: userOf(userId), api_app_id: API_APP_ID, token: 'legacy-verification-token', trigger_id: triggerId };
}

export interface SlashCommandInput {
  userId: string;
  text: string;
  channelId: string;
  channelName?: string;
  responseUrl: string;
  triggerId: string;
  command?: string;
}

/** A slash command's form body, as Slack posts it. */
export function slashCommandBody(input: SlashCommandInput): string {
  return new URLSearchParams({
    token: 'legacy-verification-token',
    team_id: TEAM.id,
    team_domain: TEAM.domain,
    channel_id: input.channelId,
    channel_name: input.channelName ?? 'finance',
    user_id: input.userId,
    user_name: input.userId.toLowerCase(),
    command: input.command ?? '/pix',
    text: input.text,
    api_app_id: API_APP_ID,
    response_url: input.responseUrl,
    trigger_id: input.triggerId,
  }).toString();
}

/** A modal as Slack sends it back: the view the app last set, with the user's input as state. */
export function submittedView(view: Record<string, unknown>, viewId: string, values: Record<string, Record<string, unknown>>) {
  return {
    id: viewId,
    team_id: TEAM.id,
    type: 'modal',
    hash: `hash-${++counter}`,
    root_view_id: viewId,
    app_id: API_APP_ID,
    bot_id: BOT_ID,
    ...view,
    state: { values },
  };
}

export function viewSubmissionPayload(userId: string, view: Record<string, unknown>, triggerId?: string) {
  return { type: 'view_submission', ...interactionCommon(userId, triggerId), view, response_urls: [] };
}

/** Sent when the user closes a modal whose `notify_on_close` is true. */
export function viewClosedPayload(userId: string, view: Record<string, unknown>) {
  const { team, user, api_app_id, token } = interactionCommon(userId);
  return { type: 'view_closed', team, user, api_app_id, token, view, is_cleared: false };
}

/** A click (button, select, overflow…) in a modal or the Home tab. */
export function viewBlockActionPayload(userId: string, view: Record<string, unknown>, action: Record<string, unknown>, triggerId?: string) {
  return {
    type: 'block_actions',
    ...interactionCommon(userId, triggerId),
    container: { type: 'view', view_id: view.id },
    view,
    actions: [{ action_ts: String(Date.now() / 1000), ...action }],
  };
}

export interface MessageActionInput {
  userId: string;
  channelId: string;
  channelName?: string;
  messageTs: string;
  isEphemeral: boolean;
  responseUrl: string;
  triggerId?: string;
  /** The message the element is on (Slack leaves it out for ephemeral messages). */
  message?: Record<string, unknown>;
  state?: Record<string, Record<string, unknown>>;
  action: Record<string, unknown>;
}

/** A click on an element of a message: a `block_actions` payload with a response_url. */
export function messageBlockActionPayload(input: MessageActionInput) {
  return {
    type: 'block_actions',
    ...interactionCommon(input.userId, input.triggerId),
    container: { type: 'message', message_ts: input.messageTs, channel_id: input.channelId, is_ephemeral: input.isEphemeral },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: input.channelId, name: input.channelName ?? 'finance' },
    ...(input.message ? { message: input.message } : {}),
    state: { values: input.state ?? {} },
    response_url: input.responseUrl,
    actions: [{ action_ts: String(Date.now() / 1000), block_id: 'block', ...input.action }],
  };
}

/** What Slack sends an external select's options load URL as the user types (`value`) in a modal. */
export function blockSuggestionPayload(
  userId: string,
  input: { actionId: string; blockId?: string; value: string; view?: Record<string, unknown> },
) {
  // Unlike other interactions, a block_suggestion carries no trigger_id.
  const { team, user, api_app_id, token } = interactionCommon(userId);
  return {
    type: 'block_suggestion',
    team,
    user,
    api_app_id,
    token,
    action_id: input.actionId,
    block_id: input.blockId ?? 'block',
    value: input.value,
    container: { type: 'view', view_id: input.view?.id ?? 'V0SUGGEST' },
    ...(input.view ? { view: input.view } : {}),
  };
}

/** A message shortcut, run on `message`. */
export function messageShortcutPayload(
  userId: string,
  input: {
    callbackId: string;
    channelId: string;
    channelName?: string;
    responseUrl: string;
    message: Record<string, unknown>;
    triggerId?: string;
  },
) {
  return {
    type: 'message_action',
    ...interactionCommon(userId, input.triggerId),
    callback_id: input.callbackId,
    action_ts: String(Date.now() / 1000),
    message_ts: input.message.ts,
    response_url: input.responseUrl,
    channel: { id: input.channelId, name: input.channelName ?? 'finance' },
    message: input.message,
  };
}

/** The Events API envelope of `app_home_opened` (the user opened the app's Home tab). */
export function appHomeOpenedEnvelope(userId: string, dmChannel: string, view?: Record<string, unknown>) {
  const eventTs = `${Math.floor(Date.now() / 1000)}.${String(++counter).padStart(6, '0')}`;
  return {
    token: 'legacy-verification-token',
    team_id: TEAM.id,
    api_app_id: API_APP_ID,
    event: { type: 'app_home_opened', user: userId, channel: dmChannel, tab: 'home', event_ts: eventTs, ...(view ? { view } : {}) },
    type: 'event_callback',
    event_id: `Ev${String(counter).padStart(8, '0')}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: TEAM.id, user_id: BOT_USER_ID, is_bot: true }],
  };
}

/** An interactivity payload as the form body Slack posts. */
export function interactionBody(payload: unknown): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export interface Delivered {
  status: number;
  /** The app's HTTP answer (the acknowledgement's body). */
  text: string;
  /** Slack would refuse the acknowledgement (see SlackStandIn.judgeAck): it is not shown. */
  refused: boolean;
}

/**
 * Posts deliveries to an app's `/slack/events`, signed with its signing secret. The acknowledgement
 * is a payload too, judged as Slack judges it (a response_action, a command's answer, options).
 */
export class SlackDeliveries {
  constructor(
    private readonly slack: SlackStandIn,
    readonly eventsUrl: string,
    private readonly signingSecret: string,
  ) {}

  async post(body: string, headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }): Promise<Delivered> {
    const res = await fetch(this.eventsUrl, {
      method: 'POST',
      body,
      headers: { ...headers, ...slackSignatureHeaders(body, this.signingSecret) },
    });
    const text = await res.text();
    const refused = res.ok && this.slack.judgeAck(body, text).length > 0;
    return { status: res.status, text, refused };
  }

  slash(input: SlashCommandInput): Promise<Delivered> {
    return this.post(slashCommandBody(input));
  }

  interaction(payload: unknown): Promise<Delivered> {
    return this.post(interactionBody(payload));
  }

  event(envelope: unknown): Promise<Delivered> {
    return this.post(JSON.stringify(envelope), { 'content-type': 'application/json' });
  }
}
