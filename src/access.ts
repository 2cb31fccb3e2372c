import { ROLES_HIGH_FIRST, type Role } from './domain/roles';
import { withDeadline } from './runtime/deadline';

export interface AccessOptions {
  lists: Record<Role, string[]>;
  /** ACCESS_APPROVERS: who may approve others' actions (user or group IDs); empty: anyone with the role. */
  approvers?: string[];
  /** ACCESS_ESCALATION: whom an approval is escalated to (user or group IDs); empty: nobody. */
  escalation?: string[];
  /** In sandbox mode with no access list set, everyone is admin: there is no real money to protect. */
  sandboxMode: boolean;
  /** Members of a user group (`S…`), asked of Slack. */
  groupMembers: (groupId: string) => Promise<string[]>;
  /** How long a group's members are taken as they are (default five minutes). */
  groupTtlMs?: number;
  /**
   * How long a role check waits for Slack's answer on a group before it goes on with the last answer
   * it had (default 1 s): the check runs before every acknowledgement, and Slack waits three seconds.
   */
  groupWaitMs?: number;
  onGroupError?: (groupId: string, err: unknown) => void;
  now?: () => number;
}

interface GroupEntry {
  /** The last members Slack gave, and when. */
  known?: { members: Set<string>; at: number };
  /** The look-up under way, if any (one at a time per group). */
  pending?: Promise<Set<string>>;
}

/** Who may do what: roles from the ACCESS_* lists, user groups resolved through Slack and cached. */
export class AccessControl {
  private readonly groups = new Map<string, GroupEntry>();
  private readonly ttlMs: number;
  private readonly waitMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AccessOptions) {
    this.ttlMs = options.groupTtlMs ?? 5 * 60_000;
    this.waitMs = options.groupWaitMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** Whether any access list is set: with none, nobody is authorized (outside the sandbox). */
  get configured(): boolean {
    return Object.values(this.options.lists).some((ids) => ids.length > 0);
  }

  /**
   * The highest role the user has, listed directly or through any group (a viewer by name who is in
   * an admins' group is an admin). Groups are asked of Slack at once, not one after another.
   */
  async roleOf(userId: string, options: { fresh?: boolean } = {}): Promise<Role | undefined> {
    // The contract: "with no access lists configured nobody is authorized, except in sandbox mode, where
    // everyone is admin"; lists that are set hold in the sandbox too (the playground's personas).
    if (this.options.sandboxMode && !this.configured) return 'admin';
    for (const role of ROLES_HIGH_FIRST) {
      const ids = this.options.lists[role];
      if (ids.includes(userId)) return role;
      const groups = ids.filter((id) => id.startsWith('S'));
      if (groups.length === 0) continue;
      const members = await Promise.all(groups.map((id) => (options.fresh ? this.freshMembers(id) : this.members(id))));
      if (members.some((set) => set.has(userId))) return role;
    }
    return undefined;
  }

  /**
   * The user and group IDs a reminder calls on for an action needing `role`: ACCESS_APPROVERS, else
   * every list of a role that allows it.
   */
  approverIds(role: Role): string[] {
    const ids = this.approversListed
      ? (this.options.approvers ?? [])
      : ROLES_HIGH_FIRST.slice(0, ROLES_HIGH_FIRST.indexOf(role) + 1).flatMap((r) => this.options.lists[r]);
    return [...new Set(ids)];
  }

  /** ACCESS_ESCALATION's user and group IDs. */
  get escalationIds(): string[] {
    return [...new Set(this.options.escalation ?? [])];
  }

  /** Whether the user is in ACCESS_ESCALATION, by name or through a group. */
  inEscalation(userId: string, options: { fresh?: boolean } = {}): Promise<boolean> {
    return this.listed(this.options.escalation ?? [], userId, options);
  }

  /** Whether the user is among these IDs, by name or through a group (`fresh`: groups asked of Slack now). */
  async listed(ids: string[], userId: string, options: { fresh?: boolean } = {}): Promise<boolean> {
    if (ids.includes(userId)) return true;
    const groups = ids.filter((id) => id.startsWith('S'));
    if (groups.length === 0) return false;
    const members = await Promise.all(groups.map((id) => (options.fresh ? this.freshMembers(id) : this.members(id))));
    return members.some((set) => set.has(userId));
  }

  /** The users these IDs name, each group's members included (`fresh`: asked of Slack now; rejects when it does not answer). */
  async usersOf(ids: string[], options: { fresh?: boolean } = {}): Promise<string[]> {
    const users = ids.filter((id) => !id.startsWith('S'));
    const groups = ids.filter((id) => id.startsWith('S'));
    const members = await Promise.all(groups.map((id) => (options.fresh ? this.freshMembers(id) : this.members(id))));
    return [...new Set([...users, ...members.flatMap((set) => [...set])])];
  }

  /**
   * A group's members as Slack says now, not from the cache (a maker's standing before an approved
   * action runs); the answer refreshes the cache. Rejects when Slack does not answer.
   */
  private async freshMembers(groupId: string): Promise<Set<string>> {
    let entry = this.groups.get(groupId);
    if (!entry) {
      entry = {};
      this.groups.set(groupId, entry);
    }
    const members = new Set(await this.options.groupMembers(groupId));
    entry.known = { members, at: this.now() };
    return members;
  }

  /** Whether ACCESS_APPROVERS narrows who may approve. */
  get approversListed(): boolean {
    return (this.options.approvers ?? []).length > 0;
  }

  /**
   * Whether the user may approve (or reject) someone else's action, as far as ACCESS_APPROVERS goes:
   * listed by name or through a group, or anyone when the list is empty. The action's role is checked
   * apart. The list narrows approvers in sandbox mode too, where everyone is admin.
   */
  async mayApprove(userId: string, options: { fresh?: boolean } = {}): Promise<boolean> {
    const ids = this.options.approvers ?? [];
    return ids.length === 0 || this.listed(ids, userId, options);
  }

  /**
   * A group's members: the cached answer while it is fresh; else Slack's, waited for at most
   * `groupWaitMs`. When Slack fails or is slow, the last answer stands (none yet: nobody), and the
   * look-up goes on in the background for the next check.
   */
  private async members(groupId: string): Promise<Set<string>> {
    let entry = this.groups.get(groupId);
    if (!entry) {
      entry = {};
      this.groups.set(groupId, entry);
    }
    const { known } = entry;
    if (known && this.now() - known.at < this.ttlMs) return known.members;
    entry.pending ??= this.lookUp(groupId, entry);
    const lookup = entry.pending;
    return withDeadline(lookup, this.waitMs).catch(() => known?.members ?? new Set<string>());
  }

  private lookUp(groupId: string, entry: GroupEntry): Promise<Set<string>> {
    return this.options
      .groupMembers(groupId)
      .then((ids) => {
        const members = new Set(ids);
        entry.known = { members, at: this.now() };
        return members;
      })
      .catch((err: unknown) => {
        this.options.onGroupError?.(groupId, err);
        return entry.known?.members ?? new Set<string>();
      })
      .finally(() => {
        entry.pending = undefined;
      });
  }
}

/** IDs as Slack mentions (`<@U…>`, `<!subteam^S…>`), without `exceptUser`. */
export function mentionsOf(ids: string[], exceptUser?: string): string[] {
  return ids.filter((id) => id !== exceptUser).map((id) => (id.startsWith('S') ? `<!subteam^${id}>` : `<@${id}>`));
}
