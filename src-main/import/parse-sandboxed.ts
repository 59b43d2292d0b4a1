import { CsvMapping as CsvMappingSchema } from '../../src-shared/contract/import-mapping';
import { ImportRefused } from '../../src-shared/domain/import/types';
import { ParserFailed, ParserStopped, parsers } from '../sandbox/pool';
import type { ParseOptions, ParseResult } from './parse-file';

/**
 * A bank file parsed in the parser sandbox (docs/decisions/0170): parse-file.ts runs in a worker under the bank-file
 * job's limits, and a file that takes it past them is refused like any unreadable file — ImportRefused, a 422 with
 * the reason, `finops import` exiting 1 — with nothing written.
 *
 * The import's own code (service.ts) stays synchronous, since it runs inside one SQLite transaction: it asks a
 * `ParseBook` for the parses it needs, and `withParses` makes each one it did not have yet in the sandbox and runs the
 * code again, so a file is parsed once per distinct set of options (an import needs one to three: the file as read,
 * with the account's saved mapping, in another account's currency) and the transaction holds no await.
 */
export async function parseInSandbox(bytes: Uint8Array, options: ParseOptions): Promise<ParseResult> {
  // The mapping is the caller's, not the file's: a wrong one is the request's mistake (422 by its field), checked here.
  const checked = options.mapping ? { ...options, mapping: CsvMappingSchema.parse(options.mapping) } : options;
  try {
    return await parsers().run('bankFile', { bytes, options: checked });
  } catch (err) {
    if (err instanceof ParserStopped || err instanceof ParserFailed) {
      const message = `The file cannot be imported: ${err.message}`;
      throw new ImportRefused(message, [{ line: null, row: null, field: null, message: err.message }]);
    }
    throw err;
  }
}

/** A parse the import asked for before the sandbox had made it. */
class ParseNeeded extends Error {
  constructor(readonly options: ParseOptions) {
    super('parse needed');
  }
}

export type ParseBook = (options: ParseOptions) => ParseResult;

const keyOf = (o: ParseOptions) =>
  JSON.stringify([o.filename ?? null, o.currency, o.mapping ?? null, o.encoding ?? null, o.splitBatches ?? false]);

/**
 * Runs `use` with the file's parses, making each in the sandbox the first time `use` asks for it. `use` must have
 * done nothing that outlives it before it asks (a transaction it opened is rolled back by the throw that asks).
 */
export async function withParses<T>(bytes: Uint8Array, use: (parse: ParseBook) => T): Promise<T> {
  const made = new Map<string, ParseResult>();
  const book: ParseBook = (options) => {
    const found = made.get(keyOf(options));
    if (!found) throw new ParseNeeded(options);
    return found;
  };
  for (;;) {
    try {
      return use(book);
    } catch (err) {
      if (!(err instanceof ParseNeeded)) throw err;
      made.set(keyOf(err.options), await parseInSandbox(bytes, err.options));
    }
  }
}
