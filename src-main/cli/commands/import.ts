import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { ImportRefused } from '../../../src-shared/domain/import/types';
import { commitFile, commitSummary, previewFile } from '../../import/service';
import { getImportBatch, type ImportBatch, listBatchRows, listImportBatches } from '../../store/import/batches';
import { listReviewItems } from '../../store/import/review';
import { undoImportBatch } from '../../store/import/undo';
import {
  dataDirOption,
  findTeam,
  parsePositiveInt,
  progressBar,
  teamOption,
  UsageError,
  withDatabase,
  withDatabaseAsync,
} from '../program';

/**
 * `finops import`: a bank file into an account (docs/decisions/0060–0066). Progress goes to stderr (a bar when it is
 * a terminal, else a line per step), the summary to stdout; `--dry-run` previews and writes nothing. Subcommands list,
 * show and undo batches and list the review queue.
 */
function batchLine(b: ImportBatch): string {
  const c = b.counts;
  return `${b.id}  ${b.createdAt.slice(0, 19)}  ${b.status.padEnd(9)} ${b.format.padEnd(5)} ${String(c.rows).padStart(6)} rows: ${c.created} new, ${c.duplicate} duplicate, ${c.linked} linked, ${c.review} review, ${c.rejected} rejected, ${c.transfers} transfers  ${b.fileName ?? ''}`;
}

function problems(err: ImportRefused): string {
  return [
    err.message,
    ...err.problems
      .slice(0, 50)
      .map((p) => `  ${p.line !== null ? `line ${p.line}` : 'file'}${p.field ? ` (${p.field})` : ''}: ${p.message}`),
  ].join('\n');
}

/** A subcommand's options with the parent's (--data-dir, --team, --account are the import command's own). */
function globals<T>(command: Command): T & { dataDir?: string; team: string } {
  const opts = command.optsWithGlobals() as T & { dataDir?: string; team?: string };
  if (!opts.team) throw new UsageError('--team is required');
  return opts as T & { dataDir?: string; team: string };
}

export function importCommand(): Command {
  const cmd = new Command('import')
    .argument('[file]', 'the bank file')
    .addOption(dataDirOption())
    .addOption(teamOption(false))
    .addOption(
      new Option(
        '--account <id>',
        'the bank account the file is a statement of (leave it out for a file of several accounts: each statement goes to the account it names)',
      ),
    )
    .addOption(
      new Option(
        '--statement-account <ref=id>',
        'the account of one statement of the file, by the account it names (IBAN, number) or its position (repeatable)',
      ).argParser((v: string, all: Record<string, string> = {}) => {
        const at = v.lastIndexOf('=');
        if (at <= 0 || at === v.length - 1) throw new UsageError(`--statement-account takes REF=ACCOUNT_ID, not "${v}"`);
        return { ...all, [v.slice(0, at)]: v.slice(at + 1) };
      }),
    )
    .addOption(new Option('--split-batches', 'camt: split a batch booking into one row per part'))
    .addOption(new Option('--mapping <name>', "CSV: use this saved mapping of the account (default: the account's last used)"))
    .addOption(new Option('--save-mapping <name>', 'CSV: save the mapping used under this name for the account'))
    .addOption(new Option('--dry-run', 'preview only: parse, plan and check; write nothing'))
    .addOption(new Option('--accept-balance-mismatch', "import although the file's balances do not add up"))
    .addOption(new Option('--allow-reimport', 'import although the same file was imported before'))
    .addOption(new Option('--json', 'print the summary as JSON'))
    .action(
      async (
        file: string | undefined,
        opts: {
          dataDir?: string;
          team?: string;
          account?: string;
          statementAccount?: Record<string, string>;
          splitBatches?: boolean;
          mapping?: string;
          saveMapping?: string;
          dryRun?: boolean;
          acceptBalanceMismatch?: boolean;
          allowReimport?: boolean;
          json?: boolean;
        },
      ) => {
        if (!file) throw new UsageError('missing the bank file (finops import --team TEAM --account ID FILE)');
        if (!opts.team) throw new UsageError('--team is required');
        if (!fs.existsSync(file)) throw new UsageError(`no file ${file}`);
        const bytes = fs.readFileSync(file);
        const fileName = path.basename(file);
        await withDatabaseAsync(opts, async (db) => {
          const team = findTeam(db, opts.team!);
          const out = (s: string) => process.stdout.write(`${s}\n`);
          try {
            process.stderr.write(`import: reading ${fileName} (${bytes.length} bytes)\n`);
            const fileOptions = {
              fileName,
              mappingName: opts.mapping,
              splitBatches: opts.splitBatches,
              accounts: opts.statementAccount,
            };
            const { preview, plans } = await previewFile(db, team.id, opts.account ?? null, bytes, { ...fileOptions, rows: 0 });
            process.stderr.write(
              `import: ${preview.format} (${preview.encoding}), ${preview.counts.rows} rows: ${preview.counts.new} new, ${preview.counts.duplicate} duplicate, ${preview.counts.link} to link, ${preview.counts.review} for review, ${preview.counts.rejected} rejected\n`,
            );
            const several = preview.statements.length > 1;
            for (const st of preview.statements) {
              const name = `statement ${st.index + 1} (${st.accountRef ?? 'no account named'})`;
              if (!st.bankAccountId) {
                const key = st.accountRef ?? String(st.index + 1);
                process.stderr.write(`import: ${name}: no account found; pass --statement-account '${key}=ACCOUNT_ID'\n`);
              } else if (several || st.matchedBy !== 'request') {
                process.stderr.write(
                  `import: ${name} → account ${st.bankAccountId} (${st.matchedBy}): ${st.counts?.rows ?? 0} rows, ${st.counts?.new ?? 0} new\n`,
                );
              }
            }
            for (const n of preview.notes) process.stderr.write(`import: note: ${n}\n`);
            for (const w of preview.warnings.filter((x) => !preview.statements.some((st) => st.needs === x))) {
              process.stderr.write(`import: warning: ${w}\n`);
            }
            if (preview.alreadyImported) {
              process.stderr.write(
                `import: this file was already imported (batch ${preview.alreadyImported.batchId}, ${preview.alreadyImported.createdAt})\n`,
              );
            }
            if (opts.dryRun) {
              if (opts.json) out(JSON.stringify(preview, null, 2));
              else {
                out(
                  `dry run: ${preview.counts.rows} rows: ${preview.counts.new} new, ${preview.counts.duplicate} duplicate, ${preview.counts.link} linked, ${preview.counts.review} review, ${preview.counts.rejected} rejected; nothing written`,
                );
                out(`balance: ${preview.balance.status}: ${preview.balance.message}`);
                for (const r of preview.rows.filter((x) => x.outcome === 'rejected'))
                  out(`  rejected line ${r.line}: ${r.reason}`);
                for (const r of preview.rows.filter((x) => x.outcome === 'link'))
                  out(`  link line ${r.line} → ${r.transactionId} (score ${r.score})`);
                for (const r of preview.rows.filter((x) => x.outcome === 'review'))
                  out(`  review line ${r.line}: ${r.reason} (${r.candidates.map((c) => c.transactionId).join(', ')})`);
              }
              return;
            }
            const open = preview.statements.filter((st) => !st.bankAccountId).length;
            if (open > 0) {
              throw new UsageError(
                `${open} statement${open === 1 ? '' : 's'} of the file ${open === 1 ? 'has' : 'have'} no account: pass --statement-account REF=ACCOUNT_ID for ${open === 1 ? 'it' : 'each'} (or --account ID for a file whose statements all name one account); nothing was written`,
              );
            }
            const toWrite = plans.reduce((n, p) => n + p.counts.new + p.counts.link + p.counts.review, 0);
            const bar = progressBar('import');
            const r = await commitFile(db, team.id, opts.account ?? null, bytes, {
              ...fileOptions,
              saveMappingAs: opts.saveMapping,
              acceptBalanceMismatch: opts.acceptBalanceMismatch,
              allowReimport: opts.allowReimport,
              onProgress: toWrite > 0 ? bar : undefined,
            });
            if (opts.json) {
              out(JSON.stringify(commitSummary(r), null, 2));
              return;
            }
            for (const b of r.batches) {
              const c = b.counts;
              const of = r.batches.length > 1 ? ` (${b.accountRef ?? 'statement'} into account ${b.bankAccountId})` : '';
              out(
                `imported ${fileName}${of} as batch ${b.id}: ${c.rows} rows: ${c.created} new, ${c.duplicate} duplicate, ${c.linked} linked, ${c.review} for review, ${c.rejected} rejected`,
              );
              if (b.balance) out(`balance: ${b.balance.status}: ${b.balance.message}`);
            }
            out(`transfers: ${r.transfers.paired} paired, ${r.transfers.suggested} suggested`);
            for (const l of r.links) out(`  linked line ${l.line} → transaction ${l.transactionId} (score ${l.score})`);
            for (const v of r.review) out(`  review line ${v.line}: item ${v.itemId} (candidates ${v.candidates.join(', ')})`);
            for (const x of r.rejected) out(`  rejected line ${x.line}: ${x.reason}`);
            for (const w of r.batches.flatMap((b) => b.warnings)) out(`  warning: ${w}`);
          } catch (err) {
            if (err instanceof ImportRefused) throw new Error(problems(err));
            throw err;
          }
        });
      },
    );

  cmd.addCommand(
    new Command('batches')
      .description("list import batches (an account's with --account), newest first")
      .addOption(new Option('--limit <n>', 'how many').argParser(parsePositiveInt).default(50))
      .action((_o: unknown, command: Command) => {
        const opts = globals<{ account?: string; limit: number }>(command);
        withDatabase(opts, (db) => {
          const team = findTeam(db, opts.team);
          const page = listImportBatches(db, team.id, { bankAccountId: opts.account, pageSize: Math.min(opts.limit, 100) });
          if (page.data.length === 0) process.stdout.write('no import batches\n');
          for (const b of page.data) process.stdout.write(`${batchLine(b)}\n`);
        });
      }),
  );
  cmd.addCommand(
    new Command('show')
      .description('show a batch: file, counts, balance check and every row that was not simply created')
      .argument('<batch>', 'batch id')
      .addOption(new Option('--all', 'list every row'))
      .action((id: string, _o: unknown, command: Command) => {
        const opts = globals<{ all?: boolean }>(command);
        withDatabase(opts, (db) => {
          const team = findTeam(db, opts.team);
          const b = getImportBatch(db, team.id, id);
          const out = (s: string) => process.stdout.write(`${s}\n`);
          out(batchLine(b));
          out(
            `file: ${b.fileName ?? '-'} sha256 ${b.fileSha256} (${b.fileSize} bytes, ${b.encoding})${b.mappingName ? `, mapping "${b.mappingName}"` : ''}`,
          );
          if (b.balance) out(`balance: ${b.balance.status}: ${b.balance.message}`);
          for (const w of b.warnings) out(`warning: ${w}`);
          let after = -1;
          for (;;) {
            const page = listBatchRows(db, team.id, id, { after, limit: 1000 });
            for (const r of page.data) {
              if (!opts.all && r.outcome === 'created') continue;
              const amount = r.amount === null ? '' : String(r.amount);
              out(
                `  line ${String(r.line ?? '?').padStart(5)} ${r.outcome.padEnd(9)} ${r.date ?? ''} ${amount.padStart(12)} ${r.description ?? ''}${r.transactionId ? ` → ${r.transactionId}` : ''}${r.match ? ` (${r.match.slice(0, 60)})` : ''}${r.reason ? `: ${r.reason}` : ''}`,
              );
            }
            if (page.next === null) break;
            after = page.next;
          }
        });
      }),
  );
  cmd.addCommand(
    new Command('undo')
      .description('undo a batch in one transaction (refused, naming the rows, when any was reconciled since)')
      .argument('<batch>', 'batch id')
      .action((id: string, _o: unknown, command: Command) => {
        const opts = globals<object>(command);
        withDatabase(opts, (db) => {
          const team = findTeam(db, opts.team);
          const b = undoImportBatch(db, team.id, id);
          process.stdout.write(
            `undone batch ${b.id}: ${b.counts.created} created rows removed, ${b.counts.linked} links restored\n`,
          );
        });
      }),
  );
  cmd.addCommand(
    new Command('review')
      .description('list the review queue (an account’s with --account): bank rows held for a person to decide')
      .action((_o: unknown, command: Command) => {
        const opts = globals<{ account?: string }>(command);
        withDatabase(opts, (db) => {
          const team = findTeam(db, opts.team);
          let cursor: string | undefined;
          let count = 0;
          do {
            const page = listReviewItems(db, team.id, { bankAccountId: opts.account, cursor, pageSize: 100 });
            for (const i of page.data) {
              count++;
              process.stdout.write(
                `${i.id}  ${i.date} ${String(i.amount).padStart(10)} ${i.currency} ${i.name}  (batch ${i.batchId}, line ${i.line}); candidates: ${i.candidates.map((c) => `${c.transactionId} score ${c.score}`).join(', ')}\n`,
              );
            }
            cursor = page.meta.cursor ?? undefined;
          } while (cursor);
          if (count === 0) process.stdout.write('the review queue is empty\n');
        });
      }),
  );
  return cmd;
}
