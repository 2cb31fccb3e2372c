import { ROLES_HIGH_FIRST, type Role } from '../domain/roles';

export interface AccessOptions {
  lists: Record<Role, string[]>;
  /** In sandbox mode everyone is admin: there is no real money to protect. */
  sandboxMode: boolean;
  /** Members of a user group (`S…`), asked of Slack. */
  groupMembers: (groupId: string) => Promise<string[]>;
  groupTtlMs?: number;
  onGroupError?: (groupId: string, err: unknown) => void;
  now?: () => number;
}

/** Who may do what: roles from the ACCESS_* lists, user groups resolved through Slack and cached. */
export class AccessControl {
  private readonly groups = new Map<string, { members: Promise<Set<string>>; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AccessOptions) {
    this.ttlMs = options.groupTtlMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Whether any access list is set: with none, nobody is authorized (outside the sandbox). */
  get configured(): boolean {
    return Object.values(this.options.lists).some((ids) => ids.length > 0);
  }

  async roleOf(userId: string): Promise<Role | undefined> {
    if (this.options.sandboxMode) return 'admin';
    for (const role of ROLES_HIGH_FIRST) {
      if (this.options.lists[role].includes(userId)) return role;
    }
    for (const role of ROLES_HIGH_FIRST) {
      for (const id of this.options.lists[role]) {
        if (id.startsWith('S') && (await this.members(id)).has(userId)) return role;
      }
    }
    return undefined;
  }

  private members(groupId: string): Promise<Set<string>> {
    const cached = this.groups.get(groupId);
    if (cached && cached.expiresAt > this.now()) return cached.members;
    const members = this.options
      .groupMembers(groupId)
      .then((ids) => new Set(ids))
      .catch((err) => {
        // Not cached: the next check asks Slack again instead of locking people out for minutes.
        this.groups.delete(groupId);
        this.options.onGroupError?.(groupId, err);
        return new Set<string>();
      });
    this.groups.set(groupId, { members, expiresAt: this.now() + this.ttlMs });
    return members;
  }
}
