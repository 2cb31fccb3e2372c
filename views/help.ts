import { ACCESS_VARIABLE, type Role } from '../src/access';
import { context, escapeMrkdwn, section, type SlackMessage } from './message';

export interface HelpEntry {
  usage: string;
  summary: string;
}

export function helpMessage(input: {
  userId: string;
  role: Role | undefined;
  accessConfigured: boolean;
  entries: HelpEntry[];
}): SlackMessage {
  if (!input.role) {
    const how = input.accessConfigured
      ? `Ask an admin to add your user ID \`${input.userId}\` to ${ACCESS_VARIABLE.viewer}, ${ACCESS_VARIABLE.operator} or ${ACCESS_VARIABLE.admin}.`
      : `No access is configured yet, so nobody can use it. Your user ID is \`${input.userId}\`: set ${ACCESS_VARIABLE.admin}=${input.userId} (or ${ACCESS_VARIABLE.operator} / ${ACCESS_VARIABLE.viewer}) in the bot's environment and restart it.`;
    return {
      text: `You have no role in Pix Ops yet. ${how}`,
      blocks: [section('*Pix Ops for Slack*\nYou have no role here yet.'), section(how)],
    };
  }
  const lines = input.entries.map((e) => `\`/pix ${escapeMrkdwn(e.usage)}\`  ${e.summary}`);
  return {
    text: `Pix Ops: what you can do as ${input.role}`,
    blocks: [
      section(`*Pix Ops for Slack*: what you can do as *${input.role}*`),
      section(lines.join('\n')),
      context('Amounts are in reais (R$ 1.234,56). `/pix help` shows this again.'),
    ],
  };
}

export function usageMessage(usage: string, problem?: string): SlackMessage {
  const text = `${problem ? `${problem} ` : ''}Usage: \`/pix ${escapeMrkdwn(usage)}\``;
  return { text, blocks: [section(text)] };
}

export function unknownCommandMessage(word: string, entries: HelpEntry[]): SlackMessage {
  const lines = entries.map((e) => `\`/pix ${escapeMrkdwn(e.usage)}\``);
  const text = `There is no \`/pix ${escapeMrkdwn(word)}\`. You can use:\n${lines.join('\n')}`;
  return { text, blocks: [section(text)] };
}

export function refusalMessage(input: { userId: string; needed: Role; what: string }): SlackMessage {
  const text = `You need the *${input.needed}* role to ${input.what}. Ask an admin to add your user ID \`${input.userId}\` to ${ACCESS_VARIABLE[input.needed]} (or a higher role). Nothing was done.`;
  return { text, blocks: [section(text)] };
}
