import { limitFieldLabel } from '../../src/domain/limit-fields';
import { centsToInput, formatCents, type MoneyProblem, parseReais } from '../../src/domain/money';
import { ageText, formatSaoPauloDateTime } from '../../src/domain/sao-paulo-date';
import { type Catalogue, type Locale, localeFromSlack, messages } from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { ptBR } from '../../src/i18n/pt-BR';
import { LocaleResolver } from '../../src/slack/user-locale';

type Fn = (...args: never[]) => string;
/** Arguments to render every message function with: TypeScript makes this list every one of them. */
type Samples = {
  [G in keyof Catalogue]: {
    [K in keyof Catalogue[G] as Catalogue[G][K] extends Fn ? K : never]: Array<Parameters<Extract<Catalogue[G][K], Fn>>>;
  };
};

const S = '`6840aeca23c0d1fe48c856a3`';
const ACTION = 'read the limits';
const MONEY = 'R$ 1.234,56';

const samples: Samples = {
  pay: {
    commentHint: [[140]],
    commentTooLong: [[140]],
    tokensLow: [['05/12/2026 14:32']],
  },
  payments: {
    emptyPage: [[3]],
    title: [[{ page: 2, range: '11–20' }]],
    text: [[{ page: 2, range: '11–20' }]],
    line: [
      [{ amount: MONEY, key: '`***.982.247-**`', status: 'confirmed' }],
      [{ amount: MONEY, key: '`f***@example.com`', status: 'failed', created: '05/12/2026 14:32' }],
    ],
    correlation: [['`a1b2c3`']],
    failedWith: [['NOT_ENOUGH_BALANCE']],
  },
  common: {
    wentWrong: [[ACTION]],
    wentWrongNothingMore: [[ACTION]],
    wentWrongCheck: [[ACTION]],
    auditMissed: [['C0FINANCE']],
    items: [[1], [3]],
    fields: [[2]],
    andMore: [[4]],
    channelNamed: [['finance']],
    role: [['viewer'], ['operator'], ['admin']],
  },
  help: {
    noRoleText: [['Ask an admin.']],
    askAdmin: [[{ userId: 'U1', viewer: 'ACCESS_VIEWERS', operator: 'ACCESS_OPERATORS', admin: 'ACCESS_ADMINS' }]],
    noAccessConfigured: [[{ userId: 'U1', viewer: 'ACCESS_VIEWERS', operator: 'ACCESS_OPERATORS', admin: 'ACCESS_ADMINS' }]],
    whatYouCanDoText: [['operator']],
    whatYouCanDo: [['operator']],
    usage: [[{ usage: 'limits [accountId]' }], [{ usage: 'limits [accountId]', problem: 'That is not an account id.' }]],
    unknownCommand: [[{ word: 'frobnicate', lines: '`/pix help`' }]],
    refusal: [[{ role: 'operator', what: ACTION, userId: 'U1', variable: 'ACCESS_OPERATORS' }]],
    useCommand: [['limit request']],
  },
  pixErrors: {
    noAnswerWrite: [[ACTION]],
    unreachable: [[ACTION]],
    invalidResponse: [[ACTION]],
    missingScope: [[{ action: ACTION, scope: 'LIMIT_READ', apiText: '“nope”' }]],
    notFound: [[{ action: ACTION }], [{ action: ACTION, apiText: '“Not found”' }]],
    badAppId: [[{ action: ACTION }], [{ action: ACTION, apiText: '“Invalid appID”' }]],
    apiText: [[{ action: ACTION, apiText: '“Limit request already in review”' }]],
    serverError: [[{ action: ACTION, status: 503 }]],
    httpStatus: [[{ action: ACTION, status: 418 }]],
  },
  dates: {
    minutesAgo: [[5]],
    hoursAgo: [[3]],
    daysAgo: [[1], [2]],
  },
  limits: {
    fieldWord: [['pix'], ['out'], ['same'], ['holder'], ['day'], ['unknownword']],
    title: [[{ account: S, isDefault: true }], [{ account: S, isDefault: false }]],
  },
  limitList: {
    emptyPage: [[7]],
    range: [[{ from: 1, to: 10 }], [{ from: 11, to: 20, total: 25 }]],
    title: [[{ page: 2, range: '11–20 of 25' }]],
    text: [[{ page: 2, range: '11–20 of 25' }]],
    line: [[{ account: S, day: MONEY, night: MONEY, created: '05/03/2026, 14:30' }]],
  },
  request: {
    statusWord: [['IN_REVIEW'], ['APPROVED'], ['REJECTED'], ['SOMETHING_NEW']],
    granted: [[MONEY]],
    grantedBelow: [[MONEY]],
    documents: [['proof.pdf']],
    rootHead: [[{ id: S, account: S }]],
    status: [['In review']],
    requestedBy: [['<@U1>']],
    rootText: [[{ id: 'r1', account: 'a1', status: 'in review' }]],
    rejectedReply: [[{ mention: '<@U1>', id: S }]],
    rejectedText: [['r1']],
    approvedReply: [
      [{ mention: '<@U1>', id: S, below: 0 }],
      [{ mention: '<@U1>', id: S, below: 1 }],
      [{ mention: '<@U1>', id: S, below: 2 }],
    ],
    approvedText: [[{ id: 'r1', partly: false }], [{ id: 'r1', partly: true }]],
  },
  limitStatus: {
    title: [[S]],
    requested: [[{ label: 'Pix day', amount: MONEY }]],
    approved: [[MONEY]],
    approvedBelow: [[MONEY]],
    notRequestedApproved: [[{ label: 'Pix day', amount: MONEY }]],
    alsoInRequest: [['dayStartAt: 06:00']],
    documents: [['proof.pdf']],
    description: [['more sales']],
    followedClosed: [['<#C1>']],
    followedOpen: [['<#C1>']],
    text: [[{ id: 'r1', account: 'a1', status: 'in review' }]],
    alreadyFollowed: [[{ id: S, channel: '<#C1>' }]],
    alreadyDecided: [[{ id: S, status: 'Approved' }]],
    followed: [[{ id: S, channel: '<#C1>' }]],
    busy: [[S]],
    postFailed: [['`not_in_channel`']],
  },
  limitForm: {
    current: [[MONEY]],
    available: [[MONEY]],
    alsoOnAccount: [['dayStartAt 06:00']],
    proofsFromMessage: [['a.pdf, b.png']],
    filesHint: [[10]],
    uploading: [[{ index: 1, total: 2 }]],
    uploadingNamed: [[{ index: 2, total: 2, name: 'b.png' }]],
    filed: [[{ id: S, where: 'Its thread is in <#C1>.' }]],
    filedThread: [['<#C1>']],
    belowCurrent: [[MONEY]],
    tooManyFiles: [[{ max: 10, count: 12 }]],
  },
  files: {
    cannotRead: [['F1']],
    tooBig: [[{ name: 'huge.pdf', mib: '11.0' }]],
    empty: [['empty.pdf']],
    cannotDownload: [['a.pdf']],
    notInTime: [['a.pdf']],
    wrongType: [['a.exe']],
    overCap: [['huge.pdf']],
  },
  accounts: {
    appStored: [[], ['`Client_Id_1`']],
    appPending: [['a1']],
    appNone: [['a1']],
    campaign: [['“Christmas”']],
    listTitle: [[3]],
    balanceLine: [['total R$ 15.000,00 · available R$ 15.000,00 · blocked R$ 0,00']],
    balanceFields: [[{ total: MONEY, available: MONEY, blocked: 'R$ 0,00' }]],
    withdrawKeyLine: [['none set']],
    keysManagedLine: [['the main application']],
    listText: [[{ count: 3, blocked: 0 }], [{ count: 3, blocked: 1 }]],
    oneTitle: [[S]],
    oneText: [
      [{ accountId: 'a1', blocked: false }],
      [{ accountId: 'a1', balance: 'total R$ 15.000,00 · available R$ 15.000,00 · blocked R$ 0,00', blocked: true }],
    ],
    linkIntro: [[S]],
    hasApplication: [[{ account: S }], [{ account: S, clientId: '`c1`' }]],
    clientSecret: [['s3cr3t']],
    unstoredAppId: [[{ accountId: 'a1', appId: 'app-id' }]],
    notStoredNote: [['a1']],
    auditCreated: [
      [{ user: '<@U1>', account: S, name: '“X”', note: '' }],
      [{ user: '<@U1>', account: S, name: '“X”', clientId: '`c1`', note: ' Stored.' }],
    ],
    auditAppFailed: [[{ user: '<@U1>', account: S, name: '“X”', problem: 'Could not.' }]],
    auditResolved: [[{ account: S, name: '“X”', user: '<@U1>' }], [{ account: S, name: '“X”', clientId: '`c1`', user: '<@U1>' }]],
    auditRetried: [
      [{ user: '<@U1>', account: S, name: '“X”', note: '' }],
      [{ user: '<@U1>', account: S, name: '“X”', clientId: '`c1`', note: '' }],
    ],
    auditLinked: [[{ user: '<@U1>', account: S }]],
    appCreatedText: [['a1']],
    secretNotShown: [[S]],
    createdButAppFailed: [[{ account: S, name: '“X”', problem: 'Could not.' }]],
    appStillFailed: [[{ account: S, problem: 'Could not.' }]],
    noAppIdInAnswer: [['a1']],
    accountCreated: [[S]],
    nameTooLong: [[80]],
    alreadyHasApp: [[{ account: S }], [{ account: S, clientId: '`c1`' }]],
    appBeingCreated: [[S]],
    appIdRefused: [[], ['Invalid appID']],
    nothingStored: [['Could not check the AppID.']],
    appIdOtherAccount: [[{ bound: 'a2', accountId: 'a1' }]],
    linked: [[{ account: S, accountId: 'a1' }]],
    noAppIdKnown: [[{ account: S, accountId: 'a1' }]],
    pendingApp: [[{ account: S, accountId: 'a1' }]],
    notAmongAccounts: [[S]],
    staleAppId: [[{ account: S, accountId: 'a1' }]],
    listPage: [[{ from: 21, to: 40, total: 150, page: 2, pages: 8 }]],
  },
  pixKeys: {
    title: [[{ account: S, isDefault: false }], [{ account: S, isDefault: true, campaign: '“X”' }]],
    text: [[{ count: 2, accountId: 'a1' }]],
    addIntro: [[S]],
    deleteConfirm: [[{ key: '`a@b.com`', account: S }]],
    deleteConfirmText: [[{ key: 'a@b.com', accountId: 'a1' }]],
    withdrawResult: [[{ account: S, key: '`a@b.com` (e-mail)' }]],
    withdrawText: [[{ accountId: 'a1', key: 'a@b.com' }]],
    auditAdded: [[{ user: '<@U1>', key: '`a@b.com`', type: 'e-mail', account: S }]],
    auditDeleted: [[{ user: '<@U1>', key: '`a@b.com`', account: S }]],
    auditWithdraw: [[{ user: '<@U1>', account: S, key: '`a@b.com`' }]],
    wrongAppId: [[{ account: S, bound: '`a2`', accountId: 'a1' }]],
    added: [[{ key: '`a@b.com`', account: S }]],
    deleted: [[{ key: '`a@b.com`', account: S }]],
    withdrawNotEnabled: [[{ account: S }], [{ account: S, apiText: 'Forbidden' }]],
    page: [[{ from: 21, to: 40, total: 100, page: 2, pages: 5 }]],
  },
  pixKeyValues: {
    emailTooLong: [[77]],
  },
  applications: {
    scopeGroupsText: [[{ groups: 2, scopes: 7 }]],
    scopesText: [[7]],
    newSecret: [[{ clientId: '`c1`', secret: 's3cr3t' }]],
    noSecretRead: [['`c1`']],
    rotatedText: [['c1']],
    newAppIdShown: [['app-id-value']],
    storedAppIdReplaced: [[S]],
    storedAppIdWorks: [[S]],
    storedAppIdStale: [[{ account: S, accountId: 'a1' }]],
    storedAppIdUnchecked: [[{ account: S, accountId: 'a1', problem: 'no answer' }]],
    auditRotated: [[{ user: '<@U1>', clientId: '`c1`' }]],
  },
  paymentBook: {
    title: [[{ subscriptionId: 's1', period: '03/2027' }]],
    comment: [[{ subscriptionId: 's1', period: '03/2027', user: '<@U1>' }]],
    posted: [[{ subscription: '`s1`', period: '03/2027', file: '`s1-2027-03.pdf`', size: '12 KiB' }]],
    notInChannel: [[{ subscription: '`s1`', period: '03/2027' }]],
    postFailed: [[{ subscription: '`s1`', period: '03/2027', slackError: '`invalid_auth`' }]],
    notAPdf: [['`s1`']],
    noAnswer: [[{ subscription: '`s1`', period: '03/2027', detail: 'HTTP 503' }]],
    notAMonth: [['13']],
    notAYear: [[{ text: '26', example: 2026 }]],
    tooLate: [[{ latest: '12/2027', asked: '01/2028' }]],
  },
  evidence: {
    intro: [['`d1`']],
    filesHint: [[10]],
    sentTitle: [[{ dispute: '`d1`', user: '<@U1>' }]],
    fileLine: [[{ name: 'a.pdf', fileId: '`f1`' }]],
    note: [['see attached']],
    sentText: [[{ disputeId: 'd1', count: 2 }]],
    featureOff: [[], ['Feature not enabled']],
    tooManyFiles: [[{ max: 10, count: 11 }]],
    uploading: [[{ index: 1, total: 2 }]],
    uploadingNamed: [[{ index: 2, total: 2, name: 'b.png' }]],
    attached: [[{ count: 1, dispute: '`d1`', where: 'Posted.' }], [{ count: 3, dispute: '`d1`', where: 'Posted.' }]],
    uploadedNotAttached: [[1], [2]],
    uploadedMaybeAttached: [[1], [2]],
    wentWrong: [['Nothing was attached to the dispute.']],
  },
  statement: {
    balance: [[MONEY]],
    account: [[S]],
    title: [['the main account']],
    answered: [['nothing here']],
    text: [['the main account']],
    page: [[{ whose: 'the main account', from: 1, to: 15, total: 40, page: 1, pages: 3 }]],
    alsoInAnswer: [['total: 2']],
    readFrom: [['`data.entries`']],
    textEmpty: [['the main account']],
    textPage: [[{ whose: 'the main account', page: 1, pages: 3 }]],
    transactionTitle: [[{ id: '`t1`' }], [{ id: '`t1`', account: S }]],
    moreFields: [[3]],
    transactionText: [['t1']],
    otherAccountHint: [['set PIX_MASTER_APP_ID.']],
  },
  home: {
    threadIn: [['<#C1>']],
    inReviewLine: [[{ id: S, account: S, age: '5 min ago', user: '<@U1>', where: '<#C1>' }]],
    andMoreOldest: [[3]],
    asked: [[{ label: 'Pix day', amount: MONEY }]],
    askedNoneGranted: [[{ label: 'Pix day', amount: MONEY }]],
    granted: [[{ label: 'Pix day', amount: MONEY }]],
    grantedBelow: [[{ label: 'Pix day', amount: MONEY, asked: MONEY }]],
    decided: [['05/03/2026, 14:30']],
    account: [[S]],
    withdrawKey: [[{ key: 'a@b.com', type: 'EMAIL' }]],
    accountsMore: [[5]],
    intro: [[{ role: 'operator', updated: '05/03/2026, 14:30' }]],
    keysTitle: [[S]],
    keysHowTo: [['a1']],
  },
  tracking: {
    notFiled: [[{ account: S, when: '05/03/2026, 14:30' }]],
    decisionByDm: [[true], [false]],
    unfollowedNotice: [
      [{ mention: '<@U1>', id: S, status: 404, reads: 5, minutes: 15, command: '`/pix limit status 6840aeca23c0d1fe48c856a3`' }],
      [{ mention: '<@U1>', id: S, status: 403, reads: 6, minutes: 20, command: '`/pix limit status 6840aeca23c0d1fe48c856a3`' }],
      [
        {
          mention: '<@U1>',
          id: S,
          status: 403,
          reads: 6,
          minutes: 20,
          command: '`/pix limit status 6840aeca23c0d1fe48c856a3`',
          said: 'Application does not have required scope: ACCOUNT_LIMITS_GET',
        },
      ],
    ],
    unfollowedText: [['6840aeca23c0d1fe48c856a3']],
  },
  approvalRules: {
    reminder: [
      [
        {
          who: '<@U1>, <!subteam^S1>',
          title: 'Add a Pix key',
          maker: '<@U2>',
          age: '4 hours ago',
          expires: '06/03/2026, 14:30',
          n: 1,
          max: 3,
        },
      ],
    ],
    anyoneWithRole: [['admin']],
    makerLostRole: [[{ maker: '<@U1>', role: 'admin' }]],
    makerUnreachable: [['<@U1>']],
    secretUndelivered: [[{ maker: '<@U1>', clientId: 'Client_Id_1' }]],
    appStale: [[{ clientId: '`Client_Id_1`', accountId: '6840aeca23c0d1fe48c856a3' }], [{ accountId: '6840aeca23c0d1fe48c856a3' }]],
    delegateFor: [[{ delegate: '<@U3>', away: '<@U1>' }]],
    quorumSoFar: [[{ given: 1, needed: 2 }]],
    rootElsewhere: [['https://fake.slack.test/archives/D1/p1700000000000100'], [undefined]],
    escalation: [
      [{ who: '<@U4>, <!subteam^S2>', title: 'Add a Pix key', maker: '<@U2>', age: '2 hours ago', expires: '06/03/2026, 14:30' }],
    ],
    escalationDm: [
      [
        {
          title: 'Add a Pix key',
          maker: '<@U2>',
          age: '2 hours ago',
          expires: '06/03/2026, 14:30',
          link: 'https://fake.slack.test/archives/C1/p1',
        },
      ],
      [{ title: 'Add a Pix key', maker: '<@U2>', age: '2 hours ago', expires: '06/03/2026, 14:30' }],
    ],
    escalationDmFor: [['<@U1>']],
  },
  away: {
    set: [[{ delegate: '<@U3>', until: 'Dec 1, 2026' }]],
    away: [[{ delegate: '<@U3>', until: 'Dec 1, 2026' }]],
    decidingFor: [['<@U1> (until the end of Dec 1, 2026)']],
    awayUntil: [[{ away: '<@U1>', until: 'Dec 1, 2026' }]],
    ended: [['<@U3>']],
    refusedTooFar: [['Feb 28, 2027']],
    refusedDelegateAway: [[{ delegate: '<@U3>', until: 'Dec 1, 2026' }]],
    refusedDelegateDecidesNothing: [[{ delegate: '<@U3>', role: 'operator' }], [{ delegate: '<@U3>' }]],
  },
  pixEvents: {
    disputeTitle: [['open']],
    disputeText: [[{ status: 'open', value: MONEY, e2e: 'E3524a995bbd54034b6d07c1c36014557' }]],
    status: [['SOMETHING'], ['ACCEPTED'], ['REJECTED'], ['CANCELED'], ['IN_REVIEW'], ['OPENED']],
    type: [['OTHER'], ['CHARGEBACK'], ['MED']],
    replyText: [[{ status: 'accepted', e2e: 'E3524a995bbd54034b6d07c1c36014557' }]],
    replyLine: [['accepted']],
    kindWords: [['SOME_NEW_KIND'], ['CHARGE_COMPLETED']],
    otherLine: [[{ kind: 'Charge paid', parts: [MONEY, 'correlation ID `abc`'] }]],
    correlation: [['`abc`']],
    customer: [['Maria']],
    taxId: [['***.982.247-**']],
    statusPart: [['COMPLETED']],
    homeLine: [[{ e2e: '`E35`', value: MONEY, type: 'MED', status: 'open', where: 'thread' }]],
    homeMore: [[3]],
  },
  moneyOut: {
    amount: [[MONEY]],
    fromAccount: [[{ account: S, available: MONEY, at: '05/03/2026, 14:30' }]],
    balanceUnread: [[S]],
    receiver: [[{ name: 'Maria Souza', taxId: '`***.982.247-**`', bank: 'Banco Exemplo' }]],
    key: [[{ key: '`f***@example.com`', type: 'e-mail' }]],
    comment: [['Invoice 42']],
    withdrawTo: [[{ key: '`+5511*****4321`', type: 'phone' }]],
    sending: [[{ checkers: '<@U2>', at: '05/03/2026, 14:30' }]],
    sent: [[{ sender: '<@U3>', checkers: '<@U2> and <@U3>', at: '05/03/2026, 14:30' }]],
    statusRead: [['CONFIRMED']],
    short: [[{ checkers: '<@U2>', at: '05/03/2026, 14:30', available: MONEY, read: '05/03/2026, 14:30' }]],
    shortNoBalance: [[{ checkers: '<@U2>', at: '05/03/2026, 14:30' }]],
    retryConfirmText: [[MONEY]],
    retryWho: [[{ role: 'operator', listed: false }], [{ role: 'operator', listed: true }]],
    confirmed: [['05/03/2026, 14:30']],
    failedStage: [[{ code: 'REACH_TRANSFER_LIMIT', description: 'Limite atingido' }]],
    endToEnd: [['E12345678202603051430abcdef012345']],
    withdrawn: [['05/03/2026, 14:30']],
    balanceAfter: [[MONEY]],
    unknown: [[{ checkers: '<@U2>', at: '05/03/2026, 14:30' }]],
    balanceNow: [[{ available: MONEY, at: '05/03/2026, 14:30' }]],
    sentThread: [[{ name: 'Maria Souza', taxId: '`***.982.247-**`', bank: 'Banco Exemplo', endToEndId: 'E1234' }]],
    shortThread: [[{ available: MONEY }]],
    withdrawnThread: [[{ endToEndId: 'E1234', balance: MONEY }]],
    dayLimitRefused: [[{ total: MONEY, amount: 'R$ 500,00', limit: 'R$ 1.500,00' }]],
    dayLimitRetry: [[{ total: MONEY, amount: 'R$ 500,00', limit: 'R$ 1.500,00' }]],
    createRefused: [['“Chave Pix inválida”']],
    approveRefused: [['“Pagamento não encontrado”']],
    noSuchAccount: [[S]],
    withdrawNoWithdrawKey: [[S]],
    withdrawBlocked: [[S]],
    aboveBalance: [[{ account: S, amount: MONEY, available: 'R$ 10,00' }]],
    balanceNotReported: [[S]],
    withdrawRefused: [['“Saque recusado”']],
  },
  approvals: {
    actionTitle: [
      ['limit-request'],
      ['key-add'],
      ['key-delete'],
      ['withdraw-key'],
      ['account-create'],
      ['rotate-secret'],
      ['pay'],
      ['withdraw'],
    ],
    pendingHead: [['Add a Pix key']],
    stateWord: [['unknown-state'], ['approving'], ['done'], ['failed'], ['rejected'], ['cancelled'], ['expired'], ['pending']],
    askedBy: [[{ maker: '<@U1>', at: '05/03/2026, 14:30' }]],
    expires: [['06/03/2026, 14:30']],
    whoMayApprove: [[{ role: 'admin', listed: false }], [{ role: 'operator', listed: true }]],
    account: [[S]],
    pixKey: [[{ key: '`finance@example.com`', type: 'e-mail' }]],
    keyToDelete: [['`finance@example.com`']],
    withdrawKey: [['`+5511987654321`']],
    campaign: [['“Black Friday”']],
    application: [['`Client_Id_1`']],
    proofs: [['proof.pdf, statement.png']],
    description: [['More sales in November']],
    reason: [['Seasonal peak']],
    confirmText: [['Add a Pix key']],
    approving: [[{ checker: '<@U2>', at: '05/03/2026, 14:30' }]],
    done: [[{ checker: '<@U2>', at: '05/03/2026, 14:30' }]],
    failed: [[{ checker: '<@U2>', at: '05/03/2026, 14:30' }]],
    rejected: [[{ checker: '<@U2>', at: '05/03/2026, 14:30', reason: '“not this month”' }]],
    cancelled: [[{ maker: '<@U1>', at: '05/03/2026, 14:30' }]],
    expired: [['05/03/2026, 14:30']],
    approvedBy: [[{ checker: '<@U2>', maker: '<@U1>' }]],
    failedReply: [[{ maker: '<@U1>', checker: '<@U2>', problem: 'Could not add the Pix key: “Pix key already exists”' }]],
    rejectedReply: [[{ maker: '<@U1>', checker: '<@U2>', reason: '“not this month”' }]],
    roleRefused: [[{ role: 'admin', title: 'Delete a Pix key' }]],
    notApprover: [['U1']],
    onlyMakerCancels: [['<@U1>']],
    alreadyApproved: [[{ checker: '<@U2>', at: '05/03/2026, 14:30' }]],
    alreadyRejected: [[{ checker: '<@U2>', at: '05/03/2026, 14:30' }]],
    alreadyCancelled: [['05/03/2026, 14:30']],
    alreadyExpired: [['05/03/2026, 14:30']],
    rejectIntro: [['Add a Pix key']],
    sentForApproval: [[{ title: 'Add a Pix key', where: 'in <#C1>' }]],
    sentWhere: [['<#C1>']],
    secretLead: [['Rotate an application’s secret']],
    fileGone: [['proof.pdf']],
    proofsGone: [['The proof file “proof.pdf” cannot be read from Slack any more (deleted?).']],
    homeLine: [[{ title: 'Add a Pix key', maker: '<@U1>', age: '5 minutes ago', expires: '06/03/2026, 14:30' }]],
    homeMore: [[3]],
    filedAfterApproval: [[{ checker: '<@U2>', at: '05/03/2026, 14:30' }]],
    checkerFor: [[{ checker: '<@U3>', away: '<@U1>' }]],
    and: [[['<@U1>']], [['<@U1>', '<@U2>']], [['<@U1>', '<@U2>', '<@U3>']]],
    quorumNone: [[2]],
    quorumSoFar: [[{ given: 1, needed: 2, who: '<@U2>' }]],
    quorumRecorded: [[{ given: 1, needed: 2 }]],
    alreadyApprovedByYou: [[{ given: 1, needed: 2 }]],
    escalatedLine: [['05/03/2026, 14:30']],
    homeFor: [['<@U1>']],
    homeAway: [[{ delegate: '<@U3>', until: 'Dec 1, 2026' }]],
    homeDelegate: [[{ away: '<@U1>', until: 'Dec 1, 2026' }]],
  },
  paymentEnd: {
    codeMeaning: [
      ['ALIAS_LIMIT_ERROR'],
      ['PAY_PIX_KEY_ERROR'],
      ['PIX_KEY_INFO_ERROR'],
      ['PIX_KEY_INFO_NOT_FOUND'],
      ['INVALID_PIX_KEY'],
      ['REACH_TRANSFER_LIMIT'],
      ['NOT_ENOUGH_BALANCE'],
      ['ENTRY_ASSOCIATED_WITH_RESTRICTED_ACCOUNT_OR_USER'],
    ],
    confirmed: [[{ value: MONEY }]],
    e2e: [['`E54811417202611251200abc`']],
    failed: [[{ value: MONEY }]],
    why: [[{ code: '`REACH_TRANSFER_LIMIT`', meaning: 'the account reached its limit' }]],
    unknownCode: [['`SOMETHING_NEW`']],
    serviceSaid: [['Limite de transferência Pix atingido']],
    available: [[{ account: S, available: MONEY }]],
    availableUnread: [[S]],
    source: [[S]],
    confirmedText: [[MONEY]],
    failedText: [[{ value: MONEY }], [{ value: MONEY, why: 'the key is malformed' }]],
    removedText: [[MONEY]],
    digestTitle: [['05/03/2026, 09:00']],
    digestSent: [[{ n: 3, total: MONEY }]],
    digestFailed: [[{ n: 1, total: MONEY }]],
    textSent: [[3]],
    textFailed: [[1]],
    homeForYou: [[{ n: 2, total: MONEY }]],
    homeYours: [[{ n: 1, total: MONEY }]],
  },
  digest: {
    intro: [['05/03/2026, 09:00']],
    approvalsTitle: [[500]],
    approvalLine: [[{ title: 'Add a Pix key', maker: '<@U1>', age: '5 minutes ago', who: '<@U2>, <!subteam^S1>', where: '<#C1>' }]],
    approvalsMore: [[495]],
    inReviewTitle: [[2000]],
    inReviewLine: [[{ id: S, account: S, age: '3 hours ago', user: '<@U1>' }]],
    inReviewMore: [[1995]],
    disputesTitle: [[200]],
    disputeLine: [[{ e2e: '`E123`', value: MONEY, age: '2 days ago', where: '<#C1>' }]],
    disputesMore: [[195]],
    belowTitle: [[{ n: 3, threshold: MONEY }]],
    belowLine: [[{ account: S, available: MONEY }]],
    blockedTitle: [[1]],
    blockedLine: [[S]],
    accountsMore: [[12]],
    text: [[[]], [['1 approval(s) waiting', '2 open dispute(s)']]],
    textApprovals: [[500]],
    textInReview: [[2000]],
    textDisputes: [[200]],
    textBelow: [[{ n: 3, threshold: MONEY }]],
    textBlocked: [[1]],
  },
  balanceAlerts: {
    below: [[{ account: S, available: MONEY, threshold: 'R$ 10.000,00' }]],
    belowText: [[{ account: 'a1', available: MONEY, threshold: 'R$ 10.000,00' }]],
    blocked: [[S]],
    blockedText: [['a1']],
  },
  actions: {},
  summaries: {},
  usage: {},
  money: {},
  confirmations: {
    withdraw: [[{ key: '`treasury@example.com`', account: S }]],
    withdrawText: [[{ key: 'treasury@example.com', accountId: 'a1' }]],
    rotate: [['`Client_Id_1`']],
    rotateText: [['Client_Id_1']],
  },
  appCreation: {
    reasonGateway: [[504]],
    uncertain: [[{ account: S, name: '“Christmas”', reason: 'the Pix service did not answer in time' }]],
    uncertainAgain: [[{ account: S, reason: 'the Pix service did not answer in time' }]],
    stillUncertain: [[S]],
    auditUncertain: [[{ user: '<@U1>', account: S, name: '“Christmas”', reason: 'the Pix service did not answer in time' }]],
    note: [['6840aeca23c0d1fe48c856a3']],
    statusUncertain: [['6840aeca23c0d1fe48c856a3']],
  },
  audit: {
    title: [[{ days: 7, page: 1 }], [{ days: 1, page: 2 }]],
    text: [[{ days: 7, page: 1, count: 15 }], [{ days: 1, page: 2, count: 1 }]],
    empty: [[1], [7]],
    outcome: [
      ['ok'],
      ['failed'],
      ['error'],
      ['usage'],
      ['refused'],
      ['pending'],
      ['approved'],
      ['rejected'],
      ['cancelled'],
      ['something-new'],
      ['expired'],
      ['escalated'],
    ],
    maker: [['<@U1>']],
    checker: [['<@U2>']],
    exporting: [[{ from: '05/03/2026', to: '06/03/2026' }]],
    exportEmpty: [[{ from: '05/03/2026', to: '06/03/2026' }]],
    exportDone: [[{ count: 1, from: '05/03/2026', to: '06/03/2026' }], [{ count: 12, from: '05/03/2026', to: '06/03/2026' }]],
    exportComment: [[{ count: 1, from: '05/03/2026', to: '06/03/2026' }], [{ count: 12, from: '05/03/2026', to: '06/03/2026' }]],
    exportFailed: [['`not_in_channel`']],
  },
};

const CATALOGUES: Array<[Locale, Catalogue]> = [
  ['en', en],
  ['pt-BR', ptBR],
];

/** What a rendered text must never carry: a missing value, a bad number, an object. */
function expectClean(text: unknown, where: string): void {
  expect({ where, type: typeof text }).toEqual({ where, type: 'string' });
  const t = text as string;
  expect({ where, empty: t.trim() === '' }).toEqual({ where, empty: false });
  for (const bad of ['undefined', 'NaN', '[object Object]', 'null'])
    expect({ where, contains: bad, found: t.includes(bad) }).toEqual({ where, contains: bad, found: false });
}

describe('the message catalogues', () => {
  test('pt-BR and en have the same groups, the same keys, and the same kind of entry under each', () => {
    const shape = (c: Catalogue) =>
      Object.fromEntries(
        Object.entries(c).map(([group, entries]) => [group, Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, typeof v]))]),
      );
    expect(shape(ptBR)).toEqual(shape(en));
  });

  test.each(CATALOGUES)('%s: every text is there, and every message function renders without undefined or NaN', (locale, catalogue) => {
    let rendered = 0;
    for (const [group, entries] of Object.entries(catalogue) as Array<[keyof Catalogue, Record<string, unknown>]>) {
      for (const [key, value] of Object.entries(entries)) {
        const where = `${locale} ${group}.${key}`;
        if (typeof value === 'string') {
          expectClean(value, where);
          continue;
        }
        const calls = (samples[group] as Record<string, unknown[][]>)[key];
        expect({ where, hasSamples: Array.isArray(calls) && calls.length > 0 }).toEqual({ where, hasSamples: true });
        for (const args of calls!) {
          expectClean((value as (...a: unknown[]) => unknown)(...args), `${where}(${JSON.stringify(args)})`);
          rendered++;
        }
      }
    }
    expect(rendered).toBeGreaterThan(150);
  });

  test('pt-BR is a translation, not a copy: its texts differ from the English ones, but for names', () => {
    const same: string[] = [];
    for (const [group, entries] of Object.entries(en) as Array<[keyof Catalogue, Record<string, unknown>]>) {
      for (const [key, value] of Object.entries(entries)) {
        const pt = (ptBR[group] as Record<string, unknown>)[key];
        if (typeof value === 'string' && value === pt) same.push(`${group}.${key}`);
        const calls = (samples[group] as Record<string, unknown[][]> | undefined)?.[key];
        if (typeof value === 'function' && calls) {
          const args = calls[calls.length - 1]!;
          if ((value as (...a: unknown[]) => string)(...args) === (pt as (...a: unknown[]) => string)(...args))
            same.push(`${group}.${key}`);
        }
      }
    }
    // Names, codes and words that are the same in both languages.
    expect(same.sort()).toEqual(
      [
        'accounts.appIdLabel',
        'accounts.email',
        'common.sandboxTag',
        'home.granted', // `Pix day *R$ 1.234,56*`: only the label and the amount
        'home.header',
        'limits.fieldWord',
        'payments.correlation',
        'pixEvents.emailLabel',
        'pixEvents.homeLine', // ids, amounts and words given, joined with dots
        'pixEvents.otherLine',
        'pixKeys.typeCnpj',
        'pixKeys.typeCpf',
        'pixKeys.typeEmail',
        'request.statusWord',
      ].sort(),
    );
  });

  test('every reason parseReais gives has its words', () => {
    const reasons: MoneyProblem[] = ['empty', 'not_a_number', 'negative', 'too_many_decimals', 'ambiguous', 'too_large'];
    for (const locale of ['en', 'pt-BR'] as const) for (const r of reasons) expectClean(messages(locale).money[r], `${locale} money.${r}`);
    // …and those are the reasons parseReais gives (the ambiguous amount uses the locale's decimal mark).
    for (const locale of ['en', 'pt-BR'] as const) {
      const inputs = ['', 'abc', '-1', '1.2345', locale === 'en' ? '1.234' : '1,234', '99999999999999999999'];
      const given = inputs.map((input) => parseReais(input, locale)).map((p) => (p.ok ? 'ok' : p.reason));
      expect(given).toEqual(reasons);
    }
  });

  test('messages() of an unknown or missing locale is pt-BR, the default', () => {
    expect(messages(undefined)).toBe(ptBR);
    expect(messages('fr' as Locale)).toBe(ptBR);
    expect(messages('en')).toBe(en);
  });
});

describe('money, dates and limit names per locale', () => {
  test('formatCents: R$ 1.234,56 in pt-BR (the default), R$1,234.56 in English; both read back', () => {
    expect(formatCents(123456)).toBe('R$ 1.234,56');
    expect(formatCents(123456, 'pt-BR')).toBe('R$ 1.234,56');
    expect(formatCents(123456, 'en')).toBe('R$1,234.56');
    expect(formatCents(-5, 'en')).toBe('-R$0.05');
    expect(formatCents(123456789012, 'en')).toBe('R$1,234,567,890.12');
    for (const locale of ['en', 'pt-BR'] as const) {
      for (const cents of [0, 7, 100, 123456, 500000000]) {
        expect(parseReais(formatCents(cents, locale), locale)).toEqual({ ok: true, cents });
        expect(parseReais(centsToInput(cents, locale), locale)).toEqual({ ok: true, cents });
      }
    }
    expect(centsToInput(123456, 'en')).toBe('1234.56');
    expect(centsToInput(123456)).toBe('1234,56');
  });

  test('dates in Brasília time, written the reader’s way', () => {
    expect(formatSaoPauloDateTime('2026-03-05T17:30:00Z', 'pt-BR')).toBe('05/03/2026, 14:30');
    expect(formatSaoPauloDateTime('2026-03-05T17:30:00Z', 'en')).toBe('Mar 5, 2026, 2:30 PM');
    expect(formatSaoPauloDateTime('2026-01-02', 'pt-BR')).toBe('02/01/2026');
    expect(formatSaoPauloDateTime('2026-01-02', 'en')).toBe('Jan 2, 2026');
    const now = new Date('2026-03-05T17:30:00Z');
    expect(ageText('2026-03-05T17:25:00Z', now, 'en')).toBe('5 min ago');
    expect(ageText('2026-03-05T14:30:00Z', now, 'pt-BR')).toBe('há 3 h');
    expect(ageText('2026-03-01T17:30:00Z', now, 'pt-BR')).toBe('há 4 dias');
  });

  test('limit field names from their words, in each language', () => {
    expect(limitFieldLabel('pixDayLimit', 'en')).toBe('Pix day');
    expect(limitFieldLabel('pixOutSameHolderDayLimit', 'en')).toBe('Pix out · same holder · day');
    expect(limitFieldLabel('pixInDayLimit', 'en')).toBe('Pix in · day');
    expect(limitFieldLabel('pixDayLimit', 'pt-BR')).toBe('Pix diurno');
    expect(limitFieldLabel('pixNightLimit', 'pt-BR')).toBe('Pix noturno');
    expect(limitFieldLabel('pixOutDifferentHolderNightLimit', 'pt-BR')).toBe('Pix saída · outro titular · noturno');
    expect(limitFieldLabel('pixInSameHolderFooLimit', 'pt-BR')).toBe('Pix entrada · mesmo titular · foo');
  });
});

describe('the user’s locale', () => {
  test('Slack locales: Portuguese of any region is pt-BR, English of any region en, the rest pt-BR', () => {
    expect(localeFromSlack('pt-BR')).toBe('pt-BR');
    expect(localeFromSlack('pt-PT')).toBe('pt-BR');
    expect(localeFromSlack('en-US')).toBe('en');
    expect(localeFromSlack('en-GB')).toBe('en');
    expect(localeFromSlack('EN_us')).toBe('en');
    expect(localeFromSlack('es-ES')).toBe('pt-BR');
    expect(localeFromSlack('ja-JP')).toBe('pt-BR');
    expect(localeFromSlack('')).toBe('pt-BR');
    expect(localeFromSlack(undefined)).toBe('pt-BR');
    expect(localeFromSlack(42)).toBe('pt-BR');
  });

  test('cached per user for the TTL; concurrent asks share one lookup', async () => {
    let now = 0;
    const asked: string[] = [];
    const r = new LocaleResolver({
      lookup: async (u) => {
        asked.push(u);
        return u === 'UEN' ? 'en-US' : 'pt-BR';
      },
      now: () => now,
      ttlMs: 1000,
    });
    expect(await Promise.all([r.localeOf('UEN'), r.localeOf('UEN'), r.localeOf('UPT')])).toEqual(['en', 'en', 'pt-BR']);
    expect(asked).toEqual(['UEN', 'UPT']);
    now = 999;
    expect(await r.localeOf('UEN')).toBe('en');
    expect(asked).toHaveLength(2);
    now = 1000;
    expect(await r.localeOf('UEN')).toBe('en');
    expect(asked).toEqual(['UEN', 'UPT', 'UEN']);
  });

  test('a failed lookup is pt-BR, asked again after a short while; no user, no lookup', async () => {
    let now = 0;
    let fail = true;
    const errors: string[] = [];
    const r = new LocaleResolver({
      lookup: async () => {
        if (fail) throw new Error('users_not_found');
        return 'en-US';
      },
      now: () => now,
      failureTtlMs: 100,
      onError: (u) => errors.push(u),
    });
    expect(await r.localeOf('U1')).toBe('pt-BR');
    fail = false;
    expect(await r.localeOf('U1')).toBe('pt-BR'); // still within the failure's short TTL
    now = 100;
    expect(await r.localeOf('U1')).toBe('en');
    expect(errors).toEqual(['U1']);
    expect(await r.localeOf(undefined)).toBe('pt-BR');
    expect(r.size).toBe(1);
  });

  test('a slow Slack does not hold the caller: pt-BR at the time limit, the real answer next time', async () => {
    let release!: (v: string) => void;
    const r = new LocaleResolver({ lookup: () => new Promise<string>((resolve) => (release = resolve)), timeoutMs: 20 });
    expect(await r.localeOf('U1')).toBe('pt-BR');
    release('en-GB');
    expect(await r.localeOf('U1')).toBe('en');
  });

  test('bounded: the least recently used users go first', async () => {
    const asked: string[] = [];
    const r = new LocaleResolver({
      lookup: async (u) => {
        asked.push(u);
        return 'en-US';
      },
      maxEntries: 2,
    });
    await r.localeOf('A');
    await r.localeOf('B');
    await r.localeOf('A'); // A is now the most recent
    await r.localeOf('C'); // evicts B
    expect(r.size).toBe(2);
    await r.localeOf('A');
    await r.localeOf('B');
    expect(asked).toEqual(['A', 'B', 'C', 'B']);
  });
});
