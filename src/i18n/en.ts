import type { ApprovalAction } from '../domain/approvals';
import type { Role } from '../domain/roles';

// The English catalogue. Every text a Slack user reads is here (and in pt-BR.ts, with the same keys):
// views and commands ask `messages(locale)` for their words and never spell them out themselves.
//
// Conventions: parameters are ready to show (mrkdwn-escaped, ids already in backticks, money and
// dates already formatted for the locale) unless their name says otherwise; emojis that only
// decorate stay in the views. `actions` are infinitive phrases: they finish "Could not …" and "You
// need the viewer role to …", so every command, button and failure names what it does from there.

export const en = {
  /** `/pix pay`: the payment form and its key check. */
  pay: {
    title: 'Pay a Pix key',
    loading: 'Reading the accounts…',
    submit: 'Ask for approval',
    intro: 'A payment is sent only once a second person approves it. The key is checked first, so that they see who receives the money.',
    account: 'Pay from',
    accountSearch: 'Search the accounts',
    key: 'Pix key',
    keyHint: 'A CPF, a CNPJ, an e-mail, a phone (+55, area code, number) or a random key.',
    type: 'Key type',
    typeHint: 'Leave it empty to have it read from the key.',
    value: 'Amount (R$)',
    valueHint: 'In reais, like 1,234.56 (1.234,56 works too).',
    comment: 'Comment',
    commentHint: (max: number) => `Sent with the payment; at most ${max} characters.`,
    chooseAccount: 'Choose the account to pay from.',
    chooseType: 'Choose the key type.',
    typeUnknown: 'I cannot tell this key’s type from its form: choose the type.',
    typeAmbiguous: 'These eleven digits may be a CPF or a phone number written without +55: choose the type.',
    cpfOrPhoneInvalid: 'Not a valid CPF (its check digits do not match); a phone key is written with +55, like +5511987654321.',
    amountZero: 'The amount must be above zero.',
    commentTooLong: (max: number) => `A comment has at most ${max} characters.`,
    checking: 'Checking the key…',
    notFound: 'This key is registered at no bank. Nothing was posted.',
    tokensLow: (when: string) =>
      `The company has too few Pix key look-ups left: one more key not found would stop all of its payments. There are enough again from ${when} (Brasília time). No look-up was made, and nothing was posted.`,
    tokensLowSoon:
      'The company has too few Pix key look-ups left: one more key not found would stop all of its payments. They refill every minute: try again in a few minutes. No look-up was made, and nothing was posted.',
    nothingPosted: 'Nothing was posted.',
  },

  /** `/pix payments`: the company's payments, a page at a time. */
  payments: {
    empty: 'The company has no payments yet.',
    emptyPage: (page: number) => `No payments on page ${page}.`,
    title: (p: { page: number; range: string }) => `*Payments*, newest first · page ${p.page} (${p.range})`,
    text: (p: { page: number; range: string }) => `Payments, page ${p.page}: ${p.range}`,
    line: (p: { amount: string; key: string; status: string; created?: string }) =>
      `*${p.amount}* to ${p.key} · ${p.status}${p.created ? ` · ${p.created}` : ''}`,
    correlation: (id: string) => `correlationID ${id}`,
    statusCreated: 'created, not approved at the service',
    statusConfirmed: 'confirmed',
    statusFailed: 'failed',
    statusDenied: 'denied',
    statusRejected: 'rejected',
    statusInProgress: 'in progress',
    failedWith: (code: string) => `failed (${code})`,
    footer: 'Made in Slack or elsewhere, as the Pix service lists them; keys are masked; times are Brasília time.',
  },

  common: {
    sandboxNote: ':test_tube: *SANDBOX*: a local test Pix API, no real accounts or money.',
    sandboxTag: '[SANDBOX]',
    close: 'Close',
    cancel: 'Cancel',
    previous: 'Previous',
    next: 'Next',
    yes: 'yes',
    no: 'no',
    none: 'none',
    notReported: '_not reported_',
    notAllowedTitle: 'Not allowed',
    /** For src/entry/delivery.ts: the title of the modal that says the store is unavailable. */
    notAvailableTitle: 'Not available',
    /** Stands for an error code when Slack or the Pix service gave none. */
    noAnswer: 'no answer',
    /** A failure that is not the Pix API's (a bug, Slack…). */
    wentWrong: (action: string) => `Something went wrong while trying to ${action}.`,
    wentWrongNothingMore: (action: string) => `Something went wrong while trying to ${action}. Nothing more was done.`,
    wentWrongCheck: (action: string) => `Something went wrong while trying to ${action}. Check before trying again.`,
    noDefaultAccount: 'The Pix API lists no default account for this company; name the account id.',
    storeUnavailable: ":warning: The app's storage is unavailable, so nothing was done. Please try again in a moment.",
    formOutOfDate: 'This form is out of date; close it and open it again.',
    buttonNoPage: 'This button does not name a page. Nothing was done.',
    buttonNoAccount: 'This button does not name an account. Nothing was done.',
    buttonNoPixKey: 'This button does not name a Pix key. Nothing was done.',
    buttonNoLimitRequest: 'This button does not name a limit request. Nothing was done.',
    buttonNoStatementPage: 'This button does not name a statement page. Nothing was done.',
    /** Appended when an audit message could not be posted in the channel. */
    auditMissed: (channel: string) => `_I could not post this in <#${channel}> for the record (invite me with \`/invite @Pix Ops\`)._`,
    progressCloseNote: 'You can close this window: the work goes on, and its result is posted in the channel.',
    /** `1 item`, `3 items`. */
    items: (n: number) => (n === 1 ? '1 item' : `${n} items`),
    fields: (n: number) => `${n} fields`,
    andMore: (n: number) => `And ${n} more.`,
    channelNamed: (name: string) => `channel ${name}`,
    role: (role: Role): string => role,
  },

  /** What an entry point does, as an infinitive phrase: "Could not …", "You need the … role to …". */
  actions: {
    openPaymentForm: 'open the payment form',
    askPayment: 'ask for a payment',
    checkPixKey: 'check the Pix key',
    listPayments: 'list the payments',
    showHelp: 'show help',
    readLimits: 'read the limits',
    openLimitRequestForm: 'open the limit-request form',
    readAccountLimits: 'read the account’s limits',
    fileLimitRequest: 'file a limit request',
    uploadProofFiles: 'upload the proof files',
    fileTheLimitRequest: 'file the limit request',
    readLimitRequest: 'read the limit request',
    followLimitRequest: 'follow a limit request in a channel',
    followTheLimitRequest: 'follow the limit request',
    listLimitRequests: 'list the limit requests',
    readAccounts: 'read the accounts',
    readAccount: 'read the account',
    openAccountForm: 'open the campaign-account form',
    createCampaignAccount: 'create a campaign account',
    createAccount: 'create the account',
    createApplication: 'create the application',
    retryApplication: 'retry creating a campaign account’s application',
    openAppIdForm: 'open the AppID form',
    registerAppId: 'register an account’s AppID',
    checkAppId: 'check the AppID',
    listPixKeys: 'list the Pix keys',
    readPixKeys: 'read the Pix keys',
    findAccountAppId: 'find the account’s AppID',
    openPixKeyForm: 'open the Pix-key form',
    addPixKey: 'add a Pix key',
    addThePixKey: 'add the Pix key',
    prepareKeyDeletion: 'prepare the deletion of the Pix key',
    deletePixKey: 'delete a Pix key',
    deleteThePixKey: 'delete the Pix key',
    cancelDeletion: 'cancel a deletion',
    setWithdrawKey: 'set the withdraw key',
    readScopes: 'read the scopes',
    rotateSecret: 'rotate the secret',
    issuePaymentBook: 'issue the payment booklet',
    openEvidenceForm: 'open the dispute-evidence form',
    sendDisputeEvidence: 'send dispute evidence',
    uploadEvidenceFiles: 'upload the evidence files',
    attachEvidence: 'attach the evidence to the dispute',
    readStatement: 'read the statement',
    readTransaction: 'read the transaction',
    seeHome: 'see the Home tab',
    readTrackedRequests: 'read the requests Pix Ops follows',
    readLatestRequests: 'read the latest limit requests',
    listAccounts: 'list the accounts',
    prepareWithdrawKey: 'prepare setting the withdraw key',
    prepareRotation: 'prepare the rotation of the secret',
    cancelConfirmation: 'cancel a confirmation',
    readAuditTrail: 'read the audit trail',
    exportAuditTrail: 'export the audit trail',
    approveOrReject: 'approve or reject an action',
    cancelApproval: 'cancel an action waiting for approval',
    runApprovedAction: 'run the approved action',
    readApprovals: 'read the actions waiting for approval',
    askApproval: 'ask for approval',
    askWithdraw: 'ask for a withdraw',
    retryPayment: 'retry a payment',
    manageAway: 'hand your approvals to someone while you are away',
    readDigest: 'put the digest together',
    readOpenDisputes: 'read the open disputes',
  },

  /** One line per command in `/pix help`. */
  summaries: {
    pay: 'open the form to pay a Pix key from an account; the key is checked, and the payment waits for a second person’s approval',
    payments: 'the company’s payments (made in Slack or elsewhere), newest first, ten a page',
    help: 'this list',
    limits: "an account's current limits (the default account when none is given)",
    limitRequest: 'open the form to raise an account’s limits, with proof files',
    limitStatus: 'a limit request: its status, the requested and the approved limits',
    limitList: "the company's limit requests, newest first, ten a page",
    accounts: 'the company’s accounts: balance, default flag, withdraw key, withdraw block',
    account: 'one account',
    accountCreate: 'create a campaign account with its own application',
    accountLink: 'register the AppID of an account created elsewhere',
    keys: 'an account’s Pix keys, each with a Delete button, and an Add button',
    keyAdd: 'open the form to add a Pix key to an account',
    keyDelete: 'delete a Pix key (asks to confirm first)',
    withdrawKey: 'register and select the account’s withdraw key, or select one the company has (asks to confirm first)',
    withdraw: 'send that amount (in reais) from the account to its withdraw key, once someone else approves it',
    scopes: 'the scope groups an application can request',
    rotateSecret: 'rotate an application’s client secret (asks to confirm first); the new one is shown only to you',
    paymentBook: 'issue a subscription’s payment booklet up to that month and post the PDF here',
    disputeEvidence: 'open the form to send evidence files to a dispute',
    statement: 'the account’s statement, 15 entries a page (the main account when none is given)',
    transaction: 'one transaction of the account (the main account when none is given)',
    audit: 'the audit trail, newest first: who did what, refusals included (the last 7 days when no number is given)',
    digest:
      'what waits for the team right now, as the morning digest says it: approvals, limit requests in review, open disputes, low balances, blocked withdrawals (only you see it)',
    auditExport:
      'the audit trail as a CSV file in your direct messages (dates YYYY-MM-DD, São Paulo time; the last 30 days when none are given)',
    away: 'while you are away, until the end of that day (São Paulo time), someone else decides the approvals you could; alone: who decides for you',
    awayOff: 'back: you decide your approvals yourself again',
  },

  /** Why the words after a subcommand were refused (followed by its usage line). */
  usage: {
    notAccountId: 'That is not an account id.',
    notLimitRequestId: 'That is not a limit request id.',
    notSubscriptionId: 'That is not a subscription id.',
    notDisputeId: 'That is not a dispute id.',
    notTransactionId: 'That is not a transaction id.',
    notClientId: 'That is not a client id.',
    notPixKey: 'That is not a Pix key.',
    badPage: 'The page is a whole number, 1 or more.',
    badDays: 'The number of days is a whole number from 1 to 366.',
    badDate: 'Dates are written YYYY-MM-DD, for example 2026-03-05.',
    datesOrder: 'The first date must not be after the second.',
  },

  help: {
    title: '*Pix Ops for Slack*',
    noRoleTitle: '*Pix Ops for Slack*\nYou have no role here yet.',
    noRoleText: (how: string) => `You have no role in Pix Ops yet. ${how}`,
    askAdmin: (p: { userId: string; viewer: string; operator: string; admin: string }) =>
      `Ask an admin to add your user ID \`${p.userId}\` to ${p.viewer}, ${p.operator} or ${p.admin}.`,
    noAccessConfigured: (p: { userId: string; viewer: string; operator: string; admin: string }) =>
      `No access is configured yet, so nobody can use it. Your user ID is \`${p.userId}\`: set ${p.admin}=${p.userId} (or ${p.operator} / ${p.viewer}) in the bot's environment and restart it.`,
    whatYouCanDoText: (role: string) => `Pix Ops: what you can do as ${role}`,
    whatYouCanDo: (role: string) => `*Pix Ops for Slack*: what you can do as *${role}*`,
    footer: 'Amounts are in reais (R$1,234.56; R$ 1.234,56 works too). `/pix help` shows this again.',
    usage: (p: { usage: string; problem?: string }) => `${p.problem ? `${p.problem} ` : ''}Usage: \`/pix ${p.usage}\``,
    unknownCommand: (p: { word: string; lines: string }) => `There is no \`/pix ${p.word}\`. You can use:\n${p.lines}`,
    refusal: (p: { role: string; what: string; userId: string; variable: string }) =>
      `You need the *${p.role}* role to ${p.what}. Ask an admin to add your user ID \`${p.userId}\` to ${p.variable} (or a higher role). Nothing was done.`,
    useCommand: (path: string) => `use \`/pix ${path}\``,
  },

  /** Pix API failures in words; the API's own `error` text is quoted as it came. */
  pixErrors: {
    noAnswerWrite: (action: string) =>
      `The Pix service did not answer while trying to ${action}; it may or may not have been done. Check before trying again.`,
    unreachable: (action: string) =>
      `The Pix service could not be reached, so I could not ${action}. Nothing was changed; try again in a moment.`,
    invalidResponse: (action: string) =>
      `The Pix service answered in a form I do not understand while trying to ${action}. Nothing more was done.`,
    missingScope: (p: { action: string; scope: string; apiText: string }) =>
      `Could not ${p.action}: the application lacks the Pix API scope \`${p.scope}\` (${p.apiText}).`,
    notFound: (p: { action: string; apiText?: string }) => `Could not ${p.action}: not found${p.apiText ? ` (${p.apiText})` : ''}.`,
    badAppId: (p: { action: string; apiText?: string }) =>
      `Could not ${p.action}: the Pix API did not accept the configured AppID${p.apiText ? ` (${p.apiText})` : ''}.`,
    apiText: (p: { action: string; apiText: string }) => `Could not ${p.action}: ${p.apiText}`,
    serverError: (p: { action: string; status: number }) =>
      `Could not ${p.action}: the Pix service failed (HTTP ${p.status}). Nothing was changed; try again later.`,
    httpStatus: (p: { action: string; status: number }) => `Could not ${p.action}: the Pix service answered HTTP ${p.status}.`,
  },

  /** Why a typed amount was refused (by `parseReais` reason). */
  money: {
    empty: 'Enter an amount in reais.',
    not_a_number: 'Not an amount: write it like 1,234.56 or 1.234,56.',
    negative: 'The amount cannot be negative.',
    too_many_decimals: 'At most two decimals (cents).',
    ambiguous: 'Ambiguous: for a thousand reais write 1234 or 1,234.00; cents take two decimals.',
    too_large: 'The amount is too large.',
  },

  dates: {
    justNow: 'just now',
    minutesAgo: (n: number) => `${n} min ago`,
    hoursAgo: (n: number) => `${n} h ago`,
    daysAgo: (n: number) => `${n} d ago`,
  },

  limits: {
    /** One word of a limit field's name (`pixOutSameHolderDayLimit` → pix, out, same, holder, day). */
    fieldWord: (word: string) => word,
    title: (p: { account: string; isDefault: boolean }) => `Limits of account ${p.account}${p.isDefault ? ' (default account)' : ''}`,
  },

  limitList: {
    empty: 'No limit requests yet.',
    emptyPage: (page: number) => `No requests on page ${page}.`,
    range: (p: { from: number; to: number; total?: number }) => `${p.from}–${p.to}${p.total !== undefined ? ` of ${p.total}` : ''}`,
    title: (p: { page: number; range: string }) => `*Limit requests*, newest first · page ${p.page} (${p.range})`,
    text: (p: { page: number; range: string }) => `Limit requests, page ${p.page}: ${p.range}`,
    line: (p: { account: string; day: string; night: string; created: string }) =>
      `Account ${p.account} · day *${p.day}* · night *${p.night}* · created ${p.created}`,
    footer:
      'Amounts are the requested day and night limits; times are Brasília time. `/pix limit status &lt;id&gt;` shows one request in full.',
  },

  /** A limit request's status, its thread root and the decision reply. */
  request: {
    inReview: 'In review',
    approved: 'Approved',
    rejected: 'Rejected',
    /** The status in a sentence (`in review`); an unknown status comes as the API sent it. */
    statusWord: (status: string) =>
      status === 'IN_REVIEW'
        ? 'in review'
        : status === 'APPROVED'
          ? 'approved'
          : status === 'REJECTED'
            ? 'rejected'
            : status.replace(/_/g, ' ').toLowerCase(),
    noApprovedValue: '_(no approved value)_',
    granted: (amount: string) => `→ granted *${amount}*`,
    grantedBelow: (amount: string) => `→ granted *${amount}* :warning: below the ask`,
    documents: (list: string) => `*Documents:* ${list}`,
    file: 'file',
    rootHead: (p: { id: string; account: string }) => `*Limit increase request* ${p.id} for account ${p.account}`,
    status: (status: string) => `*Status:* ${status}`,
    requestedBy: (user: string) => `*Requested by:* ${user}`,
    decisionInThread: 'The decision will be posted in this thread.',
    rootText: (p: { id: string; account: string; status: string }) =>
      `Limit increase request ${p.id} for account ${p.account}: ${p.status}`,
    rejectedReply: (p: { mention: string; id: string }) =>
      `${p.mention} the limit increase request ${p.id} was *rejected*. The account's limits did not change.`,
    rejectedText: (id: string) => `Limit request ${id} was rejected`,
    approvedReply: (p: { mention: string; id: string; below: number }) =>
      `${p.mention} the limit increase request ${p.id} was *approved*${p.below ? `, ${p.below === 1 ? 'one limit' : `${p.below} limits`} below what was asked` : ''}. The new limits are in effect.`,
    approvedText: (p: { id: string; partly: boolean }) => `Limit request ${p.id} was approved${p.partly ? ' (partly below the ask)' : ''}`,
  },

  limitStatus: {
    title: (id: string) => `*Limit request* ${id}`,
    status: 'Status',
    account: 'Account',
    created: 'Created',
    updated: 'Updated',
    limits: '*Limits*',
    noAmounts: '_No limit amounts in this request._',
    requested: (p: { label: string; amount: string }) => `• ${p.label}: requested *${p.amount}*`,
    approved: (amount: string) => `→ approved *${amount}*`,
    approvedBelow: (amount: string) => `→ approved *${amount}* :warning: below the ask`,
    notRequestedApproved: (p: { label: string; amount: string }) => `• ${p.label}: not requested  → approved *${p.amount}*`,
    alsoInRequest: (list: string) => `Also in the request: ${list}`,
    approvedWithoutLimits: ':warning: Marked approved, but the service sent no approved limits: not an approval yet.',
    rejectedNote: "Rejected: nothing was granted and the account's limits did not change.",
    documents: (list: string) => `*Documents:* ${list}`,
    description: (text: string) => `*Description:* ${text}`,
    followedClosed: (channel: string) => `Followed by Pix Ops: its thread is in ${channel}.`,
    followedOpen: (channel: string) => `Followed by Pix Ops: its thread is in ${channel}, where the decision will be posted.`,
    notFollowed: 'Pix Ops does not follow this request yet. *Notify this channel* posts it here, and its decision in its thread.',
    notifyButton: 'Notify this channel',
    text: (p: { id: string; account: string; status: string }) => `Limit request ${p.id} for account ${p.account}: ${p.status}`,
    alreadyFollowed: (p: { id: string; channel: string }) =>
      `The limit request ${p.id} is already followed: its thread is in ${p.channel}. Nothing more was done.`,
    alreadyDecided: (p: { id: string; status: string }) =>
      `The limit request ${p.id} is already decided (${p.status}), so there is nothing to wait for. Nothing was posted.`,
    followed: (p: { id: string; channel: string }) =>
      `Done: the limit request ${p.id} is posted in ${p.channel}, and its decision will be posted in that thread.`,
    notInChannel: 'I cannot post in this channel. Invite me with `/invite @Pix Ops` and click again. Nothing was posted or followed.',
    noChannel: 'I cannot tell which channel this button is in. Nothing was posted or followed.',
    busy: (id: string) => `The limit request ${id} is being set up in a channel right now. Nothing more was done.`,
    postFailed: (slackError: string) => `Slack refused the message (${slackError}), so nothing was posted or followed.`,
    notSaved: 'The request could not be saved as followed, so the message was taken back. Nothing is followed; try again in a moment.',
  },

  /** The limit-request modal, its checks and its progress. */
  limitForm: {
    title: 'Limit increase',
    loading: 'Reading the account’s current limits…',
    defaultAccount: '(default)',
    account: 'Account',
    amountsHint: 'Amounts in reais, like 1,234.56. Each starts at the current limit; raise the ones you need.',
    current: (amount: string) => `Current: ${amount}`,
    /** An account's available balance, in the account choice. */
    available: (amount: string) => `available ${amount}`,
    alsoOnAccount: (list: string) => `Also on this account: ${list}`,
    proofsFromMessage: (list: string) => `*Proofs from the message:* ${list}`,
    proofFiles: 'Proof files',
    moreProofFiles: 'More proof files',
    filesHint: (max: number) => `PDF, PNG, JPEG or WebP, at most 10 MiB each, ${max} files in all.`,
    description: 'Description for the analyst',
    reason: 'Reason',
    submit: 'File request',
    progressNote: 'You can close this window: the request goes on, and its message will be posted when it is filed.',
    uploading: (p: { index: number; total: number }) => `Uploading proof ${p.index} of ${p.total}…`,
    uploadingNamed: (p: { index: number; total: number; name: string }) => `Uploading proof ${p.index} of ${p.total}: ${p.name}`,
    filing: 'Filing the request…',
    filed: (p: { id: string; where: string }) => `:white_check_mark: Request ${p.id} filed and in review. ${p.where}`,
    filedThread: (channel: string) => `Its thread is in ${channel}; the decision will be posted there.`,
    notPosted: 'No request message was posted.',
    chooseAccount: 'Choose the account.',
    belowCurrent: (amount: string) => `Below the current limit of ${amount}: a request can only raise limits.`,
    noneAbove: 'At least one limit must be above its current value.',
    attachProof: 'Attach at least one proof file (PDF, PNG, JPEG or WebP).',
    tooManyFiles: (p: { max: number; count: number }) => `At most ${p.max} files: ${p.count} are attached.`,
    shortcutNoFiles: 'That message has no files. Use `/pix limit request` and attach the proofs in the form.',
    homeFormFailed: 'I could not open the limit-request form. Try `/pix limit request` in a channel.',
    accountSearch: 'Type part of the account id',
  },

  /** Checks of uploaded files (limit proofs, dispute evidence). */
  files: {
    cannotRead: (id: string) => `Could not read the file ${id} from Slack; attach it again.`,
    tooBig: (p: { name: string; mib: string }) => `“${p.name}” is ${p.mib} MiB; each file may have at most 10 MiB.`,
    empty: (name: string) => `“${name}” is empty.`,
    cannotDownload: (name: string) => `Could not download “${name}” from Slack.`,
    notInTime: (name: string) => `Could not read “${name}” from Slack in time; try again.`,
    wrongType: (name: string) => `“${name}” is not a PDF, PNG, JPEG or WebP file (judged by its content, not its name).`,
    /** Counted while streaming: Slack's reported size was smaller. */
    overCap: (name: string) => `“${name}” is larger than 10 MiB (counted while sending it, whatever Slack reported); it was not sent.`,
  },

  accounts: {
    randomKey: 'random key (EVP)',
    email: 'e-mail',
    phone: 'phone',
    withdrawNotReported: '_not reported (withdraw-key API not enabled on this account)_',
    withdrawNone: 'none set',
    withdrawBlocked:
      ':warning: *Withdrawals blocked*: a withdraw attempt found this account’s withdraw key missing in the DICT, so every withdraw is refused until the service lifts the block.',
    appStored: (clientId?: string) => `AppID stored (encrypted)${clientId ? `, application ${clientId}` : ''}`,
    appPending: (accountId: string) =>
      `:warning: no application yet: its creation failed; an admin can retry it, or register an AppID with \`/pix account link ${accountId}\``,
    appMain: 'the main application (PIX_APP_ID)',
    appNone: (accountId: string) => `no AppID known: an admin can register one with \`/pix account link ${accountId}\``,
    defaultAccount: ' (default account)',
    campaign: (name: string) => ` · campaign ${name}`,
    none: 'The Pix API lists no accounts for this company.',
    listTitle: (n: number) => `*Accounts of the company* (${n})`,
    balanceLine: (text: string) => `Balance: ${text}`,
    /** Each amount already in R$. */
    balanceFields: (p: { total: string; available: string; blocked: string }) =>
      `total ${p.total} · available ${p.available} · blocked ${p.blocked}`,
    withdrawKeyLine: (text: string) => `Withdraw key: ${text}`,
    keysManagedLine: (text: string) => `Keys managed with: ${text}`,
    listText: (p: { count: number; blocked: number }) =>
      `${p.count} account(s)${p.blocked ? `, ${p.blocked} with withdrawals blocked` : ''}`,
    fieldBalance: 'Balance',
    fieldDefault: 'Default account',
    fieldWithdrawKey: 'Withdraw key',
    fieldKeysManaged: 'Keys managed with',
    fieldTaxId: 'Holder tax id',
    oneTitle: (title: string) => `*Account ${title}*`,
    oneText: (p: { accountId: string; balance?: string; blocked: boolean }) =>
      `Account ${p.accountId}: ${p.balance ? `balance ${p.balance}` : 'balance not reported'}${p.blocked ? ' (withdrawals blocked)' : ''}`,
    createTitle: 'New campaign account',
    createSubmit: 'Create',
    campaignName: 'Campaign name',
    campaignNameHint: 'Names the account’s application too.',
    createNote:
      'Creates a bank account with the MASTER application, then an API application for it. Its AppID is stored encrypted; its client secret is shown to you once, here.',
    linkTitle: 'Link an AppID',
    linkSubmit: 'Check and store',
    linkIntro: (account: string) =>
      `Register the AppID of account ${account}, created outside Pix Ops. It is checked with the Pix API, then stored encrypted.`,
    appIdLabel: 'AppID',
    appIdHint: 'The value of the Authorization header of that account’s application.',
    retryButton: 'Retry creating the application',
    hasApplication: (p: { account: string; clientId?: string }) =>
      `:white_check_mark: Account ${p.account} has its application${p.clientId ? ` ${p.clientId}` : ''}.`,
    clientSecret: (secret: string) =>
      `*Client secret* (shown only to you, only this once; copy it now, Pix Ops does not keep it):\n\`\`\`${secret}\`\`\``,
    noClientSecret: 'The service’s answer had no client secret; rotate one with `/pix rotate-secret <clientId>` if you need it.',
    unstoredAppId: (p: { accountId: string; appId: string }) =>
      `:warning: Its AppID could *not* be stored. Keep it safe and register it later with \`/pix account link ${p.accountId}\`:\n\`\`\`${p.appId}\`\`\``,
    storedNote: ' Its AppID is stored encrypted.',
    notStoredNote: (accountId: string) =>
      ` :warning: Its AppID could not be stored: an admin must register it with \`/pix account link ${accountId}\`.`,
    auditCreated: (p: { user: string; account: string; name: string; clientId?: string; note: string }) =>
      `${p.user} created the campaign account ${p.account} (${p.name}) with its application${p.clientId ? ` ${p.clientId}` : ''}.${p.note}`,
    auditAppFailed: (p: { user: string; account: string; name: string; problem: string }) =>
      `${p.user} created the campaign account ${p.account} (${p.name}), but its application could not be created: ${p.problem}`,
    appFailedNote: 'The account exists, without an application (and so without an AppID). Retrying creates only the application.',
    auditResolved: (p: { account: string; name: string; clientId?: string; user: string }) =>
      `The campaign account ${p.account} (${p.name}) now has its application${p.clientId ? ` ${p.clientId}` : ''}, created by ${p.user}.`,
    auditRetried: (p: { user: string; account: string; name: string; clientId?: string; note: string }) =>
      `${p.user} created the application${p.clientId ? ` ${p.clientId}` : ''} of the campaign account ${p.account} (${p.name}).${p.note}`,
    auditLinked: (p: { user: string; account: string }) =>
      `${p.user} registered an AppID for the account ${p.account} (checked with the Pix API, stored encrypted).`,
    masterMissing:
      'Campaign accounts are created with the MASTER application, and no `PIX_MASTER_APP_ID` is set. Set it in the bot’s environment and restart it. Nothing was created.',
    appCreatedText: (accountId: string) => `The application of account ${accountId} was created.`,
    secretNotShown: (account: string) =>
      `The application of account ${account} was created, but I could not show you its client secret. Get a new one with \`/pix rotate-secret <clientId>\`.`,
    createdButAppFailed: (p: { account: string; name: string; problem: string }) =>
      `:warning: The account ${p.account} (${p.name}) was created, but its application could not be: ${p.problem}`,
    appStillFailed: (p: { account: string; problem: string }) =>
      `:warning: The application of account ${p.account} could still not be created: ${p.problem}`,
    retryNote:
      'The account exists, without an application (and so without an AppID). Retrying creates only the application, for this account.',
    noAppIdInAnswer: (accountId: string) =>
      `:warning: The service’s answer had no AppID, so none was stored. Register it with \`/pix account link ${accountId}\`.`,
    nothingCreated: ' No account was created.',
    accountCreated: (account: string) => `Account ${account} created. Creating its application…`,
    creatingAccount: 'Creating the account…',
    enterName: 'Enter the campaign name.',
    nameTooLong: (max: number) => `At most ${max} characters.`,
    createOutOfDate: 'This form is out of date; close it and run /pix account create again.',
    alreadySubmitted: 'This form was already submitted; its result is shown here and posted in the channel. Nothing more was done.',
    campaignAccount: 'Campaign account',
    alreadyHasApp: (p: { account: string; clientId?: string }) =>
      `Account ${p.account} already has its application${p.clientId ? ` ${p.clientId}` : ''}. Nothing was created.`,
    appBeingCreated: (account: string) => `The application of account ${account} is being created right now. Nothing more was done.`,
    appIdRefused: (apiText?: string) => `The Pix API does not accept this AppID${apiText ? ` (“${apiText}”)` : ''}. Nothing was stored.`,
    nothingStored: (problem: string) => `${problem} Nothing was stored.`,
    appIdNoAccount: 'The Pix API did not say which account this AppID belongs to, so it was not stored.',
    appIdOtherAccount: (p: { bound: string; accountId: string }) =>
      `This AppID belongs to another account (${p.bound}), not ${p.accountId}. Nothing was stored.`,
    appIdNotStored: 'The AppID is right, but it could not be stored. Try again in a moment.',
    linked: (p: { account: string; accountId: string }) =>
      `:white_check_mark: The AppID of account ${p.account} was checked with the Pix API and stored encrypted. Its Pix keys can now be managed with \`/pix keys ${p.accountId}\`.`,
    linkOutOfDate: 'This form is out of date; close it and run /pix account link again.',
    enterAppId: 'Enter the AppID.',
    notAnAppId: 'That is not an AppID: it has no spaces or line breaks.',
    checkingAppId: 'Checking the AppID with the Pix API…',
    noAppIdKnown: (p: { account: string; accountId: string }) =>
      `No AppID is known for account ${p.account}, so I cannot manage its Pix keys. An admin can register it with \`/pix account link ${p.accountId}\`.`,
    pendingApp: (p: { account: string; accountId: string }) =>
      `Account ${p.account} has no application yet (its creation failed). An admin can retry it with *Retry creating the application* in the channel, or register an AppID with \`/pix account link ${p.accountId}\`.`,
    notAmongAccounts: (account: string) => `Account ${account} is not among the company’s accounts (not found).`,
    staleAppId: (p: { account: string; accountId: string }) =>
      `The Pix API refused the AppID stored for account ${p.account} after its application’s secret was rotated, so I no longer use it. An admin can link the account’s new AppID with \`/pix account link ${p.accountId}\`. Nothing was done.`,
    listPage: (p: { from: number; to: number; total: number; page: number; pages: number }) =>
      `Accounts ${p.from}–${p.to} of ${p.total} · page ${p.page} of ${p.pages}. Read one with \`/pix account <accountId>\`.`,
  },

  pixKeys: {
    title: (p: { account: string; isDefault: boolean; campaign?: string }) =>
      `Pix keys of account ${p.account}${p.isDefault ? ' (default account)' : ''}${p.campaign ? ` · campaign ${p.campaign}` : ''}`,
    none: '_No Pix keys yet._',
    delete: 'Delete',
    add: 'Add a Pix key',
    rolesNote: 'Adding a key needs the operator role; deleting one, the admin role (and a confirmation).',
    text: (p: { count: number; accountId: string }) => `${p.count} Pix key(s) of account ${p.accountId}`,
    typeEmail: 'E-mail',
    typePhone: 'Phone (+55…)',
    typeCpf: 'CPF',
    typeCnpj: 'CNPJ',
    typeEvp: 'Random key (EVP)',
    addTitle: 'Add a Pix key',
    addSubmit: 'Add key',
    addIntro: (account: string) => `New Pix key for account ${account}.`,
    typeLabel: 'Type',
    keyLabel: 'Key',
    keyHint:
      'E-mail: name@example.com · Phone: +5511987654321 · CPF: 11 digits · CNPJ: 14 · Random key: a UUID, or empty to let the service create one.',
    deleteConfirm: (p: { key: string; account: string }) =>
      `Delete the Pix key ${p.key} of account ${p.account}? After deletion *no money can be sent to this key*.`,
    deleteConfirmText: (p: { key: string; accountId: string }) =>
      `Delete the Pix key ${p.key} of account ${p.accountId}? After deletion no money can be sent to this key.`,
    deleteButton: 'Delete the key',
    viaBoth: 'The company already had this key, so it was selected (PUT).',
    viaPut: 'Selected (PUT).',
    viaPost: 'Registered and selected (POST).',
    withdrawResult: (p: { account: string; key: string }) => `:white_check_mark: Withdraw key of account ${p.account}: ${p.key}`,
    noWithdrawInAnswer: 'The service’s answer did not include `pixKeyWithdraw`.',
    withdrawText: (p: { accountId: string; key: string }) => `Withdraw key of account ${p.accountId} set to ${p.key}`,
    auditAdded: (p: { user: string; key: string; type: string; account: string }) =>
      `${p.user} added the Pix key ${p.key} (${p.type}) to account ${p.account}.`,
    auditDeleted: (p: { user: string; key: string; account: string }) =>
      `${p.user} deleted the Pix key ${p.key} of account ${p.account}; no money can be sent to it any more.`,
    auditWithdraw: (p: { user: string; account: string; key: string }) =>
      `${p.user} set the withdraw key of account ${p.account} to ${p.key}.`,
    wrongAppId: (p: { account: string; bound: string; accountId: string }) =>
      `The AppID known for account ${p.account} answers for account ${p.bound}, so its keys are not shown. An admin can register the right one with \`/pix account link ${p.accountId}\`.`,
    chooseType: 'Choose the type of the key.',
    adding: 'Adding the key…',
    added: (p: { key: string; account: string }) => `:white_check_mark: The Pix key ${p.key} was added to account ${p.account}.`,
    deleted: (p: { key: string; account: string }) =>
      `:wastebasket: The Pix key ${p.key} of account ${p.account} was deleted; no money can be sent to it any more.`,
    beingDeleted: 'This key is being deleted right now. Nothing more was done.',
    cancelled: 'Cancelled: nothing was deleted.',
    withdrawNotEnabled: (p: { account: string; apiText?: string }) =>
      `Could not set the withdraw key of account ${p.account}: the withdraw-key API is not enabled on this account${p.apiText ? ` (“${p.apiText}”)` : ''}. Ask the Pix service to enable it. Nothing was changed.`,
    page: (p: { from: number; to: number; total: number; page: number; pages: number }) =>
      `Keys ${p.from}–${p.to} of ${p.total} · page ${p.page} of ${p.pages}`,
  },

  /** Why a typed Pix key was refused. */
  pixKeyValues: {
    emailEmpty: 'Enter the e-mail address.',
    emailTooLong: (max: number) => `An e-mail key has at most ${max} characters.`,
    emailInvalid: 'Not an e-mail address: write it like name@example.com.',
    phoneEmpty: 'Enter the phone number, like +5511987654321.',
    phoneNoCountry: 'A phone key starts with +55, then the area code and the number, like +5511987654321.',
    phoneInvalid: 'Not a Brazilian mobile number: +55, a two-digit area code and nine digits starting with 9, like +5511987654321.',
    cpfEmpty: 'Enter the CPF (11 digits).',
    cpfLength: 'A CPF has 11 digits, like 123.456.789-09.',
    cpfInvalid: 'Not a valid CPF: its check digits do not match.',
    cnpjEmpty: 'Enter the CNPJ (14 characters).',
    cnpjLength: 'A CNPJ has 14 characters, like 12.345.678/0001-95.',
    cnpjInvalid: 'Not a valid CNPJ: its check digits do not match.',
    evpInvalid: 'A random key is a UUID like 123e4567-e89b-42d3-a456-426614174000. Leave it empty to let the service create one.',
    noKey: 'No Pix key given.',
    unrecognized: 'That is not a Pix key: an e-mail, a phone like +5511987654321, a CPF (11 digits), a CNPJ (14) or a random key (a UUID).',
  },

  applications: {
    scopesTitle: '*Scopes an application can request*',
    scopeGroupsText: (p: { groups: number; scopes: number }) => `${p.groups} scope groups, ${p.scopes} scopes`,
    noneInGroup: '_none_',
    noScopes: 'The Pix API listed no scopes.',
    noScopesItalic: '_The Pix API listed no scopes._',
    scopesText: (n: number) => `${n} scopes`,
    notGrouped: 'Shown as the service sent them (not in groups).',
    newSecret: (p: { clientId: string; secret: string }) =>
      `:key: New client secret of application ${p.clientId} (only you see this, only once; Pix Ops does not keep it):\n\`\`\`${p.secret}\`\`\``,
    noSecretRead: (clientId: string) =>
      `:key: The secret of application ${clientId} was rotated, but the service’s answer had no \`clientSecret\` I could read.`,
    oldSecretDead: 'The old secret no longer works. Update whatever uses it.',
    newAppIdShown: (appId: string) =>
      `The service also sent a new AppID for this application (only you see it, only this once):\n\`\`\`${appId}\`\`\`\nIf it is one the bot runs with (\`PIX_APP_ID\` or \`PIX_MASTER_APP_ID\`), put it in the bot’s environment and restart the bot.`,
    storedAppIdReplaced: (account: string) =>
      `The AppID the bot stores for account ${account} was replaced by the new one (stored encrypted, not shown).`,
    storedAppIdWorks: (account: string) =>
      `The AppID the bot stores for account ${account} still works: a read of its Pix keys with it was accepted.`,
    storedAppIdStale: (p: { account: string; accountId: string }) =>
      `The AppID the bot stores for account ${p.account} no longer works (the Pix API refused it), so the bot will not use it again. Link the account’s new AppID with \`/pix account link ${p.accountId}\`.`,
    storedAppIdUnchecked: (p: { account: string; accountId: string; problem: string }) =>
      `I could not check whether the AppID stored for account ${p.account} still works (${p.problem}). If its Pix keys are refused, link its new AppID with \`/pix account link ${p.accountId}\`.`,
    rotatedText: (clientId: string) => `The secret of application ${clientId} was rotated.`,
    auditRotated: (p: { user: string; clientId: string }) =>
      `${p.user} rotated the client secret of application ${p.clientId}. The new secret was shown only to them.`,
    masterMissing:
      'Rotating a secret needs the MASTER application, and no `PIX_MASTER_APP_ID` is set. Set it in the bot’s environment and restart it. Nothing was rotated.',
  },

  paymentBook: {
    repeatIsSafe: 'Repeating this command does not charge again: the Pix service issues each installment only once.',
    title: (p: { subscriptionId: string; period: string }) => `Payment booklet ${p.subscriptionId} up to ${p.period}`,
    comment: (p: { subscriptionId: string; period: string; user: string }) =>
      `Payment booklet of subscription ${p.subscriptionId}: the installments up to ${p.period}, issued by ${p.user}.`,
    posted: (p: { subscription: string; period: string; file: string; size: string }) =>
      `:white_check_mark: Payment booklet of subscription ${p.subscription} up to ${p.period} posted here as ${p.file} (${p.size}).`,
    notInChannel: (p: { subscription: string; period: string }) =>
      `The booklet of subscription ${p.subscription} up to ${p.period} was issued, but I cannot post files in this channel. Invite me with \`/invite @Pix Ops\` (or run the command in a DM with me) and run it again.`,
    postFailed: (p: { subscription: string; period: string; slackError: string }) =>
      `The booklet of subscription ${p.subscription} up to ${p.period} was issued, but Slack refused the file (${p.slackError}), so it was not posted.`,
    notAPdf: (subscription: string) =>
      `The Pix service answered the booklet of subscription ${subscription} with something that is not a PDF, so nothing was posted.`,
    noAnswer: (p: { subscription: string; period: string; detail: string }) =>
      `The Pix service did not answer properly while issuing the booklet of subscription ${p.subscription} up to ${p.period} (${p.detail}); some installments may have been issued. Nothing was posted.`,
    notAMonth: (text: string) => `“${text}” is not a month: write a number from 1 to 12.`,
    notAYear: (p: { text: string; example: number }) => `“${p.text}” is not a year: write four digits, like ${p.example}.`,
    tooLate: (p: { latest: string; asked: string }) =>
      `The booklet can be issued up to ${p.latest} (the end of next year); ${p.asked} is later.`,
  },

  evidence: {
    title: 'Dispute evidence',
    intro: (dispute: string) => `Evidence for dispute ${dispute}`,
    introNote: 'Each file is uploaded to the Pix service as dispute evidence, then attached to the dispute by its file id.',
    filesLabel: 'Evidence files',
    filesHint: (max: number) => `PDF, PNG, JPEG or WebP, at most 10 MiB each, ${max} files at once.`,
    noteLabel: 'Note',
    noteHint:
      'Posted in this channel with the record of what was sent. The Pix API has no documented field for a note, so it is not sent to the service.',
    submit: 'Send evidence',
    progressNote: 'You can close this window: the files keep going up, and the result is posted in the channel.',
    sentTitle: (p: { dispute: string; user: string }) => `*Dispute evidence sent* for dispute ${p.dispute} by ${p.user}`,
    fileLine: (p: { name: string; fileId: string }) => `• ${p.name} (file ${p.fileId})`,
    note: (text: string) => `*Note:* ${text}`,
    sentText: (p: { disputeId: string; count: number }) => `Dispute evidence sent for dispute ${p.disputeId}: ${p.count} file(s)`,
    featureOff: (apiText?: string) =>
      [
        ':no_entry: The Pix service does not accept evidence by uploaded file for this company: the feature `DISPUTE_EVIDENCE_FILE_ID` is not enabled for it',
        `(error code \`DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED\`${apiText ? `, “${apiText}”` : ''}).`,
        'Ask the Pix service to enable it for the company, then send the evidence again.',
        'The files were uploaded, but nothing was attached to the dispute.',
      ].join(' '),
    attachEvidence: 'Attach at least one evidence file (PDF, PNG, JPEG or WebP).',
    tooManyFiles: (p: { max: number; count: number }) => `At most ${p.max} files at once: ${p.count} are attached.`,
    uploading: (p: { index: number; total: number }) => `Uploading evidence ${p.index} of ${p.total}…`,
    uploadingNamed: (p: { index: number; total: number; name: string }) => `Uploading evidence ${p.index} of ${p.total}: ${p.name}`,
    attaching: 'Attaching the files to the dispute…',
    recordPosted: 'Its record is posted in the channel.',
    recordInDm: 'I could not post its record in the channel, so it is in a DM to you.',
    recordNowhere: 'I could not post its record in the channel or in a DM.',
    attached: (p: { count: number; dispute: string; where: string }) =>
      `:white_check_mark: ${p.count === 1 ? 'The file is' : `The ${p.count} files are`} attached to dispute ${p.dispute} as evidence. ${p.where}`,
    nothingAttached: 'Nothing was attached to the dispute.',
    uploadedNotAttached: (count: number) =>
      `${count === 1 ? 'The file was' : 'The files were'} uploaded, but nothing was attached to the dispute.`,
    uploadedMaybeAttached: (count: number) =>
      `${count === 1 ? 'The file was' : 'The files were'} uploaded, but may or may not be attached to the dispute: check before sending again.`,
    wentWrong: (after: string) => `Something went wrong while sending the evidence. ${after}`,
  },

  statement: {
    balance: (amount: string) => `balance ${amount}`,
    entryWithout: '_(an entry with no date, description or amount)_',
    /** Whose statement: with `title` and the other texts, `Statement of the main account` (pt-BR: `Extrato da conta principal`). */
    mainAccount: 'the main account',
    account: (account: string) => `account ${account}`,
    title: (whose: string) => `*Statement of ${whose}*`,
    noList: 'The service answered without a list of entries; this is what it sent:',
    emptyAnswer: '_The service sent an empty answer._',
    answered: (value: string) => `The service answered: ${value}`,
    timesNote: 'Times are Brasília time.',
    text: (whose: string) => `Statement of ${whose}`,
    noEntries: '_No entries._',
    page: (p: { whose: string; from: number; to: number; total: number; page: number; pages: number }) =>
      `*Statement of ${p.whose}* · entries ${p.from}–${p.to} of ${p.total} · page ${p.page} of ${p.pages}`,
    alsoInAnswer: (list: string) => `Also in the answer: ${list}`,
    order: 'Entries in the order the service sent them.',
    readFrom: (path: string) => `(Read from ${path}.)`,
    textEmpty: (whose: string) => `Statement of ${whose}: no entries`,
    textPage: (p: { whose: string; page: number; pages: number }) => `Statement of ${p.whose}, page ${p.page} of ${p.pages}`,
    transactionTitle: (p: { id: string; account?: string }) => `*Transaction* ${p.id}${p.account ? ` of account ${p.account}` : ''}`,
    moreFields: (n: number) => `${n} more fields not shown.`,
    answeredList: 'The service answered with a list:',
    transactionText: (id: string) => `Transaction ${id}`,
    otherAccountHint: (how: string) => `Reading another account with \`companyBankAccount\` needs a MASTER application: ${how}`,
    otherAccountWithMaster: 'the company needs the feature `MASTER_APP_READ_ANY_ACCOUNT` enabled by the Pix service.',
    otherAccountWithoutMaster:
      'set `PIX_MASTER_APP_ID` (only a MASTER application may do it) and have the feature `MASTER_APP_READ_ANY_ACCOUNT` enabled for the company.',
  },

  home: {
    thread: 'thread',
    threadIn: (channel: string) => `thread in ${channel}`,
    inReviewTitle: '*Limit requests in review* that Pix Ops follows',
    inReviewNone: 'None right now. Requests filed with `/pix limit request` (or followed from `/pix limit status`) appear here.',
    inReviewLine: (p: { id: string; account: string; age: string; user: string; where: string }) =>
      `${p.id} · account ${p.account} · filed ${p.age} by ${p.user} · ${p.where}`,
    andMoreOldest: (n: number) => `And ${n} more, oldest shown first.`,
    decisionsTitle: '*Latest decisions*',
    decisionsNone: 'No decided limit requests yet.',
    asked: (p: { label: string; amount: string }) => `${p.label} asked ${p.amount}`,
    askedNoneGranted: (p: { label: string; amount: string }) => `${p.label} asked ${p.amount}, none granted`,
    granted: (p: { label: string; amount: string }) => `${p.label} *${p.amount}*`,
    grantedBelow: (p: { label: string; amount: string; asked: string }) => `${p.label} *${p.amount}* (asked ${p.asked}) :warning:`,
    decided: (when: string) => `decided ${when}`,
    account: (account: string) => `account ${account}`,
    keysButton: 'Pix keys',
    accountsTitle: '*Accounts*',
    accountsNone: 'The Pix API lists no accounts.',
    defaultTag: ' (default)',
    noBalance: '_No balance in the answer._',
    withdrawKey: (p: { key: string; type: string }) => `Withdraw key: ${p.key} (${p.type})`,
    withdrawBlocked: ':warning: *Withdraw blocked*: its withdraw Pix key was not found in the DICT.',
    accountsMore: (n: number) => `And ${n} more: \`/pix accounts\` lists them all.`,
    requestButton: 'Request a limit increase',
    refreshButton: 'Refresh',
    header: 'Pix Ops',
    intro: (p: { role: string; updated: string }) =>
      `You are *${p.role}*. Updated ${p.updated} (Brasília time). \`/pix help\` lists every command.`,
    keysTitle: (account: string) => `*Pix keys of account* ${account}`,
    keysLoading: ':hourglass_flowing_sand: Reading the keys…',
    keysNone: '_This account has no Pix keys._',
    keysHowTo: (accountId: string) => `To add or delete keys: \`/pix keys ${accountId}\`.`,
    keysModalTitle: 'Pix keys',
    noAppId: 'Pix Ops has no AppID for this account (it was not created with `/pix account create`), so its keys cannot be read from here.',
  },

  /** Following a filed request when something fails on the way: its filing, its thread, its reads. */
  tracking: {
    filedByDm: 'I could not post its message in the channel or in a DM just now, so its decision will be sent to you in a direct message.',
    filedNotRecorded:
      'The app’s storage failed while recording it: it will be followed as soon as the storage answers, and the decision will still reach you. Do not file it again.',
    maybeFiled:
      'If it was filed, its message will be posted and it will be followed like any other (if not, you will be told in a direct message): check `/pix limit list` before filing it again.',
    notFiled: (p: { account: string; when: string }) =>
      `Your limit request for account ${p.account} (started ${p.when}, Brasília time) is not among the company’s requests: it was not filed. Check \`/pix limit list\` and file it again if you still need it.`,
    notFiledText: 'A limit request was not filed',
    decisionByDm: (thread: boolean): string =>
      thread
        ? 'Its thread could not be reached (the message was deleted, or I was removed from the channel, or it was archived), so the decision comes here.'
        : 'Its message could not be posted in a channel, so the decision comes here.',
    unfollowedNotice: (p: {
      mention: string;
      id: string;
      status: number;
      reads: number;
      minutes: number;
      command: string;
      said?: string;
    }) =>
      `${p.mention} I stopped following the limit request ${p.id}: the Pix service answered ${p.status} (${p.status === 404 ? 'not found' : 'forbidden'}) to its last ${p.reads} reads, over ${p.minutes} minutes.${p.said ? ` The Pix service said: “${p.said}”.` : ''} Check it with ${p.command} or in the Pix dashboard.`,
    unfollowedText: (id: string) => `Limit request ${id} is no longer followed`,
    unfollowedStatus: 'No longer followed',
  },

  /** Asked before what cannot be undone: the withdraw key, a secret's rotation. */
  confirmations: {
    withdraw: (p: { key: string; account: string }) =>
      `Set ${p.key} as the withdraw key of account ${p.account}? From then on *withdrawals from this account go to this key*.`,
    withdrawText: (p: { key: string; accountId: string }) =>
      `Set ${p.key} as the withdraw key of account ${p.accountId}? From then on withdrawals from this account go to this key.`,
    withdrawButton: 'Set the withdraw key',
    withdrawCancelled: 'Cancelled: the withdraw key was not changed.',
    withdrawBeingSet: 'The withdraw key of this account is being set right now. Nothing more was done.',
    rotate: (clientId: string) =>
      `Rotate the client secret of application ${clientId}? *The current secret stops working at once*: whatever uses it fails until it is given the new one.`,
    rotateText: (clientId: string) => `Rotate the client secret of application ${clientId}? The current secret stops working at once.`,
    rotateButton: 'Rotate the secret',
    rotateCancelled: 'Cancelled: the secret was not rotated.',
    rotateBeingDone: 'This secret is being rotated right now. Nothing more was done.',
    alreadyConfirmed: 'This was already confirmed. Nothing more was done.',
    buttonNoClientId: 'This button does not name an application. Nothing was done.',
  },

  /**
   * A campaign account's application whose creation got no clear answer: it may exist, and the Pix
   * API offers no way to list an account's applications, so Pix Ops does not create one blindly.
   */
  appCreation: {
    reasonTimeout: 'the Pix service did not answer in time',
    reasonNetwork: 'the connection to the Pix service broke before its answer',
    reasonGateway: (status: number) => `a gateway answered HTTP ${status} instead of the Pix service`,
    reasonUnreadable: 'the Pix service’s answer could not be read',
    reasonUnknown: 'something went wrong while waiting for the answer',
    uncertain: (p: { account: string; name: string; reason: string }) =>
      `:warning: The account ${p.account} (${p.name}) was created, but whether its application was is not known: ${p.reason}. *It may exist.*`,
    uncertainAgain: (p: { account: string; reason: string }) =>
      `:warning: Whether the application of account ${p.account} was created is not known: ${p.reason}. *It may exist.*`,
    stillUncertain: (account: string) =>
      `:warning: An earlier attempt to create the application of account ${account} got no clear answer: *it may exist*. Nothing was created.`,
    auditUncertain: (p: { user: string; account: string; name: string; reason: string }) =>
      `${p.user} created the campaign account ${p.account} (${p.name}); whether its application was created is not known (${p.reason}): it may exist.`,
    note: (accountId: string) =>
      `The Pix API offers no way to list an account’s applications, so Pix Ops cannot look, and does not create a second one on its own. Look in the Pix service’s portal. If the account has an application, register its AppID with \`/pix account link ${accountId}\` (and get a new client secret with \`/pix rotate-secret <clientId>\` if you need one). If it has none, create it with the button.`,
    anywayButton: 'It has none: create it',
    anywayTitle: 'Create the application?',
    anywayText: 'Only if the Pix service’s portal shows no application for this account: if it has one, this creates a second one.',
    anywayConfirm: 'Create it',
    notMarked: 'The app’s storage is unavailable, so the attempt could not be recorded before it was sent. Nothing was sent; try again.',
    statusUncertain: (accountId: string) =>
      `:warning: its application may exist (its creation got no clear answer): check the Pix service’s portal, then \`/pix account link ${accountId}\`, or create it from the message in the channel`,
  },

  /** `/pix audit` and its CSV export. */
  audit: {
    title: (p: { days: number; page: number }) =>
      `*Audit trail*: the last ${p.days === 1 ? 'day' : `${p.days} days`}, newest first · page ${p.page}`,
    text: (p: { days: number; page: number; count: number }) =>
      `Audit trail, the last ${p.days === 1 ? 'day' : `${p.days} days`}, page ${p.page}: ${p.count === 1 ? '1 entry' : `${p.count} entries`}`,
    empty: (days: number) => `No audit entries in the last ${days === 1 ? 'day' : `${days} days`}.`,
    emptyPage: 'No more entries here.',
    noRole: 'no role',
    /** An entry's outcome (its code in the CSV). */
    outcome: (outcome: string) =>
      ({
        ok: 'done',
        failed: 'failed',
        error: 'error',
        usage: 'wrong arguments',
        refused: 'refused',
        pending: 'pending approval',
        approved: 'approved',
        rejected: 'rejected',
        cancelled: 'cancelled',
        expired: 'expired',
        escalated: 'escalated',
      })[outcome] ?? outcome,
    maker: (user: string) => `maker ${user}`,
    checker: (user: string) => `checker ${user}`,
    footer: 'Brasília time. Pix keys are masked. `/pix audit export [from] [to]` sends the trail as a CSV file.',
    buttonNoPage: 'This button does not name a page of the audit trail. Nothing was done.',
    exporting: (p: { from: string; to: string }) => `Preparing the audit trail from ${p.from} to ${p.to}…`,
    exportEmpty: (p: { from: string; to: string }) => `No audit entries from ${p.from} to ${p.to}; nothing was sent.`,
    exportDone: (p: { count: number; from: string; to: string }) =>
      `The audit trail from ${p.from} to ${p.to} (${p.count === 1 ? '1 entry' : `${p.count} entries`}) is in your direct messages with Pix Ops.`,
    exportComment: (p: { count: number; from: string; to: string }) =>
      `Pix Ops audit trail, ${p.from} to ${p.to} (São Paulo time): ${p.count === 1 ? '1 entry' : `${p.count} entries`}.`,
    exportFailed: (code: string) => `Could not send the export to your direct messages: Slack answered ${code}.`,
    columnTime: 'time (UTC)',
    columnUser: 'user',
    columnRole: 'role',
    columnAction: 'action',
    columnTarget: 'target',
    columnPixMethod: 'Pix method',
    columnPixPath: 'Pix path',
    columnPixStatus: 'Pix status',
    columnMaker: 'maker',
    columnChecker: 'checker',
    columnOutcome: 'outcome',
    columnDetail: 'detail',
  },

  /** Money out: a payment's or a withdraw's approval root, its sending, and what its thread says. */
  moneyOut: {
    amount: (value: string) => `Amount: *${value}*`,
    fromAccount: (p: { account: string; available: string; at: string }) =>
      `From account ${p.account}: available balance ${p.available} (read on ${p.at})`,
    balanceShort:
      ':warning: The available balance is lower than the amount: it may be approved ahead of the money, and it is sent only if the balance covers it then.',
    balanceUnread: (account: string) => `From account ${account}: its balance could not be read when this was asked`,
    receiver: (p: { name: string; taxId: string; bank: string }) => `Receiver: *${p.name}*, tax ID ${p.taxId}, ${p.bank}`,
    unknownPart: 'not shown',
    receiverUnverified:
      ':warning: The receiver could not be verified before sending (the company does not have the Pix key check): who receives the money is shown once it is sent.',
    key: (p: { key: string; type: string }) => `Pix key: ${p.key} (${p.type})`,
    comment: (text: string) => `Comment: ${text}`,
    withdrawTo: (p: { key: string; type: string }) => `To the account’s withdraw key ${p.key} (${p.type})`,
    withdrawNoKey: 'To the account’s withdraw key (none is set now)',
    sending: (p: { checkers: string; at: string }) => `:hourglass_flowing_sand: Approved by ${p.checkers} on ${p.at}: sending…`,
    sent: (p: { sender: string; checkers: string; at: string }) =>
      `:outbox_tray: *Sent* on ${p.at}, on ${p.sender}’s approval; approved by ${p.checkers}. Its confirmation follows in the thread.`,
    statusRead: (status: string) =>
      `The service already had this payment, with status \`${status}\`: it was not approved again (the service approves a payment only while it is created).`,
    short: (p: { checkers: string; at: string; available: string; read: string }) =>
      `:warning: Approved by ${p.checkers} on ${p.at}, *not sent*: the account’s available balance (${p.available}, read on ${p.read}) does not cover it. The payment waits at the service; when the money has come in, anyone who may approve it (not the maker) can retry it, once.`,
    shortNoBalance: (p: { checkers: string; at: string }) =>
      `:warning: Approved by ${p.checkers} on ${p.at}, *not sent*: the account does not have the balance. The payment waits at the service; when the money has come in, anyone who may approve it (not the maker) can retry it, once.`,
    retryButton: 'Retry the payment',
    retryWho: (p: { role: string; listed: boolean }) =>
      `Anyone but the maker with the ${p.role} role${p.listed ? ' who is listed in `ACCESS_APPROVERS`' : ''} may retry it; one retry sends it.`,
    retryConfirmTitle: 'Send this payment now?',
    retryConfirmText: (amount: string) => `${amount} leaves the account as soon as you confirm.`,
    confirmed: (at: string) => `:white_check_mark: *Confirmed* on ${at}.`,
    failedStage: (p: { code: string; description: string }) => `:x: *The payment failed* (${p.code}): ${p.description}`,
    removed: ':wastebasket: *Removed* in the service’s web app: it was not sent.',
    endToEnd: (id: string) => `End-to-end ID: ${id}`,
    withdrawn: (at: string) => `:white_check_mark: *Withdrawn* on ${at}.`,
    balanceAfter: (balance: string) => `Available balance after: ${balance}`,
    unknown: (p: { checkers: string; at: string }) =>
      `:grey_question: Approved by ${p.checkers} on ${p.at}. The withdraw was sent, but its answer never came: *its outcome is unknown*, and it is *not* sent again (the service has no way to tell a second one from the first). Check the account’s balance and statement before asking again.`,
    balanceNow: (p: { available: string; at: string }) => `Available balance: ${p.available} (read on ${p.at})`,
    balanceNotRead: 'The account’s balance could not be read.',
    latestEntries: '*Latest statement entries*',
    noEntries: 'The statement could not be read, or shows no entries.',
    sentThread: (p: { name: string; taxId: string; bank: string; endToEndId: string }) =>
      `:outbox_tray: Sent to *${p.name}*, tax ID ${p.taxId}, ${p.bank}\nEnd-to-end ID: ${p.endToEndId}`,
    shortThread: (p: { available: string }) =>
      `Not sent: the account’s available balance (${p.available}) does not cover the amount. The payment stays created at the service; use *Retry the payment* on the message above once the money has come in.`,
    withdrawnThread: (p: { endToEndId: string; balance: string }) =>
      `:white_check_mark: Withdrawn. End-to-end ID: ${p.endToEndId}. Available balance after: ${p.balance}.`,
    unknownThread:
      'The withdraw’s answer never came: its outcome is unknown, and it is not sent again. The message above shows the account’s balance and latest statement entries.',
    dayLimitRefused: (p: { total: string; amount: string; limit: string }) =>
      `Not sent: today’s payments and withdrawals (São Paulo day) add up to ${p.total} so far, and this one (${p.amount}) would take them above the day’s limit of ${p.limit} (\`PAY_DAY_LIMIT\`). Nothing was sent; it still waits for approval, for a later approval or the next day.`,
    dayLimitRetry: (p: { total: string; amount: string; limit: string }) =>
      `Not sent: today’s payments and withdrawals (São Paulo day) add up to ${p.total} so far, and this one (${p.amount}) would take them above the day’s limit of ${p.limit} (\`PAY_DAY_LIMIT\`). Nothing was sent; it can be retried later, or the next day.`,
    retryNotShort: 'This payment is not waiting for a retry any more. Nothing was done.',
    retried: 'Retrying: the root shows how it went.',
    createRefused: (text: string) => `The service refused to create the payment: ${text}`,
    approveRefused: (text: string) => `The service refused to approve the payment: ${text}`,
    noSuchAccount: (account: string) => `Account ${account} is not one of the company’s accounts.`,
    aboveZero: 'The amount must be above zero.',
    withdrawNoWithdrawKey: (account: string) =>
      `Account ${account} has no withdraw key: set one with \`/pix withdraw-key\` first. Nothing was sent.`,
    withdrawBlocked: (account: string) =>
      `Withdrawals from account ${account} are blocked: the DICT did not find its withdraw key. Set another withdraw key (\`/pix withdraw-key\`) first. Nothing was sent.`,
    aboveBalance: (p: { account: string; amount: string; available: string }) =>
      `${p.amount} is above the available balance of account ${p.account} (${p.available}). Nothing was sent.`,
    balanceNotReported: (account: string) => `The service did not report the balance of account ${account}; nothing was sent.`,
    withdrawRefused: (text: string) => `The service refused the withdraw: ${text}`,
    withdrawNowBlocked: 'The account’s withdrawals are now blocked: the DICT did not find its withdraw key. Set another withdraw key.',
  },

  /** Four-eyes approvals: the pending root, its states, its thread, the reject form, the answers. */
  approvals: {
    /** The action in words, as a title. */
    actionTitle: (action: ApprovalAction): string =>
      ({
        'limit-request': 'File a limit request',
        'key-add': 'Add a Pix key',
        'key-delete': 'Delete a Pix key',
        'withdraw-key': 'Set the withdraw key',
        'account-create': 'Create a campaign account',
        'rotate-secret': 'Rotate an application’s secret',
        pay: 'Pay a Pix key',
        withdraw: 'Withdraw from an account',
      })[action],
    pendingHead: (title: string) => `:raised_hand: *Approval needed: ${title}*`,
    stateWord: (state: string): string =>
      ({
        pending: 'waiting for approval',
        approving: 'approved, running',
        done: 'approved and done',
        failed: 'approved, but it failed',
        rejected: 'rejected',
        cancelled: 'cancelled',
        expired: 'expired',
      })[state] ?? state,
    askedBy: (p: { maker: string; at: string }) => `Asked by ${p.maker} on ${p.at}.`,
    expires: (at: string) => `Waits until ${at}; then it expires and nothing is sent.`,
    whoMayApprove: (p: { role: string; listed: boolean }) =>
      `Anyone but the maker with the ${p.role} role${p.listed ? ' who is listed in `ACCESS_APPROVERS`' : ''} may approve or reject it; the maker may cancel it.`,
    willSend: '*What will be sent*',
    account: (account: string) => `Account: ${account}`,
    pixKey: (p: { key: string; type: string }) => `Pix key: ${p.key} (${p.type})`,
    randomKey: 'Pix key: a random key (EVP), made by the service',
    keyToDelete: (key: string) => `Pix key to delete: ${key}`,
    deleteWarning: 'Once deleted, no money can be sent to this key.',
    withdrawKey: (key: string) => `Withdraw key: ${key}`,
    campaign: (name: string) => `Campaign: ${name}`,
    accountCreateNote:
      'A new account (from the MASTER application’s account) and an API application for it; the client secret goes to the maker only.',
    application: (clientId: string) => `Application: ${clientId}`,
    rotateNote: 'The new client secret goes to the maker only.',
    proofs: (names: string) => `Proof files: ${names}`,
    description: (text: string) => `Description: ${text}`,
    reason: (text: string) => `Reason: ${text}`,
    approveButton: 'Approve',
    rejectButton: 'Reject',
    cancelButton: 'Cancel',
    confirmTitle: 'Approve this action?',
    confirmText: (title: string) => `${title}: the Pix API calls run as soon as you confirm.`,
    confirmYes: 'Approve',
    confirmNo: 'Not yet',
    approving: (p: { checker: string; at: string }) =>
      `:hourglass_flowing_sand: Approved by ${p.checker} on ${p.at}: sending it to the Pix API…`,
    done: (p: { checker: string; at: string }) => `:white_check_mark: Approved by ${p.checker} on ${p.at}, and done.`,
    failed: (p: { checker: string; at: string }) => `:x: Approved by ${p.checker} on ${p.at}, but it did not go through (see the thread).`,
    rejected: (p: { checker: string; at: string; reason: string }) =>
      `:no_entry: Rejected by ${p.checker} on ${p.at}: ${p.reason}. Nothing was sent to the Pix API.`,
    cancelled: (p: { maker: string; at: string }) =>
      `:heavy_multiplication_x: Cancelled by ${p.maker} on ${p.at}. Nothing was sent to the Pix API.`,
    expired: (at: string) => `:alarm_clock: Expired on ${at} without a decision. Nothing was sent to the Pix API.`,
    approvedBy: (p: { checker: string; maker: string }) => `Asked by ${p.maker}, approved by ${p.checker}.`,
    failedReply: (p: { maker: string; checker: string; problem: string }) =>
      `${p.maker}, what ${p.checker} approved did not go through: ${p.problem}`,
    rejectedReply: (p: { maker: string; checker: string; reason: string }) =>
      `${p.maker}, ${p.checker} rejected this: ${p.reason}. Nothing was sent to the Pix API.`,
    interrupted:
      'The app stopped while it was sending this, and the Pix API does not show whether it went through. It was not sent again: check before asking again.',
    selfRefused: 'You asked for this yourself: someone else must approve or reject it.',
    roleRefused: (p: { role: string; title: string }) => `You need the *${p.role}* role to approve or reject this (${p.title}).`,
    notApprover: (userId: string) =>
      `Only the approvers listed in \`ACCESS_APPROVERS\` may approve or reject this. Your user ID is \`${userId}\`.`,
    onlyMakerCancels: (maker: string) => `Only ${maker}, who asked for it, can cancel this.`,
    notFound: 'This approval does not exist (any more). Nothing was done.',
    alreadyApproved: (p: { checker: string; at: string }) => `Already approved by ${p.checker} on ${p.at}. Nothing more was done.`,
    alreadyRejected: (p: { checker: string; at: string }) => `Already rejected by ${p.checker} on ${p.at}.`,
    alreadyCancelled: (at: string) => `Already cancelled by the maker on ${at}.`,
    alreadyExpired: (at: string) => `Already expired on ${at}. Nothing was sent.`,
    busy: 'Someone else is deciding this right now; look at the message again in a moment.',
    rejectTitle: 'Reject',
    rejectSubmit: 'Reject',
    rejectIntro: (title: string) =>
      `*${title}*: say why it is rejected. The maker is told in the thread, and nothing is sent to the Pix API.`,
    reasonLabel: 'Reason',
    reasonRequired: 'Say why it is rejected.',
    rejectedDone: 'Rejected. The maker is told in the thread.',
    requesting: 'Sending it for approval…',
    sentForApproval: (p: { title: string; where: string }) =>
      `*${p.title}* is waiting for approval (${p.where}). Nothing is sent to the Pix API until someone else approves it.`,
    sentWhere: (channel: string) => `in ${channel}`,
    sentToDm: 'in a direct message with me, since I cannot post in that channel',
    notPosted: 'I could not post the approval request in the channel or in a direct message, so nothing will happen. Try again.',
    secretLead: (title: string) => `*${title}*, approved: only you see this.`,
    fileGone: (name: string) => `The proof file “${name}” cannot be read from Slack any more (deleted?).`,
    proofsGone: (problem: string) => `${problem} Nothing was filed.`,
    homeTitle: '*Actions waiting for approval*',
    homeNone: 'Nothing waiting for you.',
    homeLine: (p: { title: string; maker: string; age: string; expires: string }) =>
      `*${p.title}* · asked by ${p.maker} ${p.age} · waits until ${p.expires}`,
    homeYours: '_Yours: someone else approves it; you may cancel it._',
    homeMore: (n: number) => `And ${n} more, in their channels.`,
    filedAfterApproval: (p: { checker: string; at: string }) => `:white_check_mark: Filed once ${p.checker} approved it, on ${p.at}.`,
    notFiled: 'The app stopped while filing it, and the request is not among the company’s: it was not filed. Ask again.',
    /** Two checkers, escalation and delegation, on the root and in the answers. */
    checkerFor: (p: { checker: string; away: string }) => `${p.checker} for ${p.away}`,
    and: (people: string[]) => (people.length < 2 ? (people[0] ?? '') : `${people.slice(0, -1).join(', ')} and ${people.at(-1)}`),
    quorumNone: (needed: number) => `:busts_in_silhouette: Needs ${needed} approvals, by distinct checkers: none yet.`,
    quorumSoFar: (p: { given: number; needed: number; who: string }) =>
      `:ballot_box_with_check: ${p.given} of ${p.needed} approvals: ${p.who}. Nothing is sent until another checker approves it.`,
    quorumRecorded: (p: { given: number; needed: number }) =>
      `Your approval is recorded: ${p.given} of ${p.needed} approvals. Nothing is sent to the Pix API until another checker approves it.`,
    alreadyApprovedByYou: (p: { given: number; needed: number }) =>
      `You already approved this (${p.given} of ${p.needed} approvals): another checker must approve it. Nothing more was done.`,
    lookupFailed: 'I could not check your groups with Slack just now, so nothing was done. Try again in a moment.',
    escalatedLine: (at: string) =>
      `:rotating_light: Escalated on ${at}: members of the escalation list who hold the role may approve or reject it too.`,
    homeFor: (away: string) => `_You decide this for ${away}, who is away._`,
    homeAway: (p: { delegate: string; until: string }) =>
      `:palm_tree: You are away until the end of ${p.until}: ${p.delegate} decides for you.`,
    homeDelegate: (p: { away: string; until: string }) => `:handshake: You decide for ${p.away} until the end of ${p.until}.`,
  },
  /** Approval reminders, thresholds and the maker's standing. */
  approvalRules: {
    reminder: (p: { who: string; title: string; maker: string; age: string; expires: string; n: number; max: number }) =>
      `:bell: ${p.who}: *${p.title}*, asked by ${p.maker} ${p.age}, still waits for approval (reminder ${p.n} of ${p.max}). It expires on ${p.expires}.`,
    anyoneWithRole: (role: string) => `anyone with the ${role} role`,
    makerLostRole: (p: { maker: string; role: string }) =>
      `${p.maker} no longer has the *${p.role}* role this action needs, so nothing was sent to the Pix API.`,
    makerStandingUnknown: 'I could not check the maker’s role just now (Slack did not answer), so nothing was done. Try again in a moment.',
    makerUnreachable: (maker: string) =>
      `I could not open a direct message with ${maker}, where the new secret would go, so nothing was sent to the Pix API.`,
    secretUndelivered: (p: { maker: string; clientId: string }) =>
      `:warning: The new client secret could not be delivered to ${p.maker} privately, and it is shown nowhere else. Rotate it again: \`/pix rotate-secret ${p.clientId}\`.`,
    notRegistered:
      ':x: This approval request was not registered (the app’s storage failed): its buttons do nothing, and nothing will be sent. Ask again.',
    notRegisteredAnswer: 'This approval request was never registered, so nothing will be done. Ask again.',
    /** `/pix accounts`: a stored AppID the Pix API refused since its secret's rotation. */
    /** A delegate mentioned beside the away person they decide for. */
    delegateFor: (p: { delegate: string; away: string }) => `${p.delegate} (for ${p.away}, away)`,
    quorumSoFar: (p: { given: number; needed: number }) => `${p.given} of ${p.needed} approvals so far.`,
    /** A root in its maker's DM: approvers cannot see it, so its reminders go where they are, with this. */
    rootElsewhere: (link: string | undefined) =>
      `It was posted in ${link ? `<${link}|a direct message with its maker>` : 'a direct message with its maker'}: approve or reject it from the Pix Ops Home tab.`,
    escalation: (p: { who: string; title: string; maker: string; age: string; expires: string }) =>
      `:rotating_light: ${p.who}: *${p.title}*, asked by ${p.maker} ${p.age}, still waits for approval and is escalated to you: those of you who hold the role it needs may approve or reject it now. It expires on ${p.expires}.`,
    escalationDm: (p: { title: string; maker: string; age: string; expires: string; link?: string }) =>
      `:rotating_light: *${p.title}*, asked by ${p.maker} ${p.age}, still waits for approval and is escalated to you. ${p.link ? `<${p.link}|Open it>` : 'Find it in its channel'} to approve or reject it (it is on the Pix Ops Home tab too). It expires on ${p.expires}.`,
    escalationDmFor: (away: string) => `You get this as the delegate of ${away}, who is away.`,
    appStale: (p: { clientId?: string; accountId: string }) =>
      `:warning: AppID stored${p.clientId ? ` (application ${p.clientId})` : ''} but *stale*: the Pix API refused it after its secret was rotated, so it is not used. An admin can link the new one with \`/pix account link ${p.accountId}\``,
  },

  /** `/pix away`: delegation while away. */
  away: {
    usage: 'Give the last day you are away (YYYY-MM-DD) and who decides for you (@name).',
    notUser: 'Name who decides for you as a mention (@name) or a user ID (U…).',
    set: (p: { delegate: string; until: string }) =>
      `:palm_tree: Until the end of ${p.until} (São Paulo time), ${p.delegate} decides for you the approvals you could decide, when they hold the role an action needs and never their own. Reminders and escalations mention them beside you. \`/pix away off\` ends it.`,
    away: (p: { delegate: string; until: string }) =>
      `:palm_tree: You are away until the end of ${p.until} (São Paulo time): ${p.delegate} decides for you.`,
    notAway: 'You are not away: nobody decides for you.',
    decidingFor: (people: string) => `:handshake: You decide for ${people} while they are away.`,
    awayUntil: (p: { away: string; until: string }) => `${p.away} (until the end of ${p.until})`,
    ended: (delegate: string) => `:wave: Welcome back: ${delegate} no longer decides for you.`,
    nothingToEnd: 'You were not away: there was nothing to end.',
    refusedSelf: 'You cannot be your own delegate: name someone else.',
    refusedPast: 'That day is already over (São Paulo time): give today or a later day.',
    refusedTooFar: (last: string) => `A delegation ends at most 90 days ahead: ${last} at the latest.`,
    refusedDelegateAway: (p: { delegate: string; until: string }) =>
      `${p.delegate} is away themselves until the end of ${p.until}: name someone who is here.`,
    refusedApprovesNothing: 'You approve nothing here, so there is nothing to hand over.',
    refusedDelegateDecidesNothing: (p: { delegate: string; role?: string }) =>
      `${p.delegate} may decide nothing here: ${p.role ? `deciding an action that waits for approval takes the *${p.role}* role at least, and they do not have it` : 'no action waits for approval'}. Name someone who has it.`,
    lookupFailed: 'I could not check with Slack who holds which role just now, so nothing was set. Try again in a moment.',
  },

  /** Pix events: the dispute desk and the other kinds posted from the service's webhooks. */
  pixEvents: {
    disputeTitle: (status: string) => `*Pix dispute* · ${status}`,
    disputeText: (p: { status: string; value: string; e2e: string }) => `Pix dispute ${p.e2e}: ${p.status}, ${p.value}`,
    status: (status: string): string =>
      ({ OPENED: 'open', ACCEPTED: 'accepted', REJECTED: 'rejected', CANCELED: 'canceled', IN_REVIEW: 'in review' })[status] ??
      status.toLowerCase(),
    type: (type: string): string => ({ MED: 'MED (special return mechanism)', CHARGEBACK: 'chargeback' })[type] ?? type,
    statusLabel: 'Status',
    typeLabel: 'Type',
    valueLabel: 'Value',
    reasonLabel: 'Reason',
    customerLabel: 'Customer',
    emailLabel: 'E-mail',
    phoneLabel: 'Phone',
    taxIdLabel: 'Tax ID',
    e2eLabel: 'End-to-end ID',
    disputeIdLabel: 'Dispute id',
    notGiven: '_not given_',
    evidenceButton: 'Send evidence',
    evidenceHint: 'Operators can send evidence with the button; later events of this dispute come in this thread.',
    replyText: (p: { status: string; e2e: string }) => `Dispute ${p.e2e}: ${p.status}`,
    replyLine: (status: string) => `:arrow_right: The service says the dispute is now *${status}*.`,
    replyLateOpened:
      ':information_source: The service’s notice that this dispute was opened arrived after a later one; the status above stays.',
    kindWords: (kind: string): string =>
      ({
        CHARGE_CREATED: 'Charge created',
        CHARGE_COMPLETED: 'Charge paid',
        CHARGE_COMPLETED_NOT_SAME_CUSTOMER_PAYER: 'Charge paid by someone other than the customer',
        CHARGE_EXPIRED: 'Charge expired',
        TRANSACTION_RECEIVED: 'Pix received',
        TRANSACTION_REFUND_RECEIVED: 'Refund received',
        PIX_TRANSACTION_REFUND_SENT_CONFIRMED: 'Refund sent',
        PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED: 'Refund received',
        PAYMENT_CONFIRMED: 'Payment confirmed',
        MOVEMENT_CONFIRMED: 'Payment confirmed',
        QRCODE_CREATED: 'Pix QR code created',
        ACCOUNT_REGISTER_APPROVED: 'Account registration approved',
        ACCOUNT_REGISTER_PENDING: 'Account registration pending',
      })[kind] ??
      kind
        .toLowerCase()
        .replace(/_/g, ' ')
        .replace(/^./, (c) => c.toUpperCase()),
    otherLine: (p: { kind: string; parts: string[] }) => [`*${p.kind}*`, ...p.parts].join(' · '),
    correlation: (id: string) => `correlation ID ${id}`,
    customer: (name: string) => `customer ${name}`,
    taxId: (taxId: string) => `tax ID ${taxId}`,
    statusPart: (status: string) => `status ${status.toLowerCase()}`,
    homeTitle: '*Open Pix disputes*',
    homeNone: 'No open dispute. New ones are posted in the events channel.',
    homeLine: (p: { e2e: string; value: string; type: string; status: string; where: string }) =>
      `${p.e2e} · ${p.value} · ${p.type} · ${p.status} · ${p.where}`,
    homeMore: (n: number) => `And ${n} more, in the events channel.`,
    disputeIdInput: 'Dispute id',
    disputeIdHint: 'The event did not say the dispute’s id at the Pix service; find it in the service’s portal.',
    disputeIdRequired: 'Write the dispute’s id (24 hexadecimal digits, e.g. 6840aeca23c0d1fe48c856a3).',
  },

  /** A sent payment's end in its approval's thread, and money out in the digest and the Home tab. */
  paymentEnd: {
    /** The service's failure codes (pix-money-out.md §2) in words; empty for a code it does not document (shown as it came). */
    codeMeaning: (code: string): string =>
      (
        ({
          ALIAS_LIMIT_ERROR: 'the company’s Pix-key look-ups are exhausted',
          PAY_PIX_KEY_ERROR: 'the payment to that key could not be made',
          PIX_KEY_INFO_ERROR: 'the key’s look-up failed',
          PIX_KEY_INFO_NOT_FOUND: 'the key is not registered at any bank',
          INVALID_PIX_KEY: 'the key is malformed',
          REACH_TRANSFER_LIMIT: 'the account reached its daytime or night-time Pix limit',
          NOT_ENOUGH_BALANCE: 'the account does not have enough balance',
          ENTRY_ASSOCIATED_WITH_RESTRICTED_ACCOUNT_OR_USER: 'the key’s account is restricted for fraud by the central bank',
        }) as Record<string, string>
      )[code] ?? '',
    confirmed: (p: { value: string }) => `:white_check_mark: *Payment confirmed*: ${p.value} reached the receiver.`,
    e2e: (id: string) => `End-to-end id: ${id}`,
    failed: (p: { value: string }) => `:x: *Payment failed*: the ${p.value} did not reach the receiver.`,
    why: (p: { code: string; meaning: string }) => `Why: ${p.meaning} (${p.code}).`,
    whyUnknown: 'Why: the service gave no reason.',
    unknownCode: (code: string) => `Why: ${code}, a reason the service documents no meaning for.`,
    serviceSaid: (text: string) => `The service said: “${text}”`,
    available: (p: { account: string; available: string }) => `Account ${p.account} has ${p.available} available now.`,
    availableUnread: (account: string) => `The available balance of account ${account} could not be read now.`,
    limitHint: 'Ask the Pix service for a higher limit on the account paid from:',
    limitButton: 'Request a higher limit',
    removed: ':wastebasket: *Payment removed* in the Pix service’s web app: nothing was sent.',
    released: 'It no longer counts toward the day’s limit.',
    source: (account: string) => `Paid from account ${account}.`,
    confirmedText: (value: string) => `Payment confirmed: ${value}`,
    failedText: (p: { value: string; why?: string }) => `Payment failed: ${p.value}${p.why ? ` (${p.why})` : ''}`,
    removedText: (value: string) => `Payment removed: ${value}`,
    /** The digest's part. */
    digestTitle: (since: string) => `*Money out since ${since}*`,
    digestSent: (p: { n: number; total: string }) => `• Sent: ${p.n} payment(s) and withdrawal(s), ${p.total} in all`,
    digestFailed: (p: { n: number; total: string }) => `• Failed: ${p.n} payment(s), ${p.total} in all`,
    digestMore: 'Each one’s end is in its approval’s thread.',
    textSent: (n: number) => `${n} payment(s) or withdrawal(s) sent`,
    textFailed: (n: number) => `${n} payment(s) failed`,
    /** The Home tab's part. */
    homeTitle: '*Payments and withdrawals waiting*',
    homeForYou: (p: { n: number; total: string }) => `• Waiting for you: ${p.n}, ${p.total} in all`,
    homeYours: (p: { n: number; total: string }) => `• Yours, waiting for a checker: ${p.n}, ${p.total} in all`,
    homeHint: 'Each is listed below with its buttons (the oldest first).',
  },

  /** The morning digest (and `/pix digest`): what waits for the team. */
  digest: {
    header: 'What waits for the team',
    intro: (when: string) => `As of ${when} (Brasília time). The oldest of each kind first.`,
    approvalsTitle: (n: number) => `*Approvals waiting* (${n})`,
    approvalLine: (p: { title: string; maker: string; age: string; who: string; where: string }) =>
      `• *${p.title}*, asked by ${p.maker} ${p.age} · may decide: ${p.who} · ${p.where}`,
    approvalsMore: (n: number) => `And ${n} more: each waits in its thread, and the Home tab lists those you may decide.`,
    inReviewTitle: (n: number) => `*Limit requests in review* (${n})`,
    inReviewLine: (p: { id: string; account: string; age: string; user: string }) =>
      `• ${p.id} · account ${p.account} · filed ${p.age} by ${p.user}`,
    inReviewMore: (n: number) => `And ${n} more: \`/pix limit list\` lists every request, and the Home tab those Pix Ops follows.`,
    disputesTitle: (n: number) => `*Open disputes* (${n})`,
    disputeLine: (p: { e2e: string; value: string; age: string; where: string }) =>
      `• ${p.e2e} · ${p.value} · opened ${p.age} · ${p.where}`,
    disputesMore: (n: number) => `And ${n} more: the Home tab lists the open disputes, each with its thread.`,
    belowTitle: (p: { n: number; threshold: string }) => `*Accounts below ${p.threshold}* (${p.n}), lowest first`,
    belowLine: (p: { account: string; available: string }) => `• ${p.account} · available ${p.available}`,
    blockedTitle: (n: number) => `*Withdrawals blocked* (${n})`,
    blockedLine: (account: string) => `• ${account}: a withdraw found its key missing in the DICT`,
    accountsMore: (n: number) => `And ${n} more: \`/pix accounts\` lists every account with its balance.`,
    nothingWaiting:
      ':white_check_mark: Nothing is waiting: no approvals, no limit requests in review, no open disputes, no account below the alert threshold, no blocked withdrawals.',
    text: (parts: string[]) => `What waits for the team: ${parts.length > 0 ? parts.join(', ') : 'nothing'}.`,
    textApprovals: (n: number) => `${n} approval(s) waiting`,
    textInReview: (n: number) => `${n} limit request(s) in review`,
    textDisputes: (n: number) => `${n} open dispute(s)`,
    textBelow: (p: { n: number; threshold: string }) => `${p.n} account(s) below ${p.threshold}`,
    textBlocked: (n: number) => `${n} account(s) with withdrawals blocked`,
    textUnread: 'some parts could not be read',
  },

  /** Balance alerts (BALANCE_ALERT_BELOW), posted in the digest's channel, else the Pix events'. */
  balanceAlerts: {
    below: (p: { account: string; available: string; threshold: string }) =>
      `:warning: Account ${p.account} is running low: its available balance is *${p.available}*, below the alert threshold of ${p.threshold}.`,
    belowText: (p: { account: string; available: string; threshold: string }) =>
      `Account ${p.account} is below ${p.threshold}: available ${p.available}`,
    blocked: (account: string) =>
      `:no_entry: Withdrawals from account ${account} are now *blocked*: a withdraw found its withdraw key missing in the DICT, so every withdraw is refused until the Pix service lifts the block.`,
    blockedText: (account: string) => `Withdrawals from account ${account} are blocked`,
  },
};

/** The shape both catalogues have: the same groups, the same keys, the same parameters. */
export type Catalogue = typeof en;
