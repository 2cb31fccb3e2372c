import type { AccessControl } from './access';
import type { AuditLog } from './audit/recorder';
import type { ApprovalAction } from './domain/approvals';
import type { KeyChecks } from './payments/key-check';
import type { PixClient } from './pix/client';
import type { Logger, SecretRegistry } from './runtime/logger';
import type { Metrics } from './runtime/metrics';
import type { SlackClients } from './slack/clients';
import type { Store } from './store';

/** Four-eyes approvals as configured (APPROVALS, APPROVAL_TTL; ACCESS_APPROVERS is the access control's). */
export interface ApprovalSettings {
  /** The actions that wait for a second person; empty: every action runs at once. */
  actions: ReadonlySet<ApprovalAction>;
  ttlMs: number;
  /** How long an approval is held while it runs; if its instance dies, the poller's tick resumes it after this. */
  claimTtlMs: number;
  /** APPROVAL_REMIND_AFTER: the interval of a pending approval's reminders; 0: none. */
  remindAfterMs: number;
  /** APPROVAL_LIMIT_ABOVE, in cents: a limit request needs approval only when a requested field is above it. */
  limitAboveCents?: number;
  /** APPROVAL_QUORUM_ABOVE, in cents: a limit request with a requested field above it needs two checkers. */
  quorumAboveCents?: number;
  /** APPROVAL_QUORUM_ACTIONS: the actions that always need two checkers. */
  quorumActions: ReadonlySet<ApprovalAction>;
  /**
   * APPROVAL_ESCALATE_AFTER: how long a pending approval waits before it is escalated (ACCESS_ESCALATION
   * is the access control's); unset: never.
   */
  escalateAfterMs?: number;
  /** PAY_DAY_LIMIT, in cents: the most payments and withdrawals send together in one São Paulo day; unset: none. */
  payDayLimitCents?: number;
}

/** The morning digest and the balance alerts as configured (DIGEST_CHANNEL, BALANCE_ALERT_BELOW). */
export interface DigestSettings {
  /** Where the scheduled digest is posted; unset: no scheduled digest (`/pix digest` still works). */
  channel?: string;
  /** BALANCE_ALERT_BELOW in cents: the digest lists the accounts below it, and each crossing is alerted. */
  belowCents?: number;
}

/** What the entry points work with; built once at start. */
export interface Deps {
  pix: PixClient;
  store: Store;
  access: AccessControl;
  logger: Logger;
  /** AppID of the company's main application (PIX_APP_ID, or the sandbox's). */
  mainAppId: string;
  /** This instance's recent key checks and reading of the company's look-up tokens (the payment form's). */
  keyChecks: KeyChecks;
  /** Every way to reach Slack (through SLACK_API_URL when set), each client named for what it promises. */
  slack: SlackClients;
  /** For downloading files users share (url_private_download needs it as a Bearer token). */
  botToken: string;
  /** The app's Prometheus series (runtime/metrics.ts): served on the health listener. */
  metrics: Metrics;
  masterAppId?: string;
  /** Secrets learnt at run time (new AppIDs, client secrets) go here, so no log line ever shows them. */
  secrets: SecretRegistry;
  sandboxMode: boolean;
  /** PIX_EVENTS_CHANNEL: the dispute desk is on (the Home tab lists the open disputes). */
  pixEventsChannel?: string;
  approvals: ApprovalSettings;
  digest: DigestSettings;
  /**
   * The audit trail. In a handler, the log of its delivery (the router records the entry point, its
   * outcome and its Pix calls; see audit/recorder.ts); elsewhere, the app's own.
   */
  audit: AuditLog;
}
