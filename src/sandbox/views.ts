import type { Account, Application, LimitRequest, Payment, StoredFile, Transaction } from './state';

/** Response shapes of the resources, kept apart from the internal model. */

export function accountView(account: Account): Record<string, unknown> {
  return {
    accountId: account.id,
    taxId: account.taxId,
    isDefault: account.isDefault,
    balance: { ...account.balance },
    withdrawBlocked: account.withdrawBlocked,
    // Returned only where the withdraw-key API is enabled, as the interface says.
    ...(account.withdrawKeyApiEnabled ? { pixKeyWithdraw: account.pixKeyWithdraw && { ...account.pixKeyWithdraw } } : {}),
  };
}

export function fileView(file: StoredFile, baseUrl: string): Record<string, unknown> {
  return {
    id: file.id,
    correlationID: file.correlationID,
    purpose: file.purpose,
    fileName: file.fileName,
    contentType: file.contentType,
    size: file.size,
    url: `${baseUrl}/sandbox/files/${file.id}`,
    urlExpiresAt: file.urlExpiresAt,
    createdAt: file.createdAt,
  };
}

export function limitRequestView(request: LimitRequest): Record<string, unknown> {
  return {
    id: request.id,
    companyBankAccountId: request.companyBankAccountId,
    status: request.status,
    requestedLimits: { ...request.requestedLimits },
    // Absent (not empty) while in review.
    ...(request.approvedLimits ? { approvedLimits: { ...request.approvedLimits } } : {}),
    documents: request.documents.map(({ fileName, contentType }) => ({ fileName, contentType })),
    ...(request.description !== undefined ? { description: request.description } : {}),
    ...(request.limitRequestReason !== undefined ? { limitRequestReason: request.limitRequestReason } : {}),
    createdAt: request.createdAt,
    updatedAt: request.updatedAt,
  };
}

export function applicationView(app: Application): Record<string, unknown> {
  return {
    name: app.name,
    isActive: app.isActive,
    type: app.type,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    appID: app.appId,
    companyBankAccount: app.accountId,
  };
}

/** A payment as the service shows it (its `error` once failed; the receiver only in `destination`). */
export function paymentView(payment: Payment): Record<string, unknown> {
  return {
    id: payment.id,
    type: 'PIX_KEY',
    value: payment.value,
    status: payment.status,
    destinationAlias: payment.destinationAlias,
    destinationAliasType: payment.destinationAliasType,
    correlationID: payment.correlationID,
    ...(payment.comment !== undefined ? { comment: payment.comment } : {}),
    sourceAccountId: payment.sourceAccountId,
    ...(payment.metadata !== undefined ? { metadata: { ...payment.metadata } } : {}),
    ...(payment.error ? { error: { ...payment.error } } : {}),
    createdAt: payment.createdAt,
    updatedAt: payment.updatedAt,
  };
}

export function paymentTransactionView(tx: Transaction): Record<string, unknown> {
  return { value: tx.value, endToEndId: tx.endToEndId, time: tx.time };
}

/** `{ payment, transaction, destination }`, the last two once the money was sent. */
export function paymentReadView(payment: Payment): Record<string, unknown> {
  if (!payment.transaction) return { payment: paymentView(payment) };
  const { name, taxID, bank, branch, account } = payment.receiver;
  return {
    payment: paymentView(payment),
    transaction: paymentTransactionView(payment.transaction),
    destination: { name, taxID, pixKey: payment.destinationAlias, bank, branch, account },
  };
}
