import type { FastifyInstance } from 'fastify';
import { bankAccountRoutes } from '../../../src-shared/contract/bank-accounts';
import { dayIn } from '../../../src-shared/domain/invoice-dates';
import { renderStatementPdf } from '../../pdf/statement';
import {
  accountBalance,
  createBankAccount,
  deleteBankAccount,
  getBankAccount,
  listBankAccounts,
  statementData,
  updateBankAccount,
} from '../../store/bank-accounts/bank-accounts';
import type { Db } from '../../store/db';
import { NotFound } from '../../store/errors';
import { chosenDocumentFormat } from '../../store/invoices/settings';
import { minorOf } from '../../store/money-input';
import { getMe } from '../../store/teams/team-api';
import { getTeamDetails } from '../../store/teams/teams';
import { teamTimeZone } from '../../store/users/users';
import { contentDisposition } from '../content-disposition';
import { registerRoute } from '../route';

/**
 * The reader's locale and date format: the acting user's (a key of no user acts for the team's owner); without a
 * user, what the team chose for its documents (its invoice settings); else English and ISO days.
 */
function readerFormat(db: Db, caller: { teamId: string; userId: string | null }): { locale: string; dateFormat: string } {
  try {
    const me = getMe(db, caller);
    return { locale: me.locale, dateFormat: me.dateFormat };
  } catch (err) {
    if (!(err instanceof NotFound)) throw err;
    const chosen = chosenDocumentFormat(db, caller.teamId);
    return { locale: chosen.locale ?? 'en', dateFormat: chosen.dateFormat ?? 'yyyy-MM-dd' };
  }
}

export async function bankAccountRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  // A balance depends on the team's recorded records only: cached until they change. Accounts are not cached: their
  // institution falls back to the team's country, and a team's own row records no change (decision 0012).
  const forever = { cacheUntil: () => Number.POSITIVE_INFINITY };
  const r = bankAccountRoutes;
  registerRoute(app, r.list, ({ auth, query }) => ({ data: listBankAccounts(db, auth.teamId, query) }));
  registerRoute(app, r.get, ({ auth, params }) => getBankAccount(db, auth.teamId, params.id));
  registerRoute(app, r.balance, ({ auth, params }) => ({ data: accountBalance(db, auth.teamId, params.id) }), forever);
  registerRoute(app, r.create, ({ auth, body }) =>
    createBankAccount(db, auth.teamId, {
      id: body.id,
      name: body.name,
      currency: body.currency,
      type: body.type,
      enabled: body.enabled,
      openingBalanceMinor:
        body.openingBalance === undefined ? undefined : minorOf(body.openingBalance, body.currency, 'openingBalance'),
      openingDate: body.openingDate,
      iban: body.iban,
    }),
  );
  registerRoute(app, r.update, ({ auth, params, body }) => {
    const currency = body.currency ?? getBankAccount(db, auth.teamId, params.id).currency;
    return updateBankAccount(db, auth.teamId, params.id, {
      name: body.name,
      type: body.type,
      enabled: body.enabled,
      currency: body.currency,
      balanceMinor: body.balance === undefined ? undefined : minorOf(body.balance, currency, 'balance'),
      iban: body.iban,
    });
  });
  registerRoute(app, r.delete, ({ auth, params, query }) => {
    const { account, transactionsDeleted } = deleteBankAccount(db, auth.teamId, params.id, { cascade: query.cascade });
    return { ...account, transactionsDeleted };
  });
  registerRoute(app, r.statement, async ({ auth, params, query, reply }) => {
    const data = statementData(db, auth.teamId, params.id, query.from, query.to);
    const team = getTeamDetails(db, auth.teamId);
    const bytes = await renderStatementPdf({
      data,
      owner: team,
      today: dayIn(new Date(), teamTimeZone(db, auth.teamId)),
      ...readerFormat(db, auth),
    });
    const name = data.account.name.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^-+|-+$/g, '') || 'account';
    reply
      .type('application/pdf')
      .header('Content-Disposition', contentDisposition('inline', `statement-${name}-${query.from}-${query.to}.pdf`));
    return bytes;
  });
}
