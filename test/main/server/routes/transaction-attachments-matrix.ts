import type { TestApi } from '../../../helpers/api';

/**
 * A transaction's attachments in the authorization matrix (test/main/server/authorization-matrix.test.ts spreads
 * these into its tables): the upload onto a transaction, and the download link to an attachment, whose path names
 * two records (the fixture answers both ids, in the path's order, separated by a space).
 */

/** A 1×1 PNG: the smallest file the upload routes take. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

async function transaction(api: TestApi, token: string): Promise<string> {
  const account = (
    await api.call('POST', '/v1/bank-accounts', { token, body: { name: 'Matrix Receipts', currency: 'EUR' } })
  ).json();
  const body = { bankAccountId: account.id, name: 'Matrix receipt', amount: -12.5, currency: 'EUR', date: '2025-01-02' };
  return (await api.call('POST', '/v1/transactions', { token, body })).json().id;
}

export const ATTACHMENT_FIXTURES: Record<string, (api: TestApi, token: string) => Promise<string>> = {
  '/v1/transactions/{id}/attachments': transaction,
  '/v1/transactions/{transactionId}/attachments/{attachmentId}/presigned-url': async (api, token) => {
    const tx = await transaction(api, token);
    const item = await api.call('POST', `/v1/transactions/${tx}/attachments`, {
      token,
      body: { fileName: 'matrix.png', content: PNG },
    });
    return `${tx} ${item.json().attachmentId}`;
  },
};

export const ATTACHMENT_BODIES: Record<string, unknown> = {
  'POST /v1/transactions/{id}/attachments': { fileName: 'body.png', content: PNG },
};
