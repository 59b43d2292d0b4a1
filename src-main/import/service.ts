import type { CsvMapping } from '../../src-shared/contract/import-mapping';
import { normalizeAccountRef } from '../../src-shared/domain/import/account-ref';
import { balanceForApi } from '../../src-shared/domain/import/balance';
import { type CsvColumnInfo, ImportRefused } from '../../src-shared/domain/import/types';
import { toMajor } from '../../src-shared/money';
import type { Db } from '../store/db';
import { InvalidReference } from '../store/errors';
import { accountOfIban, accountOfRef, importAccount } from '../store/import/account';
import type { ImportBatch } from '../store/import/batches';
import { type CommitOptions, type CommitResult, commitImport } from '../store/import/commit';
import { findImportMapping, saveImportMapping, touchImportMapping } from '../store/import/mappings';
import { type ImportPlan, planImport, planTransfers } from '../store/import/plan';
import { createNotification } from '../store/notifications/notifications';
import { getTeam } from '../store/teams/teams';
import type { TextEncoding } from './encoding';
import type { ParseResult } from './parse-file';
import { type ParseBook, withParses } from './parse-sandboxed';
import { accountsNeeded, type MatchedBy, type StatementTarget, statementKey, targetStatements } from './statements';

/**
 * The import as the API and the CLI run it: choose the CSV mapping (the one sent, a saved one by name, the
 * account's last used one, else inferred from the file), parse, plan, and shape the preview; commit the same way,
 * saving the mapping when asked (docs/decisions/0061 for the mapping choice). A file of several accounts'
 * statements is imported statement by statement into the account each names, one batch per account, all in one
 * transaction (docs/decisions/0069, statements.ts). The file is parsed in the parser sandbox (parse-sandboxed.ts,
 * docs/decisions/0170): the code below asks `parse` for what it needs, synchronously, inside its transaction.
 */
export interface FileOptions {
  fileName?: string | null;
  mapping?: CsvMapping | null;
  mappingName?: string | null;
  encoding?: TextEncoding | null;
  /** camt: split a batch entry into one row per transaction detail. */
  splitBatches?: boolean;
  /** The account of each statement, chosen by the person: by the account the statement names or its 1-based position. */
  accounts?: Record<string, string>;
}

export interface Parsed {
  parse: ParseResult;
  mappingName: string | null;
  mappingId: string | null;
}

export function parseForAccount(db: Db, parseBankFile: ParseBook, teamId: string, accountId: string, o: FileOptions): Parsed {
  const account = importAccount(db, teamId, accountId);
  const base = { filename: o.fileName, currency: account.currency, encoding: o.encoding ?? null, splitBatches: o.splitBatches };
  if (o.mapping)
    return { parse: parseBankFile({ ...base, mapping: o.mapping }), mappingName: o.mappingName ?? null, mappingId: null };
  const saved = findImportMapping(db, teamId, accountId, o.mappingName);
  if (o.mappingName && !saved) {
    throw new InvalidReference('mappingName', `No saved mapping "${o.mappingName}" for this account`);
  }
  const probe = parseBankFile({ ...base, mapping: null });
  if (probe.file.format !== 'csv' || !saved) return { parse: probe, mappingName: null, mappingId: null };
  const withSaved = parseBankFile({ ...base, mapping: saved.mapping });
  if (withSaved.file.errors.length === 0 || o.mappingName) {
    return { parse: withSaved, mappingName: saved.name, mappingId: saved.id };
  }
  probe.notes.unshift(
    `the saved mapping "${saved.name}" does not fit this file (${withSaved.file.errors[0]!.message}); inferred a new one`,
  );
  return { parse: probe, mappingName: null, mappingId: null };
}

/** A statement of the file with its account and its parse in that account's currency (null until it has one). */
interface Part {
  target: StatementTarget;
  parsed: Parsed | null;
}

/** The file's statements and where each goes; `probe` is the file as first read (format, encoding, identity). */
function partsOf(
  db: Db,
  parse: ParseBook,
  teamId: string,
  accountId: string | null,
  o: FileOptions,
): { probe: ParseResult; parts: Part[]; unused: string | null } {
  if (accountId) {
    const parsed = parseForAccount(db, parse, teamId, accountId, o);
    if (parsed.parse.statements.length === 1) {
      const target: StatementTarget = {
        index: 0,
        accountRef: parsed.parse.file.accountRef,
        accountId,
        matchedBy: 'request',
        needs: null,
      };
      return { probe: parsed.parse, parts: [{ target, parsed }], unused: null };
    }
  }
  const currency = accountId ? importAccount(db, teamId, accountId).currency : getTeam(db, teamId).baseCurrency;
  const read = (c: string) =>
    parse({ filename: o.fileName, currency: c, encoding: o.encoding ?? null, splitBatches: o.splitBatches });
  const probe = read(currency);
  // A file that cannot be read is refused whatever account it is for.
  const broken = probe.statements.flatMap((s) => s.errors);
  if (broken.length > 0) {
    throw new ImportRefused(
      `The file cannot be imported: ${broken.length} problem${broken.length === 1 ? '' : 's'}, nothing was written`,
      broken,
    );
  }
  const targets = targetStatements(db, teamId, probe.statements, o.accounts);
  if (probe.statements.length === 1) {
    const t = targets[0]!;
    const parsed = t.accountId ? parseForAccount(db, parse, teamId, t.accountId, o) : null;
    return { probe, parts: [{ target: t, parsed }], unused: null };
  }
  // The account the request named takes a file whose statements all name one account (they are read as one); a
  // file of several accounts goes statement by statement, and the person is told why their account was not used.
  const unused =
    accountId && !targets.some((t) => t.accountId === accountId)
      ? `The file holds statements of ${targets.length} accounts (${targets.map((t) => statementKey(t)).join(', ')}): ` +
        'the account given for the file is used only when its statements all name one account; ' +
        (targets.every((t) => t.accountId)
          ? 'each goes to the account it names'
          : 'choose the account of each statement (accounts)')
      : null;
  const byCurrency = new Map<string, ParseResult>([[currency, probe]]);
  const parts = targets.map((target): Part => {
    if (!target.accountId) return { target, parsed: null };
    const c = importAccount(db, teamId, target.accountId).currency;
    const whole = byCurrency.get(c) ?? read(c);
    byCurrency.set(c, whole);
    const statement = whole.statements[target.index]!;
    const parse: ParseResult = {
      ...whole,
      file: statement,
      statements: [statement],
      part: { index: target.index, of: targets.length },
    };
    return { target, parsed: { parse, mappingName: null, mappingId: null } };
  });
  return { probe, parts, unused };
}

type StatementShape = {
  index: number;
  accountRef: string | null;
  currency: string | null;
  bankAccountId: string | null;
  matchedBy: MatchedBy | null;
  needs: string | null;
  counts: ImportPlan['counts'] | null;
  balance: ReturnType<typeof balanceOut> | null;
};

export interface PreviewShape {
  bankAccountId: string | null;
  fileName: string | null;
  sha256: string;
  size: number;
  format: 'csv' | 'ofx' | 'camt' | 'mt940' | 'qif';
  encoding: string;
  mapping: CsvMapping | null;
  mappingName: string | null;
  columns: CsvColumnInfo[];
  notes: string[];
  counts: ImportPlan['counts'];
  balance: ReturnType<typeof balanceOut>;
  alreadyImported: ImportPlan['alreadyImported'];
  statements: StatementShape[];
  transfers: {
    statement: number;
    row: number;
    counterpartId: string;
    counterpartAccountId: string;
    days: number;
    unique: boolean;
  }[];
  warnings: string[];
  rows: ReturnType<typeof rowOut>[];
}

function balanceOut(plan: ImportPlan) {
  return balanceForApi(plan.balance, plan.currency);
}

function rowOut(statement: number, r: ImportPlan['rows'][number]) {
  return {
    statement,
    index: r.index,
    line: r.line,
    outcome: r.outcome,
    date: r.row?.date ?? null,
    amount: r.row ? toMajor(r.row.amountMinor, r.row.currency) : null,
    name: r.row?.name ?? null,
    description: r.row?.description ?? null,
    counterparty: r.row?.counterparty ?? null,
    externalId: r.row?.externalId ?? null,
    status: r.row?.status ?? null,
    transactionId: r.transactionId,
    match: r.match,
    score: r.score,
    candidates: r.candidates,
    reason: r.reason,
  };
}

const UNCHECKED = {
  status: 'unchecked' as const,
  openingSource: null,
  opening: null,
  closing: null,
  computedClosing: null,
  difference: null,
  firstDivergingRow: null,
  segment: null,
  suspects: [],
  message: 'no statement of the file has an account yet',
};

/** The file's balance check: a statement's that does not add up, else one unchecked, else the first. */
function fileBalance(checks: readonly ReturnType<typeof balanceOut>[]): ReturnType<typeof balanceOut> {
  return checks.find((c) => c.status === 'mismatch') ?? checks.find((c) => c.status === 'unchecked') ?? checks[0] ?? UNCHECKED;
}

export function previewFile(
  db: Db,
  teamId: string,
  accountId: string | null,
  bytes: Uint8Array,
  o: FileOptions & { rows?: number },
): Promise<{ preview: PreviewShape; plans: ImportPlan[] }> {
  return withParses(bytes, (parse) => previewParsed(db, parse, teamId, accountId, o));
}

function previewParsed(
  db: Db,
  parse: ParseBook,
  teamId: string,
  accountId: string | null,
  o: FileOptions & { rows?: number },
): { preview: PreviewShape; plans: ImportPlan[] } {
  const { probe, parts, unused } = partsOf(db, parse, teamId, accountId, o);
  const planned = parts.map((p) => ({
    ...p,
    plan: p.parsed ? planImport(db, teamId, p.target.accountId!, p.parsed.parse) : null,
  }));
  const plans = planned.flatMap((p) => (p.plan ? [p.plan] : []));
  const single = planned.length === 1 ? planned[0]! : null;
  const limit = o.rows ?? 500;
  const sum = (k: keyof ImportPlan['counts']) => plans.reduce((n, p) => n + p.counts[k], 0);
  const warnings = [
    ...(unused ? [unused] : []),
    ...planned.flatMap((p) => [
      ...(p.plan?.warnings ?? []),
      ...(p.target.needs ? [p.target.needs] : []),
      ...elsewhere(db, teamId, p.target),
    ]),
  ];
  const first = single?.parsed?.parse ?? probe;
  return {
    plans,
    preview: {
      bankAccountId: single?.target.accountId ?? null,
      fileName: o.fileName ?? null,
      sha256: probe.sha256,
      size: probe.size,
      format: first.file.format,
      encoding: first.file.encoding,
      mapping: (single?.plan?.mapping as CsvMapping | null) ?? null,
      mappingName: single?.parsed?.mappingName ?? null,
      columns: single?.parsed?.parse.file.columns ?? [],
      notes: plans.flatMap((p) => p.notes),
      counts: {
        rows: sum('rows'),
        new: sum('new'),
        duplicate: sum('duplicate'),
        link: sum('link'),
        review: sum('review'),
        rejected: sum('rejected'),
      },
      balance: fileBalance(plans.map(balanceOut)),
      alreadyImported: plans.find((p) => p.alreadyImported)?.alreadyImported ?? null,
      statements: planned.map((p) => ({
        index: p.target.index,
        accountRef: p.target.accountRef,
        currency: probe.statements[p.target.index]?.currency ?? null,
        bankAccountId: p.target.accountId,
        matchedBy: p.target.matchedBy,
        needs: p.target.needs,
        counts: p.plan?.counts ?? null,
        balance: p.plan ? balanceOut(p.plan) : null,
      })),
      transfers: planned.flatMap((p) =>
        p.plan
          ? planTransfers(db, teamId, p.plan).map((t) => ({
              statement: p.target.index,
              row: Number(t.transactionId.slice(4)),
              counterpartId: t.counterpartId,
              counterpartAccountId: t.counterpartAccountId,
              days: t.days,
              unique: t.unique,
            }))
          : [],
      ),
      warnings,
      // Per statement: the first `limit` rows, then every row a person must look at (links, review, rejected).
      rows: planned.flatMap((p) =>
        (p.plan?.rows ?? [])
          .filter((r, i) => i < limit || r.outcome === 'link' || r.outcome === 'review' || r.outcome === 'rejected')
          .map((r) => rowOut(p.target.index, r)),
      ),
    },
  };
}

/** A statement imported into the account the request named, which is another account's IBAN or went elsewhere before. */
function elsewhere(db: Db, teamId: string, t: StatementTarget): string[] {
  if (t.matchedBy !== 'request' || !t.accountRef) return [];
  const ref = normalizeAccountRef(t.accountRef);
  const owner = accountOfIban(db, teamId, ref);
  if (owner && owner !== t.accountId) return [`The file names ${t.accountRef}, the IBAN of another account (${owner})`];
  const other = accountOfRef(db, teamId, ref);
  return other && other !== t.accountId
    ? [`The file names ${t.accountRef}, which earlier imports put into another account (${other})`]
    : [];
}

export interface CommitFileOptions extends FileOptions {
  saveMappingAs?: string | null;
  acceptBalanceMismatch?: boolean;
  allowReimport?: boolean;
  onProgress?: (done: number, total: number) => void;
  onPhase?: CommitOptions['onPhase'];
  applyRules?: boolean;
}

export interface FileCommit extends CommitResult {
  /** One batch per statement (account) of the file, in file order; `batch` is the first. */
  batches: ImportBatch[];
}

export async function commitFile(
  db: Db,
  teamId: string,
  accountId: string | null,
  bytes: Uint8Array,
  o: CommitFileOptions,
): Promise<FileCommit> {
  // The parses the transaction needs are made outside it: asking for one rolls it back (nothing is written before
  // the parts are known), the sandbox makes it, and the transaction runs again.
  const results = await withParses(bytes, (parse) =>
    db
      .transaction(() => {
        const { parts, unused } = partsOf(db, parse, teamId, accountId, o);
        const missing = accountsNeeded(parts.map((p) => p.target));
        if (missing && unused) missing.problems.unshift({ line: null, row: null, field: 'bankAccountId', message: unused });
        if (missing) throw missing;
        return parts.map(({ target, parsed }) => {
          const account = target.accountId!;
          const mappingName = o.saveMappingAs ?? parsed!.mappingName;
          const r = commitImport(db, teamId, account, parsed!.parse, {
            fileName: o.fileName,
            mappingName,
            acceptBalanceMismatch: o.acceptBalanceMismatch,
            allowReimport: o.allowReimport,
            onProgress: o.onProgress,
            onPhase: o.onPhase,
            applyRules: o.applyRules,
          });
          const mapping = parsed!.parse.file.mapping as CsvMapping | null;
          if (mapping && o.saveMappingAs) saveImportMapping(db, teamId, account, o.saveMappingAs, mapping);
          else if (parsed!.mappingId) touchImportMapping(db, teamId, parsed!.mappingId);
          return { account, r };
        });
      })
      .immediate(),
  );
  // After the commit: the team hears of the new rows (the hosted notification type), per account.
  for (const { account, r } of results) {
    if (r.createdIds.length === 0) continue;
    createNotification(db, teamId, {
      type: 'transactions_created',
      priority: 3,
      metadata: {
        count: r.createdIds.length,
        bankAccountId: account,
        batchId: r.batch.id,
        fileName: o.fileName ?? null,
        transactionIds: r.createdIds.slice(0, 50),
      },
    });
  }
  const all = results.map((x) => x.r);
  return {
    batch: all[0]!.batch,
    batches: all.map((r) => r.batch),
    createdIds: all.flatMap((r) => r.createdIds),
    links: all.flatMap((r) => r.links),
    review: all.flatMap((r) => r.review),
    rejected: all.flatMap((r) => r.rejected),
    transfers: {
      paired: all.reduce((n, r) => n + r.transfers.paired, 0),
      suggested: all.reduce((n, r) => n + r.transfers.suggested, 0),
    },
  };
}

/** A commit as the API and the CLI report it (the created ids stay inside). */
export function commitSummary(r: FileCommit) {
  return { batch: r.batch, batches: r.batches, links: r.links, review: r.review, rejected: r.rejected, transfers: r.transfers };
}
