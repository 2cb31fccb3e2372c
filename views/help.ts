import { ACCESS_VARIABLE, type Role } from '../src/domain/roles';
import { type Locale, messages } from '../src/i18n';
import { context, escapeClipped, escapeMrkdwn, type SlackMessage, section, sections } from './message';

export interface HelpEntry {
  usage: string;
  /** Already in the reader's language. */
  summary: string;
}

export function helpMessage(
  locale: Locale,
  input: {
    userId: string;
    role: Role | undefined;
    accessConfigured: boolean;
    entries: HelpEntry[];
  },
): SlackMessage {
  const m = messages(locale);
  if (!input.role) {
    const vars = { userId: input.userId, viewer: ACCESS_VARIABLE.viewer, operator: ACCESS_VARIABLE.operator, admin: ACCESS_VARIABLE.admin };
    const how = input.accessConfigured ? m.help.askAdmin(vars) : m.help.noAccessConfigured(vars);
    return {
      text: m.help.noRoleText(how),
      blocks: [section(m.help.noRoleTitle), section(how)],
    };
  }
  const role = m.common.role(input.role);
  const lines = input.entries.map((e) => `\`/pix ${escapeMrkdwn(e.usage)}\`  ${e.summary}`);
  return {
    text: m.help.whatYouCanDoText(role),
    blocks: [section(m.help.whatYouCanDo(role)), ...sections(lines), context(m.help.footer)],
  };
}

export function usageMessage(locale: Locale, usage: string, problem?: string): SlackMessage {
  const text = messages(locale).help.usage({ usage: escapeMrkdwn(usage), ...(problem ? { problem } : {}) });
  return { text, blocks: [section(text)] };
}

export function unknownCommandMessage(locale: Locale, word: string, entries: HelpEntry[]): SlackMessage {
  const lines = entries.map((e) => `\`/pix ${escapeMrkdwn(e.usage)}\``);
  // The word as typed (a slash command's text can be thousands of characters), cut short.
  const text = messages(locale).help.unknownCommand({ word: escapeClipped(word, 50), lines: lines.join('\n') });
  return { text, blocks: [section(text)] };
}

/** `what`: an infinitive phrase in the reader's language (`messages(locale).actions`, `help.useCommand`). */
export function refusalMessage(locale: Locale, input: { userId: string; needed: Role; what: string }): SlackMessage {
  const m = messages(locale);
  const text = m.help.refusal({
    role: m.common.role(input.needed),
    what: input.what,
    userId: input.userId,
    variable: ACCESS_VARIABLE[input.needed],
  });
  return { text, blocks: [section(text)] };
}
