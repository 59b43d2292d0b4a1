import type { FastifyInstance } from 'fastify';
import { appRateRoutes, MAX_RATE_FILE_CHARS } from '../../../src-shared/contract/app-rates';
import { parseRateFile, RateFileError } from '../../../src-shared/domain/rate-files';
import type { Db } from '../../store/db';
import { importRates, ratesSharedWithOthers, recomputeAllTeams, transactionsWithoutRate } from '../../store/exchange-rates/rates';
import { installJsonParser } from '../body';
import { forbidden, unprocessable } from '../errors';
import { registerRoute } from '../route';
import { mayManage } from './app-sync';

/**
 * Importing exchange rates under /app (contract/app-rates.ts): `finops rates import` for the Team settings screen.
 * The rates are checked whole, written in one transaction, and every team's base amounts are recomputed from the
 * first imported day, as the CLI does; the answer speaks of the caller's team only.
 */
export async function appRateRoutesPlugin(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  // A whole rate history is larger than the API's usual JSON limit (this plugin's own parser; JSON escapes included).
  installJsonParser(app, MAX_RATE_FILE_CHARS * 2);

  registerRoute(app, appRateRoutes.import, ({ auth, body }) => {
    if (!mayManage(db, auth)) {
      throw forbidden('Only an owner of the team may import exchange rates', 'Ask an owner of the team.');
    }
    if (ratesSharedWithOthers(db, auth.teamId)) {
      throw forbidden(
        'Exchange rates are shared by every team on this server',
        'The server’s operator imports them with finops rates import.',
      );
    }
    let parsed: ReturnType<typeof parseRateFile>;
    try {
      parsed = parseRateFile(body.content, { base: body.base });
    } catch (err) {
      if (!(err instanceof RateFileError)) throw err;
      const fields = err.problems.slice(0, 200).map((p) => ({
        location: 'body' as const,
        path: `line ${p.line}`,
        message: `line ${p.line}: ${p.message}`,
      }));
      throw unprocessable(
        `The file has ${err.problems.length} problem${err.problems.length === 1 ? '' : 's'}; nothing was imported`,
        fields
          .slice(0, 20)
          .map((f) => f.message)
          .join('; '),
        fields,
      );
    }
    const result = importRates(db, parsed.rows, { source: body.fileName ? `app: ${body.fileName}` : 'app' });
    const mine = result.rows > 0 ? recomputeAllTeams(db, result.firstDay).find((t) => t.teamId === auth.teamId) : undefined;
    return {
      layout: parsed.layout,
      base: parsed.base,
      ...result,
      skipped: parsed.skipped,
      baseAmountsUpdated: mine?.updated ?? 0,
      withoutRate: mine?.missing ?? transactionsWithoutRate(db, auth.teamId),
    };
  });
}
