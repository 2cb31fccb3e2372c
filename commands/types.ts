import type { Role } from '../src/entry/access';
import type { Deps } from '../src/runtime/deps';
import type { ActionKey, Locale, SummaryKey } from '../src/i18n';
import type { SlackMessage } from '../views/message';

export interface CommandContext {
  deps: Deps;
  userId: string;
  channelId: string;
  triggerId: string;
  responseUrl: string;
  /** The words after the subcommand. */
  args: string[];
  role: Role | undefined;
  /** The caller's language (from their Slack locale): every answer, modal and audit message uses it. */
  locale: Locale;
  /** An ephemeral answer to the caller (through the command's response_url). */
  reply(message: SlackMessage): Promise<void>;
}

/** Wrong arguments: its message (already in the caller's language) goes before the usage line. */
export class UsageError extends Error {}

export interface CommandDef {
  /** The subcommand's words, e.g. `['limit', 'request']`. */
  path: string[];
  /** Its arguments as shown in help, e.g. `[accountId]`. */
  argsUsage: string;
  /** Its line in `/pix help` (`messages(locale).summaries`). */
  summary: SummaryKey;
  /** What it does, to finish "Could not …" when the Pix API fails (`messages(locale).actions`). */
  action: ActionKey;
  /** null: anyone. */
  role: Role | null;
  minArgs: number;
  maxArgs: number;
  /**
   * Instant commands answer in the acknowledgement itself (no I/O beyond the role); the others are
   * acknowledged at once and answer through `reply`.
   */
  instant?: boolean;
  /**
   * The answer to the caller (null when the command answers otherwise, e.g. with a modal); thrown
   * `UsageError`s and `PixApiError`s are answered by the router.
   */
  run(ctx: CommandContext): Promise<SlackMessage | null>;
}

export const usageOf = (cmd: CommandDef) => [...cmd.path, cmd.argsUsage].filter(Boolean).join(' ');
