import type { Role } from '../src/access';
import type { Deps } from '../src/deps';
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
  /** An ephemeral answer to the caller (through the command's response_url). */
  reply(message: SlackMessage): Promise<void>;
}

export class UsageError extends Error {}

export interface CommandDef {
  /** The subcommand's words, e.g. `['limit', 'request']`. */
  path: string[];
  /** Its arguments as shown in help, e.g. `[accountId]`. */
  argsUsage: string;
  summary: string;
  /** What it does, to finish "Could not …" when the Pix API fails, e.g. `read the limits`. */
  action: string;
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
