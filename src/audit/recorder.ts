import { describeError } from '../errors';
import type { PixCallEvent } from '../pix/client';
import type { Logger } from '../runtime/logger';
import { type AuditEntry, type AuditOutcome, type AuditTarget, buildEntry, maskedPixPath, targetText } from './entry';

export type AuditRole = AuditEntry['role'];

/** Who is acting, and through which entry point. */
export interface AuditActor {
  user: string;
  role: AuditRole;
  /** `/pix key delete`, `action:pix_key_delete_confirm`, … */
  action: string;
}

/** One entry to record; the acting user, role and entry point by default. */
export interface AuditInput {
  user?: string;
  role?: AuditRole;
  action?: string;
  target?: AuditTarget;
  pixMethod?: string;
  pixPath?: string;
  pixStatus?: number;
  maker?: string;
  checker?: string;
  outcome: AuditOutcome;
  detail?: string;
}

/** Where entries go: the store's trail (or nowhere, for the benchmark's baseline). */
export interface AuditSink {
  append(entry: AuditEntry): Promise<void>;
}

/**
 * The audit trail as handlers see it (`deps.audit`). Within a delivery it is that delivery's log:
 * the router records the entry point's use and its outcome, and every Pix call made on the user's
 * behalf, by itself; a handler only adds what the router cannot know. Outside a delivery (the app
 * acting on its own) only `record` does anything.
 */
export interface AuditLog {
  /** Names what the action is about (the account, request, application, key…), for its entry. */
  about(target: AuditTarget): void;
  /** The action is an approval's step: maker and checker go on this delivery's entries from now on. */
  approval(people: { maker: string; checker?: string }): void;
  /** The action's outcome when it is not what the router sees (`pending`, `approved`, `refused`…). */
  outcome(outcome: AuditOutcome, detail?: string): void;
  /** A word on the entry point's entry whatever its outcome, unless the outcome has one of its own (why no approval was needed). */
  note(detail: string): void;
  /** One more entry, now (never rejects: a failure to store it is logged). */
  record(input: AuditInput): Promise<void>;
  /** The log of one delivery, by `actor` (made by the router). */
  forDelivery(actor: AuditActor): DeliveryAudit;
}

interface Setup {
  sink: AuditSink;
  /** Replaces every secret the app knows (see SecretRegistry.scrub). */
  scrub: (text: string) => string;
  logger: Logger;
  now?: () => Date;
}

/** The app's own log: what no person's delivery is behind. */
export class AppAudit implements AuditLog {
  constructor(private readonly setup: Setup) {}

  about(): void {}
  approval(): void {}
  outcome(): void {}
  note(): void {}

  record(input: AuditInput & { user: string; role: AuditRole; action: string }): Promise<void> {
    return write(this.setup, input as AuditInput & AuditActor);
  }

  forDelivery(actor: AuditActor): DeliveryAudit {
    return new DeliveryAudit(this.setup, actor);
  }
}

/** The entry of an input, built (masked, scrubbed) and appended; a failure is logged, never thrown. */
async function write(setup: Setup, input: AuditInput & AuditActor): Promise<void> {
  const time = (setup.now?.() ?? new Date()).toISOString();
  // Built and stored after the I/O already waiting (Slack's other deliveries, their acknowledgements):
  // the trail is never what keeps a person waiting. Entries keep their order (setImmediate is FIFO).
  await new Promise<void>((resolve) => setImmediate(resolve));
  let entry: AuditEntry | undefined;
  try {
    entry = buildEntry(
      {
        time,
        user: input.user,
        role: input.role,
        action: input.action,
        target: input.target ? targetText(input.target) : undefined,
        pixMethod: input.pixMethod,
        pixPath: input.pixPath,
        pixStatus: input.pixStatus,
        maker: input.maker,
        checker: input.checker,
        outcome: input.outcome,
        detail: input.detail,
      },
      setup.scrub,
    );
    await setup.sink.append(entry);
  } catch (err) {
    // The entry (masked, no secret) goes to the log instead: it is not lost.
    setup.logger.error({ ...describeError(err), audit: entry }, 'could not store an audit entry');
  }
}

/**
 * The log of one delivery: its Pix calls are appended as they are answered, then `finish` appends
 * the entry point's own entry with its outcome and target (what the handler named, else what its
 * Pix calls were about).
 */
export class DeliveryAudit implements AuditLog {
  private named: AuditTarget = {};
  private readonly seen: AuditTarget = {};
  private people: { maker?: string; checker?: string } = {};
  private told: { outcome: AuditOutcome; detail?: string } | undefined;
  private noted: string | undefined;
  private lastCallFailed = false;
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly setup: Setup,
    private readonly actor: AuditActor,
  ) {}

  about(target: AuditTarget): void {
    this.named = { ...this.named, ...target };
  }

  approval(people: { maker: string; checker?: string }): void {
    this.people = { ...people };
  }

  outcome(outcome: AuditOutcome, detail?: string): void {
    this.told = { outcome, ...(detail ? { detail } : {}) };
  }

  note(detail: string): void {
    this.noted = detail;
  }

  record(input: AuditInput): Promise<void> {
    const done = write(this.setup, { ...this.actor, ...this.people, ...input });
    this.writes.add(done);
    void done.finally(() => this.writes.delete(done));
    return done;
  }

  forDelivery(actor: AuditActor): DeliveryAudit {
    return new DeliveryAudit(this.setup, actor);
  }

  /** A Pix call made on the actor's behalf (a listener of the Pix client: never throws, never waits). */
  pixCall(event: PixCallEvent): void {
    const about = event.about ?? {};
    for (const [k, v] of Object.entries(about) as Array<[keyof AuditTarget, string | undefined]>) {
      if (v && this.seen[k] === undefined) this.seen[k] = v;
    }
    const ok = event.status >= 200 && event.status < 300;
    this.lastCallFailed = !ok;
    void this.record({
      // What the handler named so far (the account whose AppID the call uses), then the call's own.
      target: { ...this.named, ...about },
      pixMethod: event.method,
      pixPath: maskedPixPath(event.path, about.pixKey),
      pixStatus: event.status,
      outcome: ok ? 'ok' : 'failed',
      ...(event.attempt > 1 ? { detail: `attempt ${event.attempt}` } : {}),
    });
  }

  /**
   * The entry point's own entry, once it is done: the outcome the handler told, else `seen` (what
   * the router saw: `ok` becomes `failed` when the last Pix call failed, even if the handler told
   * the person so itself). Waits for every entry of this delivery to be stored.
   */
  async finish(seen: { outcome: AuditOutcome; detail?: string }): Promise<void> {
    const auto = seen.outcome === 'ok' && this.lastCallFailed ? { outcome: 'failed' as const } : seen;
    const { outcome, detail = this.noted } = this.told && seen.outcome === 'ok' ? this.told : auto;
    void this.record({ target: { ...this.seen, ...this.named }, outcome, ...(detail ? { detail } : {}) });
    await Promise.all([...this.writes]);
  }
}
