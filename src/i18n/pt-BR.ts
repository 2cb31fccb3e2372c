import type { Role } from '../domain/roles';
import type { Catalogue } from './en';

// O catálogo em português do Brasil, o idioma padrão. As mesmas chaves e os mesmos parâmetros do
// catálogo em inglês (en.ts): o tipo `Catalogue` obriga. Convenções em en.ts.

const ROLES: Record<Role, string> = { viewer: 'visualizador', operator: 'operador', admin: 'administrador' };

/** As palavras dos nomes dos campos de limite (`pixOutSameHolderDayLimit`). */
const FIELD_WORDS: Record<string, string> = {
  pix: 'Pix',
  out: 'saída',
  in: 'entrada',
  same: 'mesmo',
  different: 'outro',
  holder: 'titular',
  day: 'diurno',
  night: 'noturno',
};

export const ptBR: Catalogue = {
  common: {
    sandboxNote: ':test_tube: *SANDBOX*: uma API Pix local de teste, sem contas nem dinheiro reais.',
    sandboxTag: '[SANDBOX]',
    close: 'Fechar',
    cancel: 'Cancelar',
    previous: 'Anterior',
    next: 'Próxima',
    yes: 'sim',
    no: 'não',
    none: 'nenhum',
    notReported: '_não informado_',
    notAllowedTitle: 'Não permitido',
    notAvailableTitle: 'Indisponível',
    noAnswer: 'sem resposta',
    wentWrong: (action) => `Algo deu errado ao tentar ${action}.`,
    wentWrongNothingMore: (action) => `Algo deu errado ao tentar ${action}. Nada mais foi feito.`,
    wentWrongCheck: (action) => `Algo deu errado ao tentar ${action}. Verifique antes de tentar de novo.`,
    noDefaultAccount: 'A API Pix não indica uma conta padrão para esta empresa; informe o id da conta.',
    storeUnavailable: ':warning: O armazenamento do app está indisponível, então nada foi feito. Tente de novo em instantes.',
    formOutOfDate: 'Este formulário está desatualizado; feche-o e abra de novo.',
    buttonNoPage: 'Este botão não indica uma página. Nada foi feito.',
    buttonNoAccount: 'Este botão não indica uma conta. Nada foi feito.',
    buttonNoPixKey: 'Este botão não indica uma chave Pix. Nada foi feito.',
    buttonNoLimitRequest: 'Este botão não indica uma solicitação de limite. Nada foi feito.',
    buttonNoStatementPage: 'Este botão não indica uma página do extrato. Nada foi feito.',
    auditMissed: (channel) => `_Não consegui registrar isto em <#${channel}> (convide-me com \`/invite @Pix Ops\`)._`,
    progressCloseNote: 'Você pode fechar esta janela: o trabalho continua, e o resultado é publicado no canal.',
    items: (n) => (n === 1 ? '1 item' : `${n} itens`),
    fields: (n) => `${n} campos`,
    andMore: (n) => `E mais ${n}.`,
    channelNamed: (name) => `canal ${name}`,
    role: (role) => ROLES[role],
  },

  actions: {
    showHelp: 'mostrar a ajuda',
    readLimits: 'ler os limites',
    openLimitRequestForm: 'abrir o formulário de aumento de limite',
    readAccountLimits: 'ler os limites da conta',
    fileLimitRequest: 'solicitar um aumento de limite',
    uploadProofFiles: 'enviar os comprovantes',
    fileTheLimitRequest: 'registrar a solicitação de limite',
    readLimitRequest: 'ler a solicitação de limite',
    followLimitRequest: 'acompanhar uma solicitação de limite em um canal',
    followTheLimitRequest: 'acompanhar a solicitação de limite',
    listLimitRequests: 'listar as solicitações de limite',
    readAccounts: 'ler as contas',
    readAccount: 'ler a conta',
    openAccountForm: 'abrir o formulário de conta de campanha',
    createCampaignAccount: 'criar uma conta de campanha',
    createAccount: 'criar a conta',
    createApplication: 'criar a aplicação',
    retryApplication: 'tentar de novo criar a aplicação de uma conta de campanha',
    openAppIdForm: 'abrir o formulário do AppID',
    registerAppId: 'registrar o AppID de uma conta',
    checkAppId: 'verificar o AppID',
    listPixKeys: 'listar as chaves Pix',
    readPixKeys: 'ler as chaves Pix',
    findAccountAppId: 'encontrar o AppID da conta',
    openPixKeyForm: 'abrir o formulário de chave Pix',
    addPixKey: 'cadastrar uma chave Pix',
    addThePixKey: 'cadastrar a chave Pix',
    prepareKeyDeletion: 'preparar a exclusão da chave Pix',
    deletePixKey: 'excluir uma chave Pix',
    deleteThePixKey: 'excluir a chave Pix',
    cancelDeletion: 'cancelar uma exclusão',
    setWithdrawKey: 'definir a chave de saque',
    readScopes: 'ler os escopos',
    rotateSecret: 'trocar o segredo',
    issuePaymentBook: 'emitir o carnê',
    openEvidenceForm: 'abrir o formulário de evidências da disputa',
    sendDisputeEvidence: 'enviar evidências de disputa',
    uploadEvidenceFiles: 'enviar os arquivos de evidência',
    attachEvidence: 'anexar as evidências à disputa',
    readStatement: 'ler o extrato',
    readTransaction: 'ler a transação',
    seeHome: 'ver a aba Início',
    readTrackedRequests: 'ler as solicitações que o Pix Ops acompanha',
    readLatestRequests: 'ler as últimas solicitações de limite',
    listAccounts: 'listar as contas',
    prepareWithdrawKey: 'preparar a definição da chave de saque',
    prepareRotation: 'preparar a troca do segredo',
    cancelConfirmation: 'cancelar uma confirmação',
    readAuditTrail: 'ler a trilha de auditoria',
    exportAuditTrail: 'exportar a trilha de auditoria',
    approveOrReject: 'aprovar ou recusar uma ação',
    cancelApproval: 'cancelar uma ação que espera aprovação',
    runApprovedAction: 'executar a ação aprovada',
    readApprovals: 'ler as ações que esperam aprovação',
    askApproval: 'pedir aprovação',
    askWithdraw: 'pedir um saque',
    retryPayment: 'tentar um pagamento de novo',
    manageAway: 'passar suas aprovações para alguém enquanto estiver ausente',
    readDigest: 'montar o resumo',
    readOpenDisputes: 'ler as disputas abertas',
  },

  summaries: {
    help: 'esta lista',
    limits: 'os limites atuais de uma conta (a conta padrão quando nenhuma é informada)',
    limitRequest: 'abre o formulário para aumentar os limites de uma conta, com comprovantes',
    limitStatus: 'uma solicitação de limite: a situação, os limites pedidos e os aprovados',
    limitList: 'as solicitações de limite da empresa, das mais novas às mais antigas, dez por página',
    accounts: 'as contas da empresa: saldo, conta padrão, chave de saque, bloqueio de saque',
    account: 'uma conta',
    accountCreate: 'cria uma conta de campanha com a sua própria aplicação',
    accountLink: 'registra o AppID de uma conta criada em outro lugar',
    keys: 'as chaves Pix de uma conta, cada uma com um botão Excluir, e um botão Cadastrar',
    keyAdd: 'abre o formulário para cadastrar uma chave Pix em uma conta',
    keyDelete: 'exclui uma chave Pix (pede confirmação antes)',
    withdrawKey: 'cadastra e seleciona a chave de saque da conta, ou seleciona uma que a empresa já tem (pede confirmação antes)',
    withdraw: 'envia esse valor (em reais) da conta para a chave de saque dela, quando outra pessoa aprovar',
    scopes: 'os grupos de escopos que uma aplicação pode pedir',
    rotateSecret: 'troca o client secret de uma aplicação (pede confirmação antes); o novo é mostrado só para você',
    paymentBook: 'emite o carnê de uma assinatura até aquele mês e publica o PDF aqui',
    disputeEvidence: 'abre o formulário para enviar arquivos de evidência a uma disputa',
    statement: 'o extrato da conta, 15 lançamentos por página (a conta principal quando nenhuma é informada)',
    transaction: 'uma transação da conta (a conta principal quando nenhuma é informada)',
    audit: 'a trilha de auditoria, da mais recente: quem fez o quê, recusas incluídas (os últimos 7 dias quando nenhum número é informado)',
    digest:
      'o que espera a equipe agora, como o resumo da manhã diz: aprovações, pedidos de limite em análise, disputas abertas, saldos baixos, saques bloqueados (só você vê)',
    auditExport:
      'a trilha de auditoria em um arquivo CSV nas suas mensagens diretas (datas AAAA-MM-DD, horário de São Paulo; os últimos 30 dias quando nenhuma é informada)',
    away: 'enquanto você estiver ausente, até o fim daquele dia (horário de São Paulo), outra pessoa decide as aprovações que você poderia; sozinho: quem decide por você',
    awayOff: 'de volta: você mesmo decide suas aprovações de novo',
  },

  usage: {
    notAccountId: 'Isso não é um id de conta.',
    notLimitRequestId: 'Isso não é um id de solicitação de limite.',
    notSubscriptionId: 'Isso não é um id de assinatura.',
    notDisputeId: 'Isso não é um id de disputa.',
    notTransactionId: 'Isso não é um id de transação.',
    notClientId: 'Isso não é um client id.',
    notPixKey: 'Isso não é uma chave Pix.',
    badPage: 'A página é um número inteiro, 1 ou mais.',
    badDays: 'O número de dias é um número inteiro de 1 a 366.',
    badDate: 'As datas se escrevem AAAA-MM-DD, por exemplo 2026-03-05.',
    datesOrder: 'A primeira data não pode ser depois da segunda.',
  },

  help: {
    title: '*Pix Ops para Slack*',
    noRoleTitle: '*Pix Ops para Slack*\nVocê ainda não tem um papel aqui.',
    noRoleText: (how) => `Você ainda não tem um papel no Pix Ops. ${how}`,
    askAdmin: (p) =>
      `Peça a um administrador para incluir o seu ID de usuário \`${p.userId}\` em ${p.viewer}, ${p.operator} ou ${p.admin}.`,
    noAccessConfigured: (p) =>
      `Nenhum acesso está configurado ainda, então ninguém pode usá-lo. O seu ID de usuário é \`${p.userId}\`: defina ${p.admin}=${p.userId} (ou ${p.operator} / ${p.viewer}) no ambiente do bot e reinicie-o.`,
    whatYouCanDoText: (role) => `Pix Ops: o que você pode fazer como ${role}`,
    whatYouCanDo: (role) => `*Pix Ops para Slack*: o que você pode fazer como *${role}*`,
    footer: 'Valores em reais (R$ 1.234,56). `/pix help` mostra isto de novo.',
    usage: (p) => `${p.problem ? `${p.problem} ` : ''}Uso: \`/pix ${p.usage}\``,
    unknownCommand: (p) => `Não existe \`/pix ${p.word}\`. Você pode usar:\n${p.lines}`,
    refusal: (p) =>
      `Você precisa do papel *${p.role}* para ${p.what}. Peça a um administrador para incluir o seu ID de usuário \`${p.userId}\` em ${p.variable} (ou em um papel acima). Nada foi feito.`,
    useCommand: (path) => `usar \`/pix ${path}\``,
  },

  pixErrors: {
    noAnswerWrite: (action) =>
      `O serviço Pix não respondeu ao tentar ${action}; pode ter sido feito ou não. Verifique antes de tentar de novo.`,
    unreachable: (action) =>
      `Não consegui falar com o serviço Pix, então não foi possível ${action}. Nada foi alterado; tente de novo em instantes.`,
    invalidResponse: (action) => `O serviço Pix respondeu de um jeito que não entendo ao tentar ${action}. Nada mais foi feito.`,
    missingScope: (p) => `Não foi possível ${p.action}: a aplicação não tem o escopo \`${p.scope}\` da API Pix (${p.apiText}).`,
    notFound: (p) => `Não foi possível ${p.action}: não encontrado${p.apiText ? ` (${p.apiText})` : ''}.`,
    badAppId: (p) => `Não foi possível ${p.action}: a API Pix não aceitou o AppID configurado${p.apiText ? ` (${p.apiText})` : ''}.`,
    apiText: (p) => `Não foi possível ${p.action}: ${p.apiText}`,
    serverError: (p) =>
      `Não foi possível ${p.action}: o serviço Pix falhou (HTTP ${p.status}). Nada foi alterado; tente de novo mais tarde.`,
    httpStatus: (p) => `Não foi possível ${p.action}: o serviço Pix respondeu HTTP ${p.status}.`,
  },

  money: {
    empty: 'Informe um valor em reais.',
    not_a_number: 'Não é um valor: escreva como 1.234,56 ou 1234.56.',
    negative: 'O valor não pode ser negativo.',
    too_many_decimals: 'No máximo duas casas decimais (centavos).',
    ambiguous: 'Ambíguo: para mil reais escreva 1234 ou 1.234,00; os centavos têm duas casas.',
    too_large: 'O valor é grande demais.',
  },

  dates: {
    justNow: 'agora mesmo',
    minutesAgo: (n) => `há ${n} min`,
    hoursAgo: (n) => `há ${n} h`,
    daysAgo: (n) => (n === 1 ? 'há 1 dia' : `há ${n} dias`),
  },

  limits: {
    fieldWord: (word) => FIELD_WORDS[word] ?? word,
    title: (p) => `Limites da conta ${p.account}${p.isDefault ? ' (conta padrão)' : ''}`,
  },

  limitList: {
    empty: 'Ainda não há solicitações de limite.',
    emptyPage: (page) => `Nenhuma solicitação na página ${page}.`,
    range: (p) => `${p.from}–${p.to}${p.total !== undefined ? ` de ${p.total}` : ''}`,
    title: (p) => `*Solicitações de limite*, das mais novas às mais antigas · página ${p.page} (${p.range})`,
    text: (p) => `Solicitações de limite, página ${p.page}: ${p.range}`,
    line: (p) => `Conta ${p.account} · diurno *${p.day}* · noturno *${p.night}* · criada em ${p.created}`,
    footer:
      'Os valores são os limites diurno e noturno pedidos; horários de Brasília. `/pix limit status &lt;id&gt;` mostra uma solicitação por inteiro.',
  },

  request: {
    inReview: 'Em análise',
    approved: 'Aprovada',
    rejected: 'Recusada',
    statusWord: (status) =>
      status === 'IN_REVIEW'
        ? 'em análise'
        : status === 'APPROVED'
          ? 'aprovada'
          : status === 'REJECTED'
            ? 'recusada'
            : status.replace(/_/g, ' ').toLowerCase(),
    noApprovedValue: '_(sem valor aprovado)_',
    granted: (amount) => `→ concedido *${amount}*`,
    grantedBelow: (amount) => `→ concedido *${amount}* :warning: abaixo do pedido`,
    documents: (list) => `*Documentos:* ${list}`,
    file: 'arquivo',
    rootHead: (p) => `*Solicitação de aumento de limite* ${p.id} da conta ${p.account}`,
    status: (status) => `*Situação:* ${status}`,
    requestedBy: (user) => `*Solicitada por:* ${user}`,
    decisionInThread: 'A decisão será publicada nesta conversa.',
    rootText: (p) => `Solicitação de aumento de limite ${p.id} da conta ${p.account}: ${p.status}`,
    rejectedReply: (p) => `${p.mention} a solicitação de aumento de limite ${p.id} foi *recusada*. Os limites da conta não mudaram.`,
    rejectedText: (id) => `A solicitação de limite ${id} foi recusada`,
    approvedReply: (p) =>
      `${p.mention} a solicitação de aumento de limite ${p.id} foi *aprovada*${p.below ? `, ${p.below === 1 ? 'um limite' : `${p.below} limites`} abaixo do pedido` : ''}. Os novos limites já valem.`,
    approvedText: (p) => `A solicitação de limite ${p.id} foi aprovada${p.partly ? ' (em parte abaixo do pedido)' : ''}`,
  },

  limitStatus: {
    title: (id) => `*Solicitação de limite* ${id}`,
    status: 'Situação',
    account: 'Conta',
    created: 'Criada em',
    updated: 'Atualizada em',
    limits: '*Limites*',
    noAmounts: '_Nenhum valor de limite nesta solicitação._',
    requested: (p) => `• ${p.label}: pedido *${p.amount}*`,
    approved: (amount) => `→ aprovado *${amount}*`,
    approvedBelow: (amount) => `→ aprovado *${amount}* :warning: abaixo do pedido`,
    notRequestedApproved: (p) => `• ${p.label}: não pedido  → aprovado *${p.amount}*`,
    alsoInRequest: (list) => `Também na solicitação: ${list}`,
    approvedWithoutLimits: ':warning: Marcada como aprovada, mas o serviço não enviou os limites aprovados: ainda não é uma aprovação.',
    rejectedNote: 'Recusada: nada foi concedido e os limites da conta não mudaram.',
    documents: (list) => `*Documentos:* ${list}`,
    description: (text) => `*Descrição:* ${text}`,
    followedClosed: (channel) => `Acompanhada pelo Pix Ops: a conversa dela está em ${channel}.`,
    followedOpen: (channel) => `Acompanhada pelo Pix Ops: a conversa dela está em ${channel}, onde a decisão será publicada.`,
    notFollowed: 'O Pix Ops ainda não acompanha esta solicitação. *Avisar neste canal* publica-a aqui, e a decisão na conversa dela.',
    notifyButton: 'Avisar neste canal',
    text: (p) => `Solicitação de limite ${p.id} da conta ${p.account}: ${p.status}`,
    alreadyFollowed: (p) => `A solicitação de limite ${p.id} já é acompanhada: a conversa dela está em ${p.channel}. Nada mais foi feito.`,
    alreadyDecided: (p) => `A solicitação de limite ${p.id} já foi decidida (${p.status}), então não há o que esperar. Nada foi publicado.`,
    followed: (p) => `Pronto: a solicitação de limite ${p.id} foi publicada em ${p.channel}, e a decisão será publicada naquela conversa.`,
    notInChannel:
      'Não consigo publicar neste canal. Convide-me com `/invite @Pix Ops` e clique de novo. Nada foi publicado nem acompanhado.',
    noChannel: 'Não sei em que canal está este botão. Nada foi publicado nem acompanhado.',
    busy: (id) => `A solicitação de limite ${id} está sendo configurada em um canal neste momento. Nada mais foi feito.`,
    postFailed: (slackError) => `O Slack recusou a mensagem (${slackError}), então nada foi publicado nem acompanhado.`,
    notSaved:
      'Não foi possível salvar a solicitação como acompanhada, então a mensagem foi retirada. Nada é acompanhado; tente de novo em instantes.',
  },

  limitForm: {
    title: 'Aumento de limite',
    loading: 'Lendo os limites atuais da conta…',
    defaultAccount: '(padrão)',
    account: 'Conta',
    amountsHint: 'Valores em reais, como 1.234,56. Cada um começa no limite atual; aumente os que precisar.',
    current: (amount) => `Atual: ${amount}`,
    available: (amount) => `disponível ${amount}`,
    alsoOnAccount: (list) => `Também nesta conta: ${list}`,
    proofsFromMessage: (list) => `*Comprovantes da mensagem:* ${list}`,
    proofFiles: 'Comprovantes',
    moreProofFiles: 'Mais comprovantes',
    filesHint: (max) => `PDF, PNG, JPEG ou WebP, no máximo 10 MiB cada, ${max} arquivos no total.`,
    description: 'Descrição para o analista',
    reason: 'Motivo',
    submit: 'Solicitar',
    progressNote: 'Você pode fechar esta janela: a solicitação continua, e a mensagem dela será publicada quando for registrada.',
    uploading: (p) => `Enviando o comprovante ${p.index} de ${p.total}…`,
    uploadingNamed: (p) => `Enviando o comprovante ${p.index} de ${p.total}: ${p.name}`,
    filing: 'Registrando a solicitação…',
    filed: (p) => `:white_check_mark: Solicitação ${p.id} registrada e em análise. ${p.where}`,
    filedThread: (channel) => `A conversa dela está em ${channel}; a decisão será publicada lá.`,
    notPosted: 'Nenhuma mensagem da solicitação foi publicada.',
    chooseAccount: 'Escolha a conta.',
    belowCurrent: (amount) => `Abaixo do limite atual de ${amount}: uma solicitação só pode aumentar limites.`,
    noneAbove: 'Pelo menos um limite precisa ficar acima do valor atual.',
    attachProof: 'Anexe pelo menos um comprovante (PDF, PNG, JPEG ou WebP).',
    tooManyFiles: (p) => `No máximo ${p.max} arquivos: há ${p.count} anexados.`,
    shortcutNoFiles: 'Essa mensagem não tem arquivos. Use `/pix limit request` e anexe os comprovantes no formulário.',
    homeFormFailed: 'Não consegui abrir o formulário de aumento de limite. Tente `/pix limit request` em um canal.',
    accountSearch: 'Digite parte do id da conta',
  },

  files: {
    cannotRead: (id) => `Não consegui ler o arquivo ${id} no Slack; anexe-o de novo.`,
    tooBig: (p) => `“${p.name}” tem ${p.mib} MiB; cada arquivo pode ter no máximo 10 MiB.`,
    empty: (name) => `“${name}” está vazio.`,
    cannotDownload: (name) => `Não consegui baixar “${name}” do Slack.`,
    notInTime: (name) => `Não consegui ler “${name}” no Slack a tempo; tente de novo.`,
    wrongType: (name) => `“${name}” não é um arquivo PDF, PNG, JPEG ou WebP (pelo conteúdo, não pelo nome).`,
    overCap: (name) => `“${name}” tem mais de 10 MiB (contados no envio, seja qual for o tamanho informado pelo Slack); não foi enviado.`,
  },

  accounts: {
    randomKey: 'chave aleatória (EVP)',
    email: 'e-mail',
    phone: 'telefone',
    withdrawNotReported: '_não informada (a API de chave de saque não está habilitada nesta conta)_',
    withdrawNone: 'nenhuma definida',
    withdrawBlocked:
      ':warning: *Saques bloqueados*: uma tentativa de saque não encontrou a chave de saque desta conta no DICT, então todo saque é recusado até o serviço liberar o bloqueio.',
    appStored: (clientId) => `AppID guardado (criptografado)${clientId ? `, aplicação ${clientId}` : ''}`,
    appPending: (accountId) =>
      `:warning: ainda sem aplicação: a criação dela falhou; um administrador pode tentar de novo, ou registrar um AppID com \`/pix account link ${accountId}\``,
    appMain: 'a aplicação principal (PIX_APP_ID)',
    appNone: (accountId) => `nenhum AppID conhecido: um administrador pode registrar um com \`/pix account link ${accountId}\``,
    defaultAccount: ' (conta padrão)',
    campaign: (name) => ` · campanha ${name}`,
    none: 'A API Pix não lista nenhuma conta desta empresa.',
    listTitle: (n) => `*Contas da empresa* (${n})`,
    balanceLine: (text) => `Saldo: ${text}`,
    balanceFields: (p) => `total ${p.total} · disponível ${p.available} · bloqueado ${p.blocked}`,
    withdrawKeyLine: (text) => `Chave de saque: ${text}`,
    keysManagedLine: (text) => `Chaves gerenciadas com: ${text}`,
    listText: (p) => `${p.count} conta(s)${p.blocked ? `, ${p.blocked} com saques bloqueados` : ''}`,
    fieldBalance: 'Saldo',
    fieldDefault: 'Conta padrão',
    fieldWithdrawKey: 'Chave de saque',
    fieldKeysManaged: 'Chaves gerenciadas com',
    fieldTaxId: 'CPF/CNPJ do titular',
    oneTitle: (title) => `*Conta ${title}*`,
    oneText: (p) =>
      `Conta ${p.accountId}: ${p.balance ? `saldo ${p.balance}` : 'saldo não informado'}${p.blocked ? ' (saques bloqueados)' : ''}`,
    createTitle: 'Nova conta de campanha',
    createSubmit: 'Criar',
    campaignName: 'Nome da campanha',
    campaignNameHint: 'Dá nome também à aplicação da conta.',
    createNote:
      'Cria uma conta bancária com a aplicação MASTER e depois uma aplicação API para ela. O AppID dela é guardado criptografado; o client secret é mostrado a você uma única vez, aqui.',
    linkTitle: 'Vincular um AppID',
    linkSubmit: 'Verificar e guardar',
    linkIntro: (account) =>
      `Registre o AppID da conta ${account}, criada fora do Pix Ops. Ele é verificado com a API Pix e depois guardado criptografado.`,
    appIdLabel: 'AppID',
    appIdHint: 'O valor do cabeçalho Authorization da aplicação daquela conta.',
    retryButton: 'Tentar criar a aplicação de novo',
    hasApplication: (p) => `:white_check_mark: A conta ${p.account} tem a sua aplicação${p.clientId ? ` ${p.clientId}` : ''}.`,
    clientSecret: (secret) =>
      `*Client secret* (mostrado só para você, só desta vez; copie-o agora, o Pix Ops não o guarda):\n\`\`\`${secret}\`\`\``,
    noClientSecret: 'A resposta do serviço não trouxe client secret; gere um com `/pix rotate-secret <clientId>` se precisar.',
    unstoredAppId: (p) =>
      `:warning: O AppID dela *não* pôde ser guardado. Guarde-o em lugar seguro e registre-o depois com \`/pix account link ${p.accountId}\`:\n\`\`\`${p.appId}\`\`\``,
    storedNote: ' O AppID dela está guardado criptografado.',
    notStoredNote: (accountId) =>
      ` :warning: O AppID dela não pôde ser guardado: um administrador precisa registrá-lo com \`/pix account link ${accountId}\`.`,
    auditCreated: (p) =>
      `${p.user} criou a conta de campanha ${p.account} (${p.name}) com a sua aplicação${p.clientId ? ` ${p.clientId}` : ''}.${p.note}`,
    auditAppFailed: (p) =>
      `${p.user} criou a conta de campanha ${p.account} (${p.name}), mas a aplicação dela não pôde ser criada: ${p.problem}`,
    appFailedNote: 'A conta existe, sem aplicação (e, portanto, sem AppID). Tentar de novo cria só a aplicação.',
    auditResolved: (p) =>
      `A conta de campanha ${p.account} (${p.name}) agora tem a sua aplicação${p.clientId ? ` ${p.clientId}` : ''}, criada por ${p.user}.`,
    auditRetried: (p) =>
      `${p.user} criou a aplicação${p.clientId ? ` ${p.clientId}` : ''} da conta de campanha ${p.account} (${p.name}).${p.note}`,
    auditLinked: (p) => `${p.user} registrou um AppID para a conta ${p.account} (verificado com a API Pix, guardado criptografado).`,
    masterMissing:
      'As contas de campanha são criadas com a aplicação MASTER, e nenhum `PIX_MASTER_APP_ID` está definido. Defina-o no ambiente do bot e reinicie-o. Nada foi criado.',
    appCreatedText: (accountId) => `A aplicação da conta ${accountId} foi criada.`,
    secretNotShown: (account) =>
      `A aplicação da conta ${account} foi criada, mas não consegui mostrar o client secret dela para você. Gere um novo com \`/pix rotate-secret <clientId>\`.`,
    createdButAppFailed: (p) => `:warning: A conta ${p.account} (${p.name}) foi criada, mas a aplicação dela não pôde ser: ${p.problem}`,
    appStillFailed: (p) => `:warning: A aplicação da conta ${p.account} ainda não pôde ser criada: ${p.problem}`,
    retryNote: 'A conta existe, sem aplicação (e, portanto, sem AppID). Tentar de novo cria só a aplicação, para esta conta.',
    noAppIdInAnswer: (accountId) =>
      `:warning: A resposta do serviço não trouxe AppID, então nenhum foi guardado. Registre-o com \`/pix account link ${accountId}\`.`,
    nothingCreated: ' Nenhuma conta foi criada.',
    accountCreated: (account) => `Conta ${account} criada. Criando a aplicação dela…`,
    creatingAccount: 'Criando a conta…',
    enterName: 'Informe o nome da campanha.',
    nameTooLong: (max) => `No máximo ${max} caracteres.`,
    createOutOfDate: 'Este formulário está desatualizado; feche-o e rode /pix account create de novo.',
    alreadySubmitted: 'Este formulário já foi enviado; o resultado aparece aqui e é publicado no canal. Nada mais foi feito.',
    campaignAccount: 'Conta de campanha',
    alreadyHasApp: (p) => `A conta ${p.account} já tem a sua aplicação${p.clientId ? ` ${p.clientId}` : ''}. Nada foi criado.`,
    appBeingCreated: (account) => `A aplicação da conta ${account} está sendo criada neste momento. Nada mais foi feito.`,
    appIdRefused: (apiText) => `A API Pix não aceita este AppID${apiText ? ` (“${apiText}”)` : ''}. Nada foi guardado.`,
    nothingStored: (problem) => `${problem} Nada foi guardado.`,
    appIdNoAccount: 'A API Pix não disse a que conta este AppID pertence, então ele não foi guardado.',
    appIdOtherAccount: (p) => `Este AppID pertence a outra conta (${p.bound}), não a ${p.accountId}. Nada foi guardado.`,
    appIdNotStored: 'O AppID está certo, mas não pôde ser guardado. Tente de novo em instantes.',
    linked: (p) =>
      `:white_check_mark: O AppID da conta ${p.account} foi verificado com a API Pix e guardado criptografado. As chaves Pix dela agora podem ser gerenciadas com \`/pix keys ${p.accountId}\`.`,
    linkOutOfDate: 'Este formulário está desatualizado; feche-o e rode /pix account link de novo.',
    enterAppId: 'Informe o AppID.',
    notAnAppId: 'Isso não é um AppID: ele não tem espaços nem quebras de linha.',
    checkingAppId: 'Verificando o AppID com a API Pix…',
    noAppIdKnown: (p) =>
      `Nenhum AppID é conhecido para a conta ${p.account}, então não consigo gerenciar as chaves Pix dela. Um administrador pode registrá-lo com \`/pix account link ${p.accountId}\`.`,
    pendingApp: (p) =>
      `A conta ${p.account} ainda não tem aplicação (a criação dela falhou). Um administrador pode tentar de novo com *Tentar criar a aplicação de novo* no canal, ou registrar um AppID com \`/pix account link ${p.accountId}\`.`,
    notAmongAccounts: (account) => `A conta ${account} não está entre as contas da empresa (não encontrada).`,
    staleAppId: (p) =>
      `A API Pix recusou o AppID guardado para a conta ${p.account} depois que o segredo da aplicação dela foi trocado, então não o uso mais. Um administrador pode vincular o novo AppID da conta com \`/pix account link ${p.accountId}\`. Nada foi feito.`,
    listPage: (p) => `Contas ${p.from}–${p.to} de ${p.total} · página ${p.page} de ${p.pages}. Leia uma com \`/pix account <accountId>\`.`,
  },

  pixKeys: {
    title: (p) => `Chaves Pix da conta ${p.account}${p.isDefault ? ' (conta padrão)' : ''}${p.campaign ? ` · campanha ${p.campaign}` : ''}`,
    none: '_Nenhuma chave Pix ainda._',
    delete: 'Excluir',
    add: 'Cadastrar uma chave Pix',
    rolesNote: 'Cadastrar uma chave exige o papel de operador; excluir, o de administrador (e uma confirmação).',
    text: (p) => `${p.count} chave(s) Pix da conta ${p.accountId}`,
    typeEmail: 'E-mail',
    typePhone: 'Telefone (+55…)',
    typeCpf: 'CPF',
    typeCnpj: 'CNPJ',
    typeEvp: 'Chave aleatória (EVP)',
    addTitle: 'Cadastrar chave Pix',
    addSubmit: 'Cadastrar',
    addIntro: (account) => `Nova chave Pix para a conta ${account}.`,
    typeLabel: 'Tipo',
    keyLabel: 'Chave',
    keyHint:
      'E-mail: nome@exemplo.com · Telefone: +5511987654321 · CPF: 11 dígitos · CNPJ: 14 · Chave aleatória: um UUID, ou vazio para o serviço criar uma.',
    deleteConfirm: (p) =>
      `Excluir a chave Pix ${p.key} da conta ${p.account}? Depois da exclusão *nenhum dinheiro poderá ser enviado para esta chave*.`,
    deleteConfirmText: (p) =>
      `Excluir a chave Pix ${p.key} da conta ${p.accountId}? Depois da exclusão nenhum dinheiro poderá ser enviado para esta chave.`,
    deleteButton: 'Excluir a chave',
    viaBoth: 'A empresa já tinha esta chave, então ela foi selecionada (PUT).',
    viaPut: 'Selecionada (PUT).',
    viaPost: 'Cadastrada e selecionada (POST).',
    withdrawResult: (p) => `:white_check_mark: Chave de saque da conta ${p.account}: ${p.key}`,
    noWithdrawInAnswer: 'A resposta do serviço não trouxe `pixKeyWithdraw`.',
    withdrawText: (p) => `Chave de saque da conta ${p.accountId} definida como ${p.key}`,
    auditAdded: (p) => `${p.user} cadastrou a chave Pix ${p.key} (${p.type}) na conta ${p.account}.`,
    auditDeleted: (p) => `${p.user} excluiu a chave Pix ${p.key} da conta ${p.account}; nenhum dinheiro pode mais ser enviado para ela.`,
    auditWithdraw: (p) => `${p.user} definiu a chave de saque da conta ${p.account} como ${p.key}.`,
    wrongAppId: (p) =>
      `O AppID conhecido para a conta ${p.account} responde pela conta ${p.bound}, então as chaves dela não são mostradas. Um administrador pode registrar o certo com \`/pix account link ${p.accountId}\`.`,
    chooseType: 'Escolha o tipo da chave.',
    adding: 'Cadastrando a chave…',
    added: (p) => `:white_check_mark: A chave Pix ${p.key} foi cadastrada na conta ${p.account}.`,
    deleted: (p) =>
      `:wastebasket: A chave Pix ${p.key} da conta ${p.account} foi excluída; nenhum dinheiro pode mais ser enviado para ela.`,
    beingDeleted: 'Esta chave está sendo excluída neste momento. Nada mais foi feito.',
    cancelled: 'Cancelado: nada foi excluído.',
    withdrawNotEnabled: (p) =>
      `Não foi possível definir a chave de saque da conta ${p.account}: a API de chave de saque não está habilitada nesta conta${p.apiText ? ` (“${p.apiText}”)` : ''}. Peça ao serviço Pix para habilitá-la. Nada foi alterado.`,
    page: (p) => `Chaves ${p.from}–${p.to} de ${p.total} · página ${p.page} de ${p.pages}`,
  },

  pixKeyValues: {
    emailEmpty: 'Informe o endereço de e-mail.',
    emailTooLong: (max) => `Uma chave de e-mail tem no máximo ${max} caracteres.`,
    emailInvalid: 'Não é um endereço de e-mail: escreva como nome@exemplo.com.',
    phoneEmpty: 'Informe o número de telefone, como +5511987654321.',
    phoneNoCountry: 'Uma chave de telefone começa com +55, depois o DDD e o número, como +5511987654321.',
    phoneInvalid: 'Não é um celular brasileiro: +55, um DDD de dois dígitos e nove dígitos começando com 9, como +5511987654321.',
    cpfEmpty: 'Informe o CPF (11 dígitos).',
    cpfLength: 'Um CPF tem 11 dígitos, como 123.456.789-09.',
    cpfInvalid: 'Não é um CPF válido: os dígitos verificadores não conferem.',
    cnpjEmpty: 'Informe o CNPJ (14 caracteres).',
    cnpjLength: 'Um CNPJ tem 14 caracteres, como 12.345.678/0001-95.',
    cnpjInvalid: 'Não é um CNPJ válido: os dígitos verificadores não conferem.',
    evpInvalid: 'Uma chave aleatória é um UUID como 123e4567-e89b-42d3-a456-426614174000. Deixe vazio para o serviço criar uma.',
    noKey: 'Nenhuma chave Pix informada.',
    unrecognized:
      'Isso não é uma chave Pix: um e-mail, um telefone como +5511987654321, um CPF (11 dígitos), um CNPJ (14) ou uma chave aleatória (um UUID).',
  },

  applications: {
    scopesTitle: '*Escopos que uma aplicação pode pedir*',
    scopeGroupsText: (p) => `${p.groups} grupos de escopos, ${p.scopes} escopos`,
    noneInGroup: '_nenhum_',
    noScopes: 'A API Pix não listou nenhum escopo.',
    noScopesItalic: '_A API Pix não listou nenhum escopo._',
    scopesText: (n) => `${n} escopos`,
    notGrouped: 'Mostrados como o serviço os enviou (sem grupos).',
    newSecret: (p) =>
      `:key: Novo client secret da aplicação ${p.clientId} (só você vê isto, só desta vez; o Pix Ops não o guarda):\n\`\`\`${p.secret}\`\`\``,
    noSecretRead: (clientId) =>
      `:key: O segredo da aplicação ${clientId} foi trocado, mas a resposta do serviço não trouxe um \`clientSecret\` que eu conseguisse ler.`,
    oldSecretDead: 'O segredo antigo não funciona mais. Atualize tudo o que o usa.',
    newAppIdShown: (appId) =>
      `O serviço também enviou um novo AppID para esta aplicação (só você vê isto, só desta vez):\n\`\`\`${appId}\`\`\`\nSe for um dos que o bot usa (\`PIX_APP_ID\` ou \`PIX_MASTER_APP_ID\`), coloque-o no ambiente do bot e reinicie o bot.`,
    storedAppIdReplaced: (account) =>
      `O AppID que o bot guarda para a conta ${account} foi substituído pelo novo (guardado criptografado, não mostrado).`,
    storedAppIdWorks: (account) =>
      `O AppID que o bot guarda para a conta ${account} continua funcionando: uma leitura das chaves Pix com ele foi aceita.`,
    storedAppIdStale: (p) =>
      `O AppID que o bot guarda para a conta ${p.account} não funciona mais (a API Pix o recusou), então o bot não o usará de novo. Vincule o novo AppID da conta com \`/pix account link ${p.accountId}\`.`,
    storedAppIdUnchecked: (p) =>
      `Não consegui verificar se o AppID guardado para a conta ${p.account} continua funcionando (${p.problem}). Se as chaves Pix dela forem recusadas, vincule o novo AppID com \`/pix account link ${p.accountId}\`.`,
    rotatedText: (clientId) => `O segredo da aplicação ${clientId} foi trocado.`,
    auditRotated: (p) => `${p.user} trocou o client secret da aplicação ${p.clientId}. O novo segredo foi mostrado só para essa pessoa.`,
    masterMissing:
      'Trocar um segredo exige a aplicação MASTER, e nenhum `PIX_MASTER_APP_ID` está definido. Defina-o no ambiente do bot e reinicie-o. Nada foi trocado.',
  },

  paymentBook: {
    repeatIsSafe: 'Repetir este comando não cobra de novo: o serviço Pix emite cada parcela uma única vez.',
    title: (p) => `Carnê ${p.subscriptionId} até ${p.period}`,
    comment: (p) => `Carnê da assinatura ${p.subscriptionId}: as parcelas até ${p.period}, emitido por ${p.user}.`,
    posted: (p) => `:white_check_mark: Carnê da assinatura ${p.subscription} até ${p.period} publicado aqui como ${p.file} (${p.size}).`,
    notInChannel: (p) =>
      `O carnê da assinatura ${p.subscription} até ${p.period} foi emitido, mas não consigo publicar arquivos neste canal. Convide-me com \`/invite @Pix Ops\` (ou rode o comando em uma DM comigo) e rode-o de novo.`,
    postFailed: (p) =>
      `O carnê da assinatura ${p.subscription} até ${p.period} foi emitido, mas o Slack recusou o arquivo (${p.slackError}), então ele não foi publicado.`,
    notAPdf: (subscription) =>
      `O serviço Pix respondeu ao carnê da assinatura ${subscription} com algo que não é um PDF, então nada foi publicado.`,
    noAnswer: (p) =>
      `O serviço Pix não respondeu direito ao emitir o carnê da assinatura ${p.subscription} até ${p.period} (${p.detail}); algumas parcelas podem ter sido emitidas. Nada foi publicado.`,
    notAMonth: (text) => `“${text}” não é um mês: escreva um número de 1 a 12.`,
    notAYear: (p) => `“${p.text}” não é um ano: escreva quatro dígitos, como ${p.example}.`,
    tooLate: (p) => `O carnê pode ser emitido até ${p.latest} (o fim do ano que vem); ${p.asked} é depois disso.`,
  },

  evidence: {
    title: 'Evidências da disputa',
    intro: (dispute) => `Evidências para a disputa ${dispute}`,
    introNote: 'Cada arquivo é enviado ao serviço Pix como evidência de disputa e depois anexado à disputa pelo id do arquivo.',
    filesLabel: 'Arquivos de evidência',
    filesHint: (max) => `PDF, PNG, JPEG ou WebP, no máximo 10 MiB cada, ${max} arquivos de uma vez.`,
    noteLabel: 'Observação',
    noteHint:
      'Publicada neste canal com o registro do que foi enviado. A API Pix não tem um campo documentado para observações, então ela não é enviada ao serviço.',
    submit: 'Enviar evidências',
    progressNote: 'Você pode fechar esta janela: os arquivos continuam subindo, e o resultado é publicado no canal.',
    sentTitle: (p) => `*Evidências de disputa enviadas* para a disputa ${p.dispute} por ${p.user}`,
    fileLine: (p) => `• ${p.name} (arquivo ${p.fileId})`,
    note: (text) => `*Observação:* ${text}`,
    sentText: (p) => `Evidências enviadas para a disputa ${p.disputeId}: ${p.count} arquivo(s)`,
    featureOff: (apiText) =>
      [
        ':no_entry: O serviço Pix não aceita evidências por arquivo enviado para esta empresa: o recurso `DISPUTE_EVIDENCE_FILE_ID` não está habilitado para ela',
        `(código de erro \`DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED\`${apiText ? `, “${apiText}”` : ''}).`,
        'Peça ao serviço Pix para habilitá-lo para a empresa e envie as evidências de novo.',
        'Os arquivos foram enviados, mas nada foi anexado à disputa.',
      ].join(' '),
    attachEvidence: 'Anexe pelo menos um arquivo de evidência (PDF, PNG, JPEG ou WebP).',
    tooManyFiles: (p) => `No máximo ${p.max} arquivos de uma vez: há ${p.count} anexados.`,
    uploading: (p) => `Enviando a evidência ${p.index} de ${p.total}…`,
    uploadingNamed: (p) => `Enviando a evidência ${p.index} de ${p.total}: ${p.name}`,
    attaching: 'Anexando os arquivos à disputa…',
    recordPosted: 'O registro foi publicado no canal.',
    recordInDm: 'Não consegui publicar o registro no canal, então ele está em uma DM para você.',
    recordNowhere: 'Não consegui publicar o registro no canal nem em uma DM.',
    attached: (p) =>
      `:white_check_mark: ${p.count === 1 ? 'O arquivo está anexado' : `Os ${p.count} arquivos estão anexados`} à disputa ${p.dispute} como evidência. ${p.where}`,
    nothingAttached: 'Nada foi anexado à disputa.',
    uploadedNotAttached: (count) =>
      `${count === 1 ? 'O arquivo foi enviado' : 'Os arquivos foram enviados'}, mas nada foi anexado à disputa.`,
    uploadedMaybeAttached: (count) =>
      `${count === 1 ? 'O arquivo foi enviado' : 'Os arquivos foram enviados'}, mas pode ou não ter sido anexado à disputa: verifique antes de enviar de novo.`,
    wentWrong: (after) => `Algo deu errado ao enviar as evidências. ${after}`,
  },

  statement: {
    balance: (amount) => `saldo ${amount}`,
    entryWithout: '_(um lançamento sem data, descrição nem valor)_',
    mainAccount: 'da conta principal',
    account: (account) => `da conta ${account}`,
    title: (whose) => `*Extrato ${whose}*`,
    noList: 'O serviço respondeu sem uma lista de lançamentos; isto é o que ele enviou:',
    emptyAnswer: '_O serviço enviou uma resposta vazia._',
    answered: (value) => `O serviço respondeu: ${value}`,
    timesNote: 'Horários de Brasília.',
    text: (whose) => `Extrato ${whose}`,
    noEntries: '_Nenhum lançamento._',
    page: (p) => `*Extrato ${p.whose}* · lançamentos ${p.from}–${p.to} de ${p.total} · página ${p.page} de ${p.pages}`,
    alsoInAnswer: (list) => `Também na resposta: ${list}`,
    order: 'Lançamentos na ordem em que o serviço os enviou.',
    readFrom: (path) => `(Lido de ${path}.)`,
    textEmpty: (whose) => `Extrato ${whose}: nenhum lançamento`,
    textPage: (p) => `Extrato ${p.whose}, página ${p.page} de ${p.pages}`,
    transactionTitle: (p) => `*Transação* ${p.id}${p.account ? ` da conta ${p.account}` : ''}`,
    moreFields: (n) => `Mais ${n} campos não mostrados.`,
    answeredList: 'O serviço respondeu com uma lista:',
    transactionText: (id) => `Transação ${id}`,
    otherAccountHint: (how) => `Ler outra conta com \`companyBankAccount\` exige uma aplicação MASTER: ${how}`,
    otherAccountWithMaster: 'a empresa precisa do recurso `MASTER_APP_READ_ANY_ACCOUNT` habilitado pelo serviço Pix.',
    otherAccountWithoutMaster:
      'defina `PIX_MASTER_APP_ID` (só uma aplicação MASTER pode fazê-lo) e peça que o recurso `MASTER_APP_READ_ANY_ACCOUNT` seja habilitado para a empresa.',
  },

  home: {
    thread: 'conversa',
    threadIn: (channel) => `conversa em ${channel}`,
    inReviewTitle: '*Solicitações de limite em análise* que o Pix Ops acompanha',
    inReviewNone:
      'Nenhuma no momento. As solicitações feitas com `/pix limit request` (ou acompanhadas a partir de `/pix limit status`) aparecem aqui.',
    inReviewLine: (p) => `${p.id} · conta ${p.account} · feita ${p.age} por ${p.user} · ${p.where}`,
    andMoreOldest: (n) => `E mais ${n}, as mais antigas primeiro.`,
    decisionsTitle: '*Últimas decisões*',
    decisionsNone: 'Nenhuma solicitação de limite decidida ainda.',
    asked: (p) => `${p.label} pedido ${p.amount}`,
    askedNoneGranted: (p) => `${p.label} pedido ${p.amount}, nada concedido`,
    granted: (p) => `${p.label} *${p.amount}*`,
    grantedBelow: (p) => `${p.label} *${p.amount}* (pedido ${p.asked}) :warning:`,
    decided: (when) => `decidida em ${when}`,
    account: (account) => `conta ${account}`,
    keysButton: 'Chaves Pix',
    accountsTitle: '*Contas*',
    accountsNone: 'A API Pix não lista nenhuma conta.',
    defaultTag: ' (padrão)',
    noBalance: '_Nenhum saldo na resposta._',
    withdrawKey: (p) => `Chave de saque: ${p.key} (${p.type})`,
    withdrawBlocked: ':warning: *Saque bloqueado*: a chave Pix de saque não foi encontrada no DICT.',
    accountsMore: (n) => `E mais ${n}: \`/pix accounts\` lista todas.`,
    requestButton: 'Pedir aumento de limite',
    refreshButton: 'Atualizar',
    header: 'Pix Ops',
    intro: (p) => `Você é *${p.role}*. Atualizado em ${p.updated} (horário de Brasília). \`/pix help\` lista todos os comandos.`,
    keysTitle: (account) => `*Chaves Pix da conta* ${account}`,
    keysLoading: ':hourglass_flowing_sand: Lendo as chaves…',
    keysNone: '_Esta conta não tem chaves Pix._',
    keysHowTo: (accountId) => `Para cadastrar ou excluir chaves: \`/pix keys ${accountId}\`.`,
    keysModalTitle: 'Chaves Pix',
    noAppId:
      'O Pix Ops não tem o AppID desta conta (ela não foi criada com `/pix account create`), então as chaves dela não podem ser lidas daqui.',
  },

  tracking: {
    filedByDm:
      'Não consegui publicar a mensagem dela no canal nem em uma DM agora, então a decisão será enviada a você por mensagem direta.',
    filedNotRecorded:
      'O armazenamento do app falhou ao registrá-la: ela será acompanhada assim que o armazenamento responder, e a decisão ainda chegará a você. Não a envie de novo.',
    maybeFiled:
      'Se ela foi enviada, a mensagem dela será publicada e ela será acompanhada como qualquer outra (se não, você será avisado por mensagem direta): consulte `/pix limit list` antes de enviá-la de novo.',
    notFiled: (p) =>
      `Sua solicitação de limite para a conta ${p.account} (iniciada em ${p.when}, horário de Brasília) não está entre as solicitações da empresa: ela não foi enviada. Consulte \`/pix limit list\` e envie-a de novo se ainda precisar.`,
    notFiledText: 'Uma solicitação de limite não foi enviada',
    decisionByDm: (thread) =>
      thread
        ? 'Não foi possível chegar à conversa dela (a mensagem foi apagada, ou fui removido do canal, ou ele foi arquivado), então a decisão vem aqui.'
        : 'Não foi possível publicar a mensagem dela em um canal, então a decisão vem aqui.',
    unfollowedNotice: (p) =>
      `${p.mention} deixei de acompanhar a solicitação de limite ${p.id}: o serviço Pix respondeu ${p.status} (${p.status === 404 ? 'não encontrada' : 'acesso negado'}) às últimas ${p.reads} leituras, ao longo de ${p.minutes} minutos.${p.said ? ` O serviço Pix disse: “${p.said}”.` : ''} Consulte-a com ${p.command} ou no painel do Pix.`,
    unfollowedText: (id) => `A solicitação de limite ${id} não é mais acompanhada`,
    unfollowedStatus: 'Não é mais acompanhada',
  },

  confirmations: {
    withdraw: (p) =>
      `Definir ${p.key} como chave de saque da conta ${p.account}? A partir daí *os saques desta conta vão para esta chave*.`,
    withdrawText: (p) =>
      `Definir ${p.key} como chave de saque da conta ${p.accountId}? A partir daí os saques desta conta vão para esta chave.`,
    withdrawButton: 'Definir a chave de saque',
    withdrawCancelled: 'Cancelado: a chave de saque não foi alterada.',
    withdrawBeingSet: 'A chave de saque desta conta está sendo definida agora. Nada mais foi feito.',
    rotate: (clientId) =>
      `Trocar o client secret da aplicação ${clientId}? *O segredo atual para de funcionar na hora*: o que o usa falha até receber o novo.`,
    rotateText: (clientId) => `Trocar o client secret da aplicação ${clientId}? O segredo atual para de funcionar na hora.`,
    rotateButton: 'Trocar o segredo',
    rotateCancelled: 'Cancelado: o segredo não foi trocado.',
    rotateBeingDone: 'Este segredo está sendo trocado agora. Nada mais foi feito.',
    alreadyConfirmed: 'Isto já foi confirmado. Nada mais foi feito.',
    buttonNoClientId: 'Este botão não indica uma aplicação. Nada foi feito.',
  },

  appCreation: {
    reasonTimeout: 'o serviço Pix não respondeu a tempo',
    reasonNetwork: 'a conexão com o serviço Pix caiu antes da resposta',
    reasonGateway: (status) => `um gateway respondeu HTTP ${status} no lugar do serviço Pix`,
    reasonUnreadable: 'não deu para ler a resposta do serviço Pix',
    reasonUnknown: 'algo deu errado enquanto a resposta era esperada',
    uncertain: (p) =>
      `:warning: A conta ${p.account} (${p.name}) foi criada, mas não se sabe se a aplicação dela foi: ${p.reason}. *Ela pode existir.*`,
    uncertainAgain: (p) => `:warning: Não se sabe se a aplicação da conta ${p.account} foi criada: ${p.reason}. *Ela pode existir.*`,
    stillUncertain: (account) =>
      `:warning: Uma tentativa anterior de criar a aplicação da conta ${account} não teve resposta clara: *ela pode existir*. Nada foi criado.`,
    auditUncertain: (p) =>
      `${p.user} criou a conta de campanha ${p.account} (${p.name}); não se sabe se a aplicação dela foi criada (${p.reason}): ela pode existir.`,
    note: (accountId) =>
      `A API Pix não oferece como listar as aplicações de uma conta, então o Pix Ops não tem como conferir e não cria uma segunda por conta própria. Confira no portal do serviço Pix. Se a conta tiver uma aplicação, registre o AppID dela com \`/pix account link ${accountId}\` (e gere um novo client secret com \`/pix rotate-secret <clientId>\` se precisar). Se não tiver nenhuma, crie-a com o botão.`,
    anywayButton: 'Não tem: criar',
    anywayTitle: 'Criar a aplicação?',
    anywayText: 'Só se o portal do serviço Pix não mostrar nenhuma aplicação para esta conta: se ela tiver uma, isto cria uma segunda.',
    anywayConfirm: 'Criar',
    notMarked:
      'O armazenamento do app está indisponível, então a tentativa não pôde ser registrada antes do envio. Nada foi enviado; tente de novo.',
    statusUncertain: (accountId) =>
      `:warning: a aplicação dela pode existir (a criação não teve resposta clara): confira no portal do serviço Pix, depois \`/pix account link ${accountId}\`, ou crie-a pela mensagem no canal`,
  },

  audit: {
    title: (p) =>
      `*Trilha de auditoria*: ${p.days === 1 ? 'o último dia' : `os últimos ${p.days} dias`}, da mais recente · página ${p.page}`,
    text: (p) =>
      `Trilha de auditoria, ${p.days === 1 ? 'o último dia' : `os últimos ${p.days} dias`}, página ${p.page}: ${p.count === 1 ? '1 registro' : `${p.count} registros`}`,
    empty: (days) => `Nenhum registro de auditoria ${days === 1 ? 'no último dia' : `nos últimos ${days} dias`}.`,
    emptyPage: 'Não há mais registros aqui.',
    noRole: 'sem papel',
    outcome: (outcome) =>
      ({
        ok: 'feito',
        failed: 'falhou',
        error: 'erro',
        usage: 'argumentos errados',
        refused: 'recusado',
        pending: 'aguardando aprovação',
        approved: 'aprovado',
        rejected: 'rejeitado',
        cancelled: 'cancelado',
        expired: 'expirado',
        escalated: 'escalado',
      })[outcome] ?? outcome,
    maker: (user) => `solicitante ${user}`,
    checker: (user) => `aprovador ${user}`,
    footer: 'Horário de Brasília. As chaves Pix aparecem mascaradas. `/pix audit export [from] [to]` envia a trilha em um arquivo CSV.',
    buttonNoPage: 'Este botão não indica uma página da trilha de auditoria. Nada foi feito.',
    exporting: (p) => `Preparando a trilha de auditoria de ${p.from} a ${p.to}…`,
    exportEmpty: (p) => `Nenhum registro de auditoria de ${p.from} a ${p.to}; nada foi enviado.`,
    exportDone: (p) =>
      `A trilha de auditoria de ${p.from} a ${p.to} (${p.count === 1 ? '1 registro' : `${p.count} registros`}) está nas suas mensagens diretas com o Pix Ops.`,
    exportComment: (p) =>
      `Trilha de auditoria do Pix Ops, ${p.from} a ${p.to} (horário de São Paulo): ${p.count === 1 ? '1 registro' : `${p.count} registros`}.`,
    exportFailed: (code) => `Não foi possível enviar a exportação às suas mensagens diretas: o Slack respondeu ${code}.`,
    columnTime: 'horário (UTC)',
    columnUser: 'usuário',
    columnRole: 'papel',
    columnAction: 'ação',
    columnTarget: 'alvo',
    columnPixMethod: 'método Pix',
    columnPixPath: 'caminho Pix',
    columnPixStatus: 'status Pix',
    columnMaker: 'solicitante',
    columnChecker: 'aprovador',
    columnOutcome: 'resultado',
    columnDetail: 'detalhe',
  },

  moneyOut: {
    amount: (value) => `Valor: *${value}*`,
    fromAccount: (p) => `Da conta ${p.account}: saldo disponível ${p.available} (lido em ${p.at})`,
    balanceShort:
      ':warning: O saldo disponível é menor que o valor: pode ser aprovado antes de o dinheiro chegar, e só é enviado se o saldo cobrir o valor nessa hora.',
    balanceUnread: (account) => `Da conta ${account}: não foi possível ler o saldo quando isto foi pedido`,
    receiver: (p) => `Recebedor: *${p.name}*, CPF/CNPJ ${p.taxId}, ${p.bank}`,
    unknownPart: 'não informado',
    receiverUnverified:
      ':warning: Não foi possível verificar o recebedor antes do envio (a empresa não tem a consulta de chave Pix): quem recebe o dinheiro aparece depois do envio.',
    key: (p) => `Chave Pix: ${p.key} (${p.type})`,
    comment: (text) => `Comentário: ${text}`,
    withdrawTo: (p) => `Para a chave de saque da conta ${p.key} (${p.type})`,
    withdrawNoKey: 'Para a chave de saque da conta (nenhuma definida agora)',
    sending: (p) => `:hourglass_flowing_sand: Aprovado por ${p.checkers} em ${p.at}: enviando…`,
    sent: (p) =>
      `:outbox_tray: *Enviado* em ${p.at}, com a aprovação de ${p.sender}; aprovado por ${p.checkers}. A confirmação vem na conversa.`,
    statusRead: (status) =>
      `O serviço já tinha este pagamento, com status \`${status}\`: não foi aprovado de novo (o serviço só aprova um pagamento enquanto ele está criado).`,
    short: (p) =>
      `:warning: Aprovado por ${p.checkers} em ${p.at}, *não enviado*: o saldo disponível da conta (${p.available}, lido em ${p.read}) não cobre o valor. O pagamento aguarda no serviço; quando o dinheiro chegar, qualquer pessoa que possa aprová-lo (não quem pediu) pode tentar de novo, uma vez.`,
    shortNoBalance: (p) =>
      `:warning: Aprovado por ${p.checkers} em ${p.at}, *não enviado*: a conta não tem o saldo. O pagamento aguarda no serviço; quando o dinheiro chegar, qualquer pessoa que possa aprová-lo (não quem pediu) pode tentar de novo, uma vez.`,
    retryButton: 'Tentar o pagamento de novo',
    retryWho: (p) =>
      `Qualquer pessoa com o papel ${p.role}${p.listed ? ' listada em `ACCESS_APPROVERS`' : ''}, exceto quem pediu, pode tentar de novo; uma tentativa envia.`,
    retryConfirmTitle: 'Enviar este pagamento agora?',
    retryConfirmText: (amount) => `${amount} sai da conta assim que você confirmar.`,
    confirmed: (at) => `:white_check_mark: *Confirmado* em ${at}.`,
    failedStage: (p) => `:x: *O pagamento falhou* (${p.code}): ${p.description}`,
    removed: ':wastebasket: *Removido* no aplicativo web do serviço: não foi enviado.',
    endToEnd: (id) => `Identificador end-to-end: ${id}`,
    withdrawn: (at) => `:white_check_mark: *Sacado* em ${at}.`,
    balanceAfter: (balance) => `Saldo disponível depois: ${balance}`,
    unknown: (p) =>
      `:grey_question: Aprovado por ${p.checkers} em ${p.at}. O saque foi enviado, mas a resposta não veio: *o resultado é desconhecido*, e ele *não* é enviado de novo (o serviço não tem como distinguir um segundo saque do primeiro). Confira o saldo e o extrato da conta antes de pedir de novo.`,
    balanceNow: (p) => `Saldo disponível: ${p.available} (lido em ${p.at})`,
    balanceNotRead: 'Não foi possível ler o saldo da conta.',
    latestEntries: '*Últimos lançamentos do extrato*',
    noEntries: 'Não foi possível ler o extrato, ou ele não mostra lançamentos.',
    sentThread: (p) => `:outbox_tray: Enviado para *${p.name}*, CPF/CNPJ ${p.taxId}, ${p.bank}. End-to-end ID: ${p.endToEndId}.`,
    shortThread: (p) =>
      `Não enviado: o saldo disponível da conta (${p.available}) não cobre o valor. O pagamento continua criado no serviço; use *Tentar o pagamento de novo* na mensagem acima quando o dinheiro chegar.`,
    withdrawnThread: (p) => `:white_check_mark: Sacado. End-to-end ID: ${p.endToEndId}. Saldo disponível depois: ${p.balance}.`,
    unknownThread:
      'A resposta do saque não veio: o resultado é desconhecido, e ele não é enviado de novo. A mensagem acima mostra o saldo e os últimos lançamentos do extrato da conta.',
    dayLimitRefused: (p) =>
      `Não enviado: os pagamentos e saques de hoje (dia de São Paulo) somam ${p.total} até agora, e este (${p.amount}) passaria do limite do dia de ${p.limit} (\`PAY_DAY_LIMIT\`). Nada foi enviado; continua aguardando aprovação, para uma aprovação mais tarde ou o dia seguinte.`,
    dayLimitRetry: (p) =>
      `Não enviado: os pagamentos e saques de hoje (dia de São Paulo) somam ${p.total} até agora, e este (${p.amount}) passaria do limite do dia de ${p.limit} (\`PAY_DAY_LIMIT\`). Nada foi enviado; dá para tentar de novo mais tarde, ou no dia seguinte.`,
    retryNotShort: 'Este pagamento não aguarda mais uma nova tentativa. Nada foi feito.',
    retried: 'Tentando de novo: a mensagem mostra o resultado.',
    createRefused: (text) => `O serviço recusou criar o pagamento: ${text}`,
    approveRefused: (text) => `O serviço recusou aprovar o pagamento: ${text}`,
    noSuchAccount: (account) => `A conta ${account} não é uma das contas da empresa.`,
    aboveZero: 'O valor precisa ser maior que zero.',
    withdrawNoWithdrawKey: (account) =>
      `A conta ${account} não tem chave de saque: defina uma com \`/pix withdraw-key\` antes. Nada foi enviado.`,
    withdrawBlocked: (account) =>
      `Os saques da conta ${account} estão bloqueados: o DICT não encontrou a chave de saque dela. Defina outra chave de saque (\`/pix withdraw-key\`) antes. Nada foi enviado.`,
    aboveBalance: (p) => `${p.amount} é mais que o saldo disponível da conta ${p.account} (${p.available}). Nada foi enviado.`,
    balanceNotReported: (account) => `O serviço não informou o saldo da conta ${account}; nada foi enviado.`,
    withdrawRefused: (text) => `O serviço recusou o saque: ${text}`,
    withdrawNowBlocked:
      'Os saques da conta agora estão bloqueados: o DICT não encontrou a chave de saque dela. Defina outra chave de saque.',
  },

  approvals: {
    actionTitle: (action) =>
      ({
        'limit-request': 'Pedir aumento de limite',
        'key-add': 'Cadastrar uma chave Pix',
        'key-delete': 'Excluir uma chave Pix',
        'withdraw-key': 'Definir a chave de saque',
        'account-create': 'Criar uma conta de campanha',
        'rotate-secret': 'Trocar o segredo de uma aplicação',
        pay: 'Pagar uma chave Pix',
        withdraw: 'Sacar de uma conta',
      })[action],
    pendingHead: (title) => `:raised_hand: *Aprovação necessária: ${title}*`,
    stateWord: (state) =>
      ({
        pending: 'aguardando aprovação',
        approving: 'aprovada, em execução',
        done: 'aprovada e feita',
        failed: 'aprovada, mas falhou',
        rejected: 'recusada',
        cancelled: 'cancelada',
        expired: 'expirada',
      })[state] ?? state,
    askedBy: (p) => `Pedida por ${p.maker} em ${p.at}.`,
    expires: (at) => `Aguarda até ${at}; depois expira e nada é enviado.`,
    whoMayApprove: (p) =>
      `Qualquer pessoa com o papel ${p.role}${p.listed ? ' listada em `ACCESS_APPROVERS`' : ''}, exceto quem pediu, pode aprovar ou recusar; quem pediu pode cancelar.`,
    willSend: '*O que será enviado*',
    account: (account) => `Conta: ${account}`,
    pixKey: (p) => `Chave Pix: ${p.key} (${p.type})`,
    randomKey: 'Chave Pix: uma chave aleatória (EVP), criada pelo serviço',
    keyToDelete: (key) => `Chave Pix a excluir: ${key}`,
    deleteWarning: 'Depois de excluída, nenhum dinheiro pode ser enviado para esta chave.',
    withdrawKey: (key) => `Chave de saque: ${key}`,
    campaign: (name) => `Campanha: ${name}`,
    accountCreateNote:
      'Uma conta nova (a partir da conta da aplicação MASTER) e uma aplicação API para ela; o client secret vai só para quem pediu.',
    application: (clientId) => `Aplicação: ${clientId}`,
    rotateNote: 'O novo client secret vai só para quem pediu.',
    proofs: (names) => `Comprovantes: ${names}`,
    description: (text) => `Descrição: ${text}`,
    reason: (text) => `Motivo: ${text}`,
    approveButton: 'Aprovar',
    rejectButton: 'Recusar',
    cancelButton: 'Cancelar',
    confirmTitle: 'Aprovar esta ação?',
    confirmText: (title) => `${title}: as chamadas à API Pix são feitas assim que você confirmar.`,
    confirmYes: 'Aprovar',
    confirmNo: 'Ainda não',
    approving: (p) => `:hourglass_flowing_sand: Aprovada por ${p.checker} em ${p.at}: enviando à API Pix…`,
    done: (p) => `:white_check_mark: Aprovada por ${p.checker} em ${p.at}, e feita.`,
    failed: (p) => `:x: Aprovada por ${p.checker} em ${p.at}, mas não deu certo (veja a conversa).`,
    rejected: (p) => `:no_entry: Recusada por ${p.checker} em ${p.at}: ${p.reason}. Nada foi enviado à API Pix.`,
    cancelled: (p) => `:heavy_multiplication_x: Cancelada por ${p.maker} em ${p.at}. Nada foi enviado à API Pix.`,
    expired: (at) => `:alarm_clock: Expirou em ${at} sem decisão. Nada foi enviado à API Pix.`,
    approvedBy: (p) => `Pedida por ${p.maker}, aprovada por ${p.checker}.`,
    failedReply: (p) => `${p.maker}, o que ${p.checker} aprovou não deu certo: ${p.problem}`,
    rejectedReply: (p) => `${p.maker}, ${p.checker} recusou isto: ${p.reason}. Nada foi enviado à API Pix.`,
    interrupted:
      'O app parou enquanto enviava isto, e a API Pix não mostra se chegou. Não foi enviado de novo: confira antes de pedir outra vez.',
    selfRefused: 'Foi você quem pediu isto: outra pessoa precisa aprovar ou recusar.',
    roleRefused: (p) => `Você precisa do papel *${p.role}* para aprovar ou recusar isto (${p.title}).`,
    notApprover: (userId) =>
      `Só quem está listado em \`ACCESS_APPROVERS\` pode aprovar ou recusar isto. Seu ID de usuário é \`${userId}\`.`,
    onlyMakerCancels: (maker) => `Só ${maker}, que pediu, pode cancelar isto.`,
    notFound: 'Esta aprovação não existe (mais). Nada foi feito.',
    alreadyApproved: (p) => `Já aprovada por ${p.checker} em ${p.at}. Nada mais foi feito.`,
    alreadyRejected: (p) => `Já recusada por ${p.checker} em ${p.at}.`,
    alreadyCancelled: (at) => `Já cancelada por quem pediu, em ${at}.`,
    alreadyExpired: (at) => `Já expirou em ${at}. Nada foi enviado.`,
    busy: 'Outra pessoa está decidindo isto agora; olhe a mensagem de novo daqui a pouco.',
    rejectTitle: 'Recusar',
    rejectSubmit: 'Recusar',
    rejectIntro: (title) => `*${title}*: diga por que recusa. Quem pediu é avisado na conversa, e nada é enviado à API Pix.`,
    reasonLabel: 'Motivo',
    reasonRequired: 'Diga por que recusa.',
    rejectedDone: 'Recusada. Quem pediu é avisado na conversa.',
    requesting: 'Enviando para aprovação…',
    sentForApproval: (p) => `*${p.title}* aguarda aprovação (${p.where}). Nada é enviado à API Pix até outra pessoa aprovar.`,
    sentWhere: (channel) => `em ${channel}`,
    sentToDm: 'numa mensagem direta comigo, porque não consigo postar naquele canal',
    notPosted: 'Não consegui postar o pedido de aprovação no canal nem numa mensagem direta, então nada vai acontecer. Tente de novo.',
    secretLead: (title) => `*${title}*, aprovada: só você vê isto.`,
    fileGone: (name) => `O comprovante “${name}” não pode mais ser lido do Slack (foi excluído?).`,
    proofsGone: (problem) => `${problem} Nada foi enviado.`,
    homeTitle: '*Ações aguardando aprovação*',
    homeNone: 'Nada aguardando você.',
    homeLine: (p) => `*${p.title}* · pedida por ${p.maker} ${p.age} · aguarda até ${p.expires}`,
    homeYours: '_Sua: outra pessoa aprova; você pode cancelar._',
    homeMore: (n) => `E mais ${n}, nos seus canais.`,
    filedAfterApproval: (p) => `:white_check_mark: Enviada depois que ${p.checker} aprovou, em ${p.at}.`,
    notFiled: 'O app parou enquanto a enviava, e a solicitação não está entre as da empresa: não foi enviada. Peça de novo.',
    checkerFor: (p) => `${p.checker} por ${p.away}`,
    and: (people) => (people.length < 2 ? (people[0] ?? '') : `${people.slice(0, -1).join(', ')} e ${people.at(-1)}`),
    quorumNone: (needed) => `:busts_in_silhouette: Precisa de ${needed} aprovações, de pessoas diferentes: nenhuma ainda.`,
    quorumSoFar: (p) => `:ballot_box_with_check: ${p.given} de ${p.needed} aprovações: ${p.who}. Nada é enviado até outra pessoa aprovar.`,
    quorumRecorded: (p) =>
      `Sua aprovação foi registrada: ${p.given} de ${p.needed} aprovações. Nada é enviado à API Pix até outra pessoa aprovar.`,
    alreadyApprovedByYou: (p) =>
      `Você já aprovou isto (${p.given} de ${p.needed} aprovações): outra pessoa precisa aprovar. Nada mais foi feito.`,
    lookupFailed: 'Não consegui conferir seus grupos no Slack agora, então nada foi feito. Tente de novo em instantes.',
    escalatedLine: (at) =>
      `:rotating_light: Escalada em ${at}: quem está na lista de escalonamento e tem o papel também pode aprovar ou recusar.`,
    homeFor: (away) => `_Você decide isto por ${away}, que está ausente._`,
    homeAway: (p) => `:palm_tree: Você está ausente até o fim de ${p.until}: ${p.delegate} decide por você.`,
    homeDelegate: (p) => `:handshake: Você decide por ${p.away} até o fim de ${p.until}.`,
  },
  approvalRules: {
    reminder: (p) =>
      `:bell: ${p.who}: *${p.title}*, pedido por ${p.maker} ${p.age}, ainda espera aprovação (lembrete ${p.n} de ${p.max}). Expira em ${p.expires}.`,
    anyoneWithRole: (role) => `quem tem o papel ${role}`,
    makerLostRole: (p) => `${p.maker} não tem mais o papel *${p.role}* que esta ação exige, então nada foi enviado à API Pix.`,
    makerStandingUnknown:
      'Não consegui conferir o papel de quem pediu agora (o Slack não respondeu), então nada foi feito. Tente de novo em instantes.',
    makerUnreachable: (maker) =>
      `Não consegui abrir uma mensagem direta com ${maker}, para onde iria o novo segredo, então nada foi enviado à API Pix.`,
    secretUndelivered: (p) =>
      `:warning: O novo client secret não pôde ser entregue a ${p.maker} em particular, e não aparece em nenhum outro lugar. Gere-o de novo: \`/pix rotate-secret ${p.clientId}\`.`,
    notRegistered:
      ':x: Este pedido de aprovação não foi registrado (o armazenamento do app falhou): seus botões não fazem nada, e nada será enviado. Peça de novo.',
    notRegisteredAnswer: 'Este pedido de aprovação nunca foi registrado, então nada será feito. Peça de novo.',
    delegateFor: (p) => `${p.delegate} (por ${p.away}, ausente)`,
    quorumSoFar: (p) => `${p.given} de ${p.needed} aprovações até agora.`,
    rootElsewhere: (link) =>
      `Foi postado ${link ? `<${link}|numa mensagem direta com quem pediu>` : 'numa mensagem direta com quem pediu'}: aprove ou recuse pela aba Início do Pix Ops.`,
    escalation: (p) =>
      `:rotating_light: ${p.who}: *${p.title}*, pedido por ${p.maker} ${p.age}, ainda espera aprovação e foi escalado para vocês: quem tem o papel que ele exige pode aprovar ou recusar agora. Expira em ${p.expires}.`,
    escalationDm: (p) =>
      `:rotating_light: *${p.title}*, pedido por ${p.maker} ${p.age}, ainda espera aprovação e foi escalado para você. ${p.link ? `<${p.link}|Abra o pedido>` : 'Procure-o no canal'} para aprovar ou recusar (ele também está na aba Início do Pix Ops). Expira em ${p.expires}.`,
    escalationDmFor: (away) => `Você recebe isto como substituto de ${away}, que está ausente.`,
    appStale: (p) =>
      `:warning: AppID guardado${p.clientId ? ` (aplicação ${p.clientId})` : ''}, mas *obsoleto*: a API Pix o recusou depois que o segredo foi trocado, então não é usado. Um admin pode vincular o novo com \`/pix account link ${p.accountId}\``,
  },

  away: {
    usage: 'Diga o último dia em que estará ausente (AAAA-MM-DD) e quem decide por você (@nome).',
    notUser: 'Diga quem decide por você com uma menção (@nome) ou um ID de usuário (U…).',
    set: (p) =>
      `:palm_tree: Até o fim de ${p.until} (horário de São Paulo), ${p.delegate} decide por você as aprovações que você poderia decidir, quando tiver o papel que a ação exige e nunca as próprias. Lembretes e escalonamentos o mencionam ao seu lado. \`/pix away off\` encerra.`,
    away: (p) => `:palm_tree: Você está ausente até o fim de ${p.until} (horário de São Paulo): ${p.delegate} decide por você.`,
    notAway: 'Você não está ausente: ninguém decide por você.',
    decidingFor: (people) => `:handshake: Você decide por ${people} enquanto estão ausentes.`,
    awayUntil: (p) => `${p.away} (até o fim de ${p.until})`,
    ended: (delegate) => `:wave: Bem-vindo de volta: ${delegate} não decide mais por você.`,
    nothingToEnd: 'Você não estava ausente: não havia nada a encerrar.',
    refusedSelf: 'Você não pode ser seu próprio substituto: indique outra pessoa.',
    refusedPast: 'Esse dia já passou (horário de São Paulo): indique hoje ou um dia depois.',
    refusedTooFar: (last) => `Uma ausência termina no máximo 90 dias à frente: até ${last}.`,
    refusedDelegateAway: (p) => `${p.delegate} também está ausente até o fim de ${p.until}: indique alguém que esteja aqui.`,
    refusedApprovesNothing: 'Você não aprova nada aqui, então não há o que passar adiante.',
    refusedDelegateDecidesNothing: (p) =>
      `${p.delegate} não pode decidir nada aqui: ${p.role ? `decidir uma ação que espera aprovação exige ao menos o papel *${p.role}*, e essa pessoa não o tem` : 'nenhuma ação espera aprovação'}. Indique alguém que o tenha.`,
    lookupFailed: 'Não consegui conferir no Slack agora quem tem qual papel, então nada foi definido. Tente de novo em instantes.',
  },

  /** Pix events: the dispute desk and the other kinds posted from the service's webhooks. */
  pixEvents: {
    disputeTitle: (status: string) => `*Disputa Pix* · ${status}`,
    disputeText: (p: { status: string; value: string; e2e: string }) => `Disputa Pix ${p.e2e}: ${p.status}, ${p.value}`,
    status: (status: string): string =>
      ({ OPENED: 'aberta', ACCEPTED: 'aceita', REJECTED: 'rejeitada', CANCELED: 'cancelada', IN_REVIEW: 'em análise' })[status] ??
      status.toLowerCase(),
    type: (type: string): string => ({ MED: 'MED (mecanismo especial de devolução)', CHARGEBACK: 'chargeback' })[type] ?? type,
    statusLabel: 'Situação',
    typeLabel: 'Tipo',
    valueLabel: 'Valor',
    reasonLabel: 'Motivo',
    customerLabel: 'Cliente',
    emailLabel: 'E-mail',
    phoneLabel: 'Telefone',
    taxIdLabel: 'CPF/CNPJ',
    e2eLabel: 'ID fim a fim',
    disputeIdLabel: 'Id da disputa',
    notGiven: '_não informado_',
    evidenceButton: 'Enviar evidências',
    evidenceHint: 'Operadores podem enviar evidências pelo botão; os próximos eventos desta disputa chegam nesta conversa.',
    replyText: (p: { status: string; e2e: string }) => `Disputa ${p.e2e}: ${p.status}`,
    replyLine: (status: string) => `:arrow_right: O serviço informa que a disputa agora está *${status}*.`,
    replyLateOpened:
      ':information_source: O aviso de abertura desta disputa chegou depois de um aviso posterior; a situação acima continua valendo.',
    kindWords: (kind: string): string =>
      ({
        CHARGE_CREATED: 'Cobrança criada',
        CHARGE_COMPLETED: 'Cobrança paga',
        CHARGE_COMPLETED_NOT_SAME_CUSTOMER_PAYER: 'Cobrança paga por outra pessoa que não o cliente',
        CHARGE_EXPIRED: 'Cobrança expirada',
        TRANSACTION_RECEIVED: 'Pix recebido',
        TRANSACTION_REFUND_RECEIVED: 'Devolução recebida',
        PIX_TRANSACTION_REFUND_SENT_CONFIRMED: 'Devolução enviada',
        PIX_TRANSACTION_REFUND_RECEIVED_CONFIRMED: 'Devolução recebida',
        PAYMENT_CONFIRMED: 'Pagamento confirmado',
        MOVEMENT_CONFIRMED: 'Pagamento confirmado',
        QRCODE_CREATED: 'QR Code Pix criado',
        ACCOUNT_REGISTER_APPROVED: 'Cadastro de conta aprovado',
        ACCOUNT_REGISTER_PENDING: 'Cadastro de conta pendente',
      })[kind] ??
      kind
        .toLowerCase()
        .replace(/_/g, ' ')
        .replace(/^./, (c) => c.toUpperCase()),
    otherLine: (p: { kind: string; parts: string[] }) => [`*${p.kind}*`, ...p.parts].join(' · '),
    correlation: (id: string) => `ID de correlação ${id}`,
    customer: (name: string) => `cliente ${name}`,
    taxId: (taxId: string) => `CPF/CNPJ ${taxId}`,
    statusPart: (status: string) => `situação ${status.toLowerCase()}`,
    homeTitle: '*Disputas Pix abertas*',
    homeNone: 'Nenhuma disputa aberta. As novas são publicadas no canal de eventos.',
    homeLine: (p: { e2e: string; value: string; type: string; status: string; where: string }) =>
      `${p.e2e} · ${p.value} · ${p.type} · ${p.status} · ${p.where}`,
    homeMore: (n: number) => `E mais ${n}, no canal de eventos.`,
    disputeIdInput: 'Id da disputa',
    disputeIdHint: 'O evento não trouxe o id da disputa no serviço Pix; veja-o no portal do serviço.',
    disputeIdRequired: 'Escreva o id da disputa (24 dígitos hexadecimais, ex.: 6840aeca23c0d1fe48c856a3).',
  },

  digest: {
    header: 'O que espera a equipe',
    intro: (when) => `Em ${when} (horário de Brasília). Os mais antigos de cada tipo primeiro.`,
    approvalsTitle: (n) => `*Aprovações pendentes* (${n})`,
    approvalLine: (p) => `• *${p.title}*, pedido por ${p.maker} ${p.age} · pode decidir: ${p.who} · ${p.where}`,
    approvalsMore: (n) => `E mais ${n}: cada uma espera na sua thread, e a aba Início lista as que você pode decidir.`,
    inReviewTitle: (n) => `*Pedidos de limite em análise* (${n})`,
    inReviewLine: (p) => `• ${p.id} · conta ${p.account} · feito ${p.age} por ${p.user}`,
    inReviewMore: (n) => `E mais ${n}: \`/pix limit list\` lista todos os pedidos, e a aba Início os que o Pix Ops acompanha.`,
    disputesTitle: (n) => `*Disputas abertas* (${n})`,
    disputeLine: (p) => `• ${p.e2e} · ${p.value} · aberta ${p.age} · ${p.where}`,
    disputesMore: (n) => `E mais ${n}: a aba Início lista as disputas abertas, cada uma com a sua thread.`,
    belowTitle: (p) => `*Contas abaixo de ${p.threshold}* (${p.n}), a mais baixa primeiro`,
    belowLine: (p) => `• ${p.account} · disponível ${p.available}`,
    blockedTitle: (n) => `*Saques bloqueados* (${n})`,
    blockedLine: (account) => `• ${account}: um saque não encontrou a chave no DICT`,
    accountsMore: (n) => `E mais ${n}: \`/pix accounts\` lista todas as contas com o saldo.`,
    nothingWaiting:
      ':white_check_mark: Nada espera: nenhuma aprovação, nenhum pedido de limite em análise, nenhuma disputa aberta, nenhuma conta abaixo do limite de alerta, nenhum saque bloqueado.',
    text: (parts) => `O que espera a equipe: ${parts.length > 0 ? parts.join(', ') : 'nada'}.`,
    textApprovals: (n) => `${n} aprovação(ões) pendente(s)`,
    textInReview: (n) => `${n} pedido(s) de limite em análise`,
    textDisputes: (n) => `${n} disputa(s) aberta(s)`,
    textBelow: (p) => `${p.n} conta(s) abaixo de ${p.threshold}`,
    textBlocked: (n) => `${n} conta(s) com saques bloqueados`,
    textUnread: 'algumas partes não puderam ser lidas',
  },

  balanceAlerts: {
    below: (p) =>
      `:warning: A conta ${p.account} está com saldo baixo: o saldo disponível é *${p.available}*, abaixo do limite de alerta de ${p.threshold}.`,
    belowText: (p) => `A conta ${p.account} está abaixo de ${p.threshold}: disponível ${p.available}`,
    blocked: (account) =>
      `:no_entry: Os saques da conta ${account} agora estão *bloqueados*: um saque não encontrou a chave de saque no DICT, então todo saque é recusado até o serviço Pix retirar o bloqueio.`,
    blockedText: (account) => `Os saques da conta ${account} estão bloqueados`,
  },
};
