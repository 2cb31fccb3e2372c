import { validate as validateCron } from 'node-cron';
import { z } from 'zod';
import { ALWAYS_APPROVED, APPROVAL_ACTIONS, type ApprovalAction, parseDuration } from '../domain/approvals';
import { parseReais } from '../domain/money';
import type { Role } from '../domain/roles';
import { namespaceProblem } from '../store/namespace';

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankToUndefined, z.string().trim().optional());

/** A comma-separated list's entries, trimmed, the empty ones left out. */
const commaList = (v: unknown): string[] =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

const SLACK_ID = /^[UWS][A-Z0-9]{2,}$/;
const idList = z.preprocess(
  commaList,
  z.array(
    z
      .string()
      .regex(
        SLACK_ID,
        'expected Slack user IDs (U…, W…) or user-group IDs (S…), comma-separated (a member ID: Slack profile → ⋮ More → Copy member ID; /pix help shows yours)',
      ),
  ),
);

/** Names of actions that can wait for approval, comma-separated. */
const actionList = z.preprocess(
  commaList,
  z.array(
    z
      .string()
      .refine(
        (s): s is ApprovalAction => (APPROVAL_ACTIONS as readonly string[]).includes(s),
        `expected one of ${APPROVAL_ACTIONS.join(', ')}`,
      ),
  ),
);

/** `30m`, `24h`, `2d` in milliseconds. */
const duration = z.string().transform((s, ctx) => {
  const ms = parseDuration(s);
  if (ms === undefined) ctx.addIssue({ code: 'custom', message: 'expected a duration such as 30m, 24h or 2d' });
  return ms ?? 0;
});

/**
 * An optional amount in reais, in cents: the project's money parser, read as pt-BR (`100000`, `100.000`
 * and `100.000,00` are all a hundred thousand reais); `example` is the amount the error shows.
 */
const reais = (example: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((s, ctx) => {
        const parsed = parseReais(s, 'pt-BR');
        if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `expected an amount in reais such as ${example}` });
        return parsed.ok ? parsed.cents : 0;
      })
      .optional(),
  );

const port = (fallback: number) =>
  z.preprocess(
    (v) => blankToUndefined(v) ?? String(fallback),
    z.string().regex(/^\d+$/, 'expected a port number').transform(Number).pipe(z.number().int().min(0).max(65535)),
  );

const positiveInt = (fallback: number, max: number) =>
  z.preprocess(
    (v) => blankToUndefined(v) ?? String(fallback),
    z.string().regex(/^\d+$/, 'expected a whole number').transform(Number).pipe(z.number().int().min(1).max(max)),
  );

const httpUrl = z
  .string()
  .url('expected a URL')
  .refine((u) => /^https?:\/\//.test(u), 'expected an http(s) URL');

/** 127.0.0.0/8, ::1 or localhost: traffic that never leaves the machine (the sandbox, tests). */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The Redis and Postgres clients parse the URL themselves; one they cannot parse would fail at start without naming STORE_URL. */
function isHostUrl(url: string): boolean {
  try {
    return new URL(url).hostname !== '';
  } catch {
    return false;
  }
}

/** Weekdays at 09:00, São Paulo time (DIGEST_TIMEZONE). */
const DEFAULT_DIGEST_SCHEDULE = '0 9 * * 1-5';
/** The digest's schedule is read in Brazil's time, whatever the server's zone (node-cron's `timezone`). */
const DIGEST_TIMEZONE = 'America/Sao_Paulo';

const CRON_HINT =
  'not a valid node-cron expression: expected five fields, minute hour day-of-month month day-of-week (e.g. */5 * * * * for every 5 minutes), or six with seconds first (e.g. */30 * * * * * for every 30 seconds)';

/** AppIDs travel in every request's Authorization header: never in clear text over a network. */
const pixApiUrl = httpUrl
  .refine(
    (u) => u.startsWith('https://') || isLoopbackUrl(u),
    'expected an https URL (plain http only on a loopback address, such as the sandbox on http://127.0.0.1)',
  )
  .transform((u) => u.replace(/\/+$/, ''));

const ConfigSchema = z.object({
  SLACK_BOT_TOKEN: optionalText,
  SLACK_APP_TOKEN: optionalText,
  SLACK_SIGNING_SECRET: optionalText,
  PORT: port(3000),
  SLACK_API_URL: z.preprocess(
    blankToUndefined,
    httpUrl.refine((u) => u.endsWith('/api/'), 'must end in /api/ (e.g. https://slack.com/api/)').optional(),
  ),
  PIX_API_URL: z.preprocess(blankToUndefined, pixApiUrl.optional()),
  PIX_APP_ID: optionalText,
  PIX_MASTER_APP_ID: optionalText,
  PIX_TIMEOUT_MS: positiveInt(10_000, 120_000),
  STORE_URL: z.preprocess(
    (v) => blankToUndefined(v) ?? 'sqlite://data/pix-ops.sqlite',
    z
      .string()
      .regex(
        /^(sqlite:\/\/.+|rediss?:\/\/.+|postgres(ql)?:\/\/.+)$/,
        'expected sqlite://PATH, postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, redis://HOST:PORT or rediss://HOST:PORT (Redis over TLS)',
      )
      .refine(
        (u) => !/^rediss?:/.test(u) || isHostUrl(u),
        'expected redis://HOST:PORT or rediss://HOST:PORT (user and password allowed: redis://:PASSWORD@HOST:PORT)',
      )
      .refine(
        (u) => !/^postgres(ql)?:/.test(u) || (isHostUrl(u) && new URL(u).pathname.length > 1),
        'expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (postgresql:// too; ?sslmode=require or verify-full for TLS)',
      ),
  ),
  STORE_SECRET: optionalText,
  STORE_NAMESPACE: z.preprocess(
    (v) => blankToUndefined(v) ?? 'pix-ops',
    z
      .string()
      .trim()
      .superRefine((namespace, ctx) => {
        const problem = namespaceProblem(namespace);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  ),
  // Postgres: connections per instance at most, and the time limit of every query (and of the wait for a connection).
  STORE_POOL_MAX: positiveInt(10, 1_000),
  STORE_TIMEOUT_MS: positiveInt(2_000, 120_000),
  HEALTH_PORT: z.preprocess(
    blankToUndefined,
    z.string().regex(/^\d+$/, 'expected a port number').transform(Number).pipe(z.number().int().min(0).max(65535)).optional(),
  ),
  HEALTH_HOST: z.preprocess(
    (v) => blankToUndefined(v) ?? '127.0.0.1',
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.:-]{1,253}$/, 'expected an address to listen on (e.g. 127.0.0.1, 0.0.0.0, ::)'),
  ),
  POLL_SCHEDULE: z.preprocess(
    (v) => blankToUndefined(v) ?? '* * * * *',
    z.string().refine((s) => validateCron(s), CRON_HINT),
  ),
  POLL_CONCURRENCY: positiveInt(8, 256),
  POLL_CLAIM_TTL_MS: positiveInt(60_000, 3_600_000).refine((n) => n >= 1_000, 'expected at least 1000 (ms)'),
  ACCESS_VIEWERS: idList,
  ACCESS_OPERATORS: idList,
  ACCESS_ADMINS: idList,
  APPROVALS: actionList,
  ACCESS_APPROVERS: idList,
  APPROVAL_TTL: z.preprocess((v) => blankToUndefined(v) ?? '24h', duration.pipe(z.number().max(90 * 86_400_000, 'expected at most 90d'))),
  // Approval reminders and the limit requests' threshold.
  APPROVAL_REMIND_AFTER: z.preprocess(
    (v) => blankToUndefined(v) ?? '4h',
    z.string().transform((s, ctx) => {
      if (s.trim() === '0') return 0;
      const ms = parseDuration(s);
      if (ms === undefined) ctx.addIssue({ code: 'custom', message: 'expected a duration such as 30m, 4h or 1d, or 0 for no reminders' });
      return ms ?? 0;
    }),
  ),
  APPROVAL_LIMIT_ABOVE: reais('100000 or 100.000,00'),
  // Two checkers, escalation: each off until set.
  APPROVAL_QUORUM_ABOVE: reais('100000 or 100.000,00'),
  APPROVAL_QUORUM_ACTIONS: actionList,
  APPROVAL_ESCALATE_AFTER: z.preprocess(blankToUndefined, duration.optional()),
  // The most the team sends in one São Paulo day (payments and withdrawals); unset: no limit.
  PAY_DAY_LIMIT: reais('50000 or 50.000,00'),
  ACCESS_ESCALATION: idList,
  // Pix events (webhooks and the dispute desk): the receiver is on when PIX_EVENTS_CHANNEL is set.
  PIX_EVENTS_CHANNEL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^[CGD][A-Z0-9]{2,}$/, 'expected a Slack channel ID (C…, G…)')
      .optional(),
  ),
  PIX_WEBHOOK_PATH: z.preprocess(
    (v) => blankToUndefined(v) ?? '/pix/webhooks',
    z
      .string()
      .trim()
      .regex(/^\/[A-Za-z0-9._~/-]{0,200}$/, 'expected a path starting with / (letters, digits, . _ ~ - /)')
      .refine((p) => !['/slack/events', '/healthz'].includes(p), 'must not be /slack/events or /healthz'),
  ),
  PIX_EVENTS: z.preprocess(
    (v) => (blankToUndefined(v) ?? 'DISPUTE_*') as string,
    z
      .string()
      .transform((s) =>
        s
          .split(',')
          .map((k) => k.trim().toUpperCase())
          .filter(Boolean),
      )
      .pipe(z.array(z.string().regex(/^[A-Z0-9_]+\*?$/, 'expected event kinds such as DISPUTE_* or CHARGE_COMPLETED (* only at the end)'))),
  ),
  // The morning digest and the balance alerts.
  DIGEST_CHANNEL: z.preprocess(
    blankToUndefined,
    z
      .string()
      .trim()
      .regex(/^[CG][A-Z0-9]{2,}$/, 'expected a Slack channel ID (C… or G…; channel details → About → Channel ID), not a name')
      .optional(),
  ),
  DIGEST_SCHEDULE: z.preprocess(
    (v) => blankToUndefined(v) ?? DEFAULT_DIGEST_SCHEDULE,
    z
      .string()
      .trim()
      .refine((s) => validateCron(s), CRON_HINT),
  ),
  BALANCE_ALERT_BELOW: reais('10000 or 10.000,00'),
  // Pix API budget: calls a second, shared by the instances on a shared store (Redis, Postgres).
  PIX_RATE_LIMIT: positiveInt(5, 1_000),
  LOG_LEVEL: z.preprocess((v) => blankToUndefined(v) ?? 'info', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])),
});

/** Every variable the bot reads (docs/configuration.md must name each: test/unit/docs.test.ts). */
export const CONFIG_VARIABLES = Object.keys(ConfigSchema.shape);

/**
 * Checks that involve several variables. They read the raw text, so that they are reported together
 * with the problems of single variables instead of only once those are fixed.
 */
function crossFieldProblems(env: NodeJS.ProcessEnv): string[] {
  const v = (name: string) => {
    const value = blankToUndefined(env[name]);
    return typeof value === 'string' ? value.trim() : undefined;
  };
  const problems: string[] = [];
  const bot = v('SLACK_BOT_TOKEN');
  const appToken = v('SLACK_APP_TOKEN');
  const storeSecret = v('STORE_SECRET');
  if (bot && !bot.startsWith('xoxb-')) problems.push('SLACK_BOT_TOKEN: expected a bot token (xoxb-…)');
  if (appToken && !appToken.startsWith('xapp-')) problems.push('SLACK_APP_TOKEN: expected an app-level token (xapp-…)');
  problems.push(...placeholderProblems(v));
  if (!appToken && !v('SLACK_SIGNING_SECRET')) {
    problems.push('SLACK_SIGNING_SECRET: required in HTTP mode (set it, or set SLACK_APP_TOKEN for Socket Mode)');
  }
  if (v('PIX_API_URL') && !v('PIX_APP_ID')) problems.push('PIX_APP_ID: required when PIX_API_URL is set');
  if (/^rediss?:/.test(v('STORE_URL') ?? '') && !storeSecret)
    problems.push('STORE_SECRET: required when STORE_URL is redis:// or rediss://');
  if (/^postgres(ql)?:/.test(v('STORE_URL') ?? '')) {
    if (!storeSecret) problems.push('STORE_SECRET: required when STORE_URL is postgres:// or postgresql://');
  }
  if (storeSecret && storeSecret.length < 32) problems.push('STORE_SECRET: must be at least 32 characters');
  problems.push(...approvalRuleProblems(v));
  return problems;
}

/** Two checkers and escalation, against the approvals they shape (their own forms are the schema's). */
function approvalRuleProblems(v: (name: string) => string | undefined): string[] {
  const problems: string[] = [];
  const names = (name: string) => commaList(v(name) ?? '');
  const waiting = new Set([...names('APPROVALS'), ...ALWAYS_APPROVED]);
  names('APPROVAL_QUORUM_ACTIONS').forEach((action, i) => {
    if ((APPROVAL_ACTIONS as readonly string[]).includes(action) && !waiting.has(action))
      problems.push(
        `APPROVAL_QUORUM_ACTIONS: entry ${i + 1} is not in APPROVALS (only an action that waits for approval can need two checkers)`,
      );
  });
  const escalateAfter = v('APPROVAL_ESCALATE_AFTER');
  const escalation = names('ACCESS_ESCALATION');
  if (escalateAfter && escalation.length === 0)
    problems.push('ACCESS_ESCALATION: required when APPROVAL_ESCALATE_AFTER is set (who an approval is escalated to: user or group IDs)');
  if (!escalateAfter && escalation.length > 0)
    problems.push('APPROVAL_ESCALATE_AFTER: required when ACCESS_ESCALATION is set (how long an approval waits before it is escalated)');
  const after = escalateAfter ? parseDuration(escalateAfter) : undefined;
  const ttl = parseDuration(v('APPROVAL_TTL') ?? '24h');
  if (after !== undefined && ttl !== undefined && after >= ttl)
    problems.push('APPROVAL_ESCALATE_AFTER: must be shorter than APPROVAL_TTL (an approval is escalated while it still waits)');
  return problems;
}

// First run: the placeholders of .env.example and of the set-up help.
/**
 * What stands in for a value in .env.example and the set-up help (`xoxb-`, `xapp-`, `…`, `<token>`,
 * `your-…`, `changeme`): it passes a check of the value's form, and the bot then fails far from the
 * cause (`fetch failed` logged for ever), so it is refused at start with where the real value is.
 * After a token's prefix, only dots, dashes, `x`s or stars: real tokens carry their ids there.
 */
function isPlaceholder(value: string, tokenPrefix?: string): boolean {
  const rest = tokenPrefix && value.startsWith(tokenPrefix) ? value.slice(tokenPrefix.length) : value;
  if ((tokenPrefix ? /^[\s.…*xX_-]*$/ : /^[\s.…*_-]*$/).test(rest)) return true;
  return /^<.*>$|^\{\{.*\}\}$|^your[-_ ]|change[-_ ]?me|replace[-_ ]?me|placeholder/i.test(rest);
}

/** RFC 2606's example domains: no Pix service can ever live there (.env.example's PIX_API_URL is one). */
const isExampleHost = (url: string): boolean => {
  try {
    return /(?:^|\.)(?:example|example\.com|example\.net|example\.org)\.?$/i.test(new URL(url).hostname);
  } catch {
    return false;
  }
};

const PLACEHOLDER_HINTS: Array<{ variable: string; tokenPrefix?: string; hint: string }> = [
  {
    variable: 'SLACK_BOT_TOKEN',
    tokenPrefix: 'xoxb-',
    hint: "paste the app's Bot User OAuth Token (api.slack.com/apps → your app → OAuth & Permissions; xoxb- and more)",
  },
  {
    variable: 'SLACK_APP_TOKEN',
    tokenPrefix: 'xapp-',
    hint: 'paste an app-level token (Basic Information → App-Level Tokens → Generate, scope connections:write; xapp- and more), or remove the line for HTTP mode with SLACK_SIGNING_SECRET',
  },
  { variable: 'SLACK_SIGNING_SECRET', hint: "paste the app's Signing Secret (Basic Information → App Credentials)" },
  {
    variable: 'PIX_APP_ID',
    hint: "paste the AppID of the company's main application, or leave PIX_API_URL and PIX_APP_ID unset for the built-in sandbox",
  },
  { variable: 'PIX_MASTER_APP_ID', hint: 'paste the AppID of the MASTER application, or leave it unset' },
  { variable: 'STORE_SECRET', hint: 'set a random key of 32 characters or more (e.g. openssl rand -hex 32)' },
];

function placeholderProblems(v: (name: string) => string | undefined): string[] {
  const problems = PLACEHOLDER_HINTS.flatMap(({ variable, tokenPrefix, hint }) => {
    const value = v(variable);
    return value !== undefined && isPlaceholder(value, tokenPrefix)
      ? [`${variable}: still a placeholder (as in .env.example): ${hint}`]
      : [];
  });
  const pixUrl = v('PIX_API_URL');
  if (pixUrl && isExampleHost(pixUrl)) {
    problems.push(
      "PIX_API_URL: still an example address (as in .env.example): set the Pix service's base URL, or leave it unset for the built-in sandbox",
    );
  }
  return problems;
}

type RawConfig = z.infer<typeof ConfigSchema>;

export interface Config {
  slack: {
    botToken: string;
    appToken?: string;
    signingSecret?: string;
    apiUrl?: string;
    port: number;
    /**
     * The address the HTTP listener binds; unset: every interface (Slack must reach it). Not a
     * variable: the playground sets loopback, since its Slack is on this machine.
     */
    host?: string;
  };
  /**
   * `GET /healthz` on a port of its own (Socket Mode has no other HTTP port); unset: none. It listens
   * on `host` (loopback unless HEALTH_HOST says otherwise: it tells anyone who asks about the store
   * and the Pix API).
   */
  health: { port?: number; host: string };
  pix: {
    /** Absent in sandbox mode: the sandbox's URL is known only once it listens. */
    apiUrl?: string;
    appId?: string;
    masterAppId?: string;
    timeoutMs: number;
    /** PIX_RATE_LIMIT: never more calls than this in any one-second window, all instances together. */
    rateLimit: number;
  };
  /**
   * `namespace`: prefix of every key, so several deployments can share one Redis; on Postgres, the
   * schema (`-` read as `_`). `poolMax` and `timeoutMs`: Postgres's connections per instance, and the
   * time limit of every query and of the wait for a connection.
   */
  store: { url: string; secret?: string; namespace: string; poolMax: number; timeoutMs: number };
  poll: { schedule: string; concurrency: number };
  /**
   * How long a poller holds a request while it delivers its decision; another instance may take it
   * over after that (its holder died). Must outlast a delivery (a few Slack calls of at most 10 s).
   */
  pollClaimTtlMs: number;
  access: Record<Role, string[]>;
  /**
   * Four-eyes approvals: the actions that wait for a second person (none: every action runs at
   * once), who may approve (`approvers`, user or group IDs; empty: anyone with the action's role), and
   * how long a pending action waits.
   */
  approvals: {
    actions: ApprovalAction[];
    approvers: string[];
    ttlMs: number;
    /** APPROVAL_REMIND_AFTER: the interval of a pending approval's reminders (at most 3); 0: none. */
    remindAfterMs: number;
    /** APPROVAL_LIMIT_ABOVE in cents: a limit request needs approval only when a requested field is above it. */
    limitAboveCents?: number;
    /** APPROVAL_QUORUM_ABOVE in cents: a limit request with a requested field above it needs two checkers. */
    quorumAboveCents?: number;
    /** APPROVAL_QUORUM_ACTIONS: the actions that always need two checkers. */
    quorumActions: ApprovalAction[];
    /** APPROVAL_ESCALATE_AFTER: how long a pending approval waits before it is escalated; unset: never. */
    escalateAfterMs?: number;
    /** ACCESS_ESCALATION: who an approval is escalated to (user or group IDs); set with escalateAfterMs. */
    escalation: string[];
    /** PAY_DAY_LIMIT in cents: the most payments and withdrawals send together in one São Paulo day; unset: none. */
    payDayLimitCents?: number;
  };
  logLevel: RawConfig['LOG_LEVEL'];
  sandboxMode: boolean;
  /**
   * Pix events: the receiver (on `PORT` at `webhookPath`) is on when `channel` is set; `kinds` are
   * the event kinds posted (a trailing `*` matches any suffix).
   */
  pixEvents: { channel?: string; webhookPath: string; kinds: string[] };
  /**
   * The morning digest: posted in `channel` (none when unset) at each time of `schedule` (node-cron,
   * read in `timezone`); `/pix digest` shows it at any time.
   */
  digest: { channel?: string; schedule: string; timezone: string };
  /**
   * BALANCE_ALERT_BELOW in cents: an account whose available balance goes below it gets an alert, and
   * the digest lists the accounts below it; unset, neither.
   */
  balanceAlerts: { belowCents?: number };
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; missingBotToken: boolean; problems: string[] };

/**
 * Reads the environment. Problems name the variable and say what is expected; they never repeat the
 * value, which may be a secret.
 */
export function loadConfig(env: NodeJS.ProcessEnv): ConfigResult {
  const parsed = ConfigSchema.safeParse(env);
  const missingBotToken = !blankToUndefined(env.SLACK_BOT_TOKEN);
  const problems = [
    ...(missingBotToken ? ['SLACK_BOT_TOKEN: required (the bot token, xoxb-…)'] : []),
    ...(parsed.success
      ? []
      : parsed.error.issues.map((issue) => {
          const [variable, index] = issue.path;
          const entry = typeof index === 'number' ? `entry ${index + 1} ` : '';
          return `${String(variable ?? 'environment')}: ${entry}${describe(issue)}`;
        })),
    ...crossFieldProblems(env),
  ];
  if (!parsed.success || problems.length > 0) return { ok: false, missingBotToken, problems };
  const c = parsed.data;
  return {
    ok: true,
    config: {
      slack: {
        botToken: c.SLACK_BOT_TOKEN!,
        appToken: c.SLACK_APP_TOKEN,
        signingSecret: c.SLACK_SIGNING_SECRET,
        apiUrl: c.SLACK_API_URL,
        port: c.PORT,
      },
      health: { port: c.HEALTH_PORT, host: c.HEALTH_HOST },
      pix: {
        apiUrl: c.PIX_API_URL,
        appId: c.PIX_APP_ID,
        masterAppId: c.PIX_MASTER_APP_ID,
        timeoutMs: c.PIX_TIMEOUT_MS,
        rateLimit: c.PIX_RATE_LIMIT,
      },
      store: {
        url: c.STORE_URL,
        secret: c.STORE_SECRET,
        namespace: c.STORE_NAMESPACE,
        poolMax: c.STORE_POOL_MAX,
        timeoutMs: c.STORE_TIMEOUT_MS,
      },
      poll: { schedule: c.POLL_SCHEDULE, concurrency: c.POLL_CONCURRENCY },
      pollClaimTtlMs: c.POLL_CLAIM_TTL_MS,
      access: { viewer: c.ACCESS_VIEWERS, operator: c.ACCESS_OPERATORS, admin: c.ACCESS_ADMINS },
      approvals: {
        actions: [...new Set(c.APPROVALS as ApprovalAction[])],
        approvers: c.ACCESS_APPROVERS,
        ttlMs: c.APPROVAL_TTL,
        remindAfterMs: c.APPROVAL_REMIND_AFTER,
        ...(c.APPROVAL_LIMIT_ABOVE === undefined ? {} : { limitAboveCents: c.APPROVAL_LIMIT_ABOVE }),
        ...(c.APPROVAL_QUORUM_ABOVE === undefined ? {} : { quorumAboveCents: c.APPROVAL_QUORUM_ABOVE }),
        quorumActions: [...new Set(c.APPROVAL_QUORUM_ACTIONS as ApprovalAction[])],
        ...(c.APPROVAL_ESCALATE_AFTER === undefined ? {} : { escalateAfterMs: c.APPROVAL_ESCALATE_AFTER }),
        escalation: c.ACCESS_ESCALATION,
        ...(c.PAY_DAY_LIMIT === undefined ? {} : { payDayLimitCents: c.PAY_DAY_LIMIT }),
      },
      logLevel: c.LOG_LEVEL,
      sandboxMode: !c.PIX_API_URL,
      pixEvents: { channel: c.PIX_EVENTS_CHANNEL, webhookPath: c.PIX_WEBHOOK_PATH, kinds: c.PIX_EVENTS },
      digest: { channel: c.DIGEST_CHANNEL, schedule: c.DIGEST_SCHEDULE, timezone: DIGEST_TIMEZONE },
      balanceAlerts: c.BALANCE_ALERT_BELOW === undefined ? {} : { belowCents: c.BALANCE_ALERT_BELOW },
    },
  };
}

// zod's own messages for a bad value can quote it (e.g. enum mismatches); keep to ours.
function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_value' && 'values' in issue) return `expected one of ${issue.values.join(', ')}`;
  if (issue.code === 'invalid_type') return 'expected text';
  return issue.message;
}

export const SETUP_HELP = `Pix Ops for Slack is not set up yet: SLACK_BOT_TOKEN is missing.

  1. Create the Slack app from the manifest: https://api.slack.com/apps → Create New App →
     From an app manifest → paste manifest.yml from this folder → Install to Workspace.
  2. Put its tokens in a .env file here (see .env.example):
       SLACK_BOT_TOKEN=xoxb-…        (OAuth & Permissions → Bot User OAuth Token)
       SLACK_APP_TOKEN=xapp-…        (Basic Information → App-Level Tokens, scope connections:write;
                                      Socket Mode, no public URL needed)
     or, for HTTP mode instead of Socket Mode:
       SLACK_SIGNING_SECRET=…        (Basic Information → Signing Secret)
  3. Give yourself a role: ACCESS_ADMINS=U… (your Slack member ID).
  4. Run npm start again. With no PIX_API_URL the bot uses its built-in sandbox Pix API.

See docs/configuration.md for every variable.`;

// The playground (`npm start` with nothing of a deployment set): see src/playground/.

/** What only a deployment sets: any one of them set, and a secret mount that failed is not hidden by a playground. */
const PRODUCTION_VARIABLES = ['SLACK_BOT_TOKEN', 'SLACK_APP_TOKEN', 'SLACK_SIGNING_SECRET', 'PIX_API_URL'] as const;

/** Never a playground when a production variable is set: a deployment missing the rest is told what is missing. */
export function wantsPlayground(env: NodeJS.ProcessEnv): boolean {
  if (PRODUCTION_VARIABLES.some((name) => env[name]?.trim())) return false;
  // A shared store (Redis, Postgres, or any but the playground's own kind) is a deployment's.
  const store = env.STORE_URL?.trim();
  return !store || /^sqlite:/i.test(store);
}

export type PlaygroundConfigResult = { ok: true; port: number; logLevel?: string } | { ok: false; problems: string[] };

const PlaygroundSchema = z.object({
  PLAYGROUND_PORT: port(3000),
  // Unset: `warn` (the page is where the playground is watched).
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
});

export function loadPlaygroundConfig(env: NodeJS.ProcessEnv): PlaygroundConfigResult {
  const parsed = PlaygroundSchema.safeParse({ PLAYGROUND_PORT: env.PLAYGROUND_PORT, LOG_LEVEL: blankToUndefined(env.LOG_LEVEL) });
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => `${String(i.path[0])}: ${describe(i)}`) };
  return { ok: true, port: parsed.data.PLAYGROUND_PORT, logLevel: parsed.data.LOG_LEVEL };
}

/** Printed when the playground is up: its address, beside the steps for a real workspace. */
export function playgroundHelp(url: string): string {
  return `Pix Ops for Slack — playground: ${url}
  The whole app in your browser, against a local Slack stand-in and the sandbox Pix API
  (no workspace, no tokens). Ctrl+C stops it.

To run it in a real workspace instead:
${SETUP_HELP.split('\n').slice(2).join('\n')}`;
}
