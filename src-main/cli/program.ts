import { InvalidArgumentError, Option } from 'commander';
import { defaultDataDir } from '../paths';
import { openDataDir } from '../runtime/data-dir';
import type { Db } from '../store/db';
import { NotFound } from '../store/errors';
import { findTeamById, findTeamByName, type Team } from '../store/teams/teams';

/** Shared pieces of the `finops` commands: option parsers, the data dir, the team option (exit codes: ./exit-codes.ts). */
export { UsageError } from './exit-codes';

export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError('must be a port number 0-65535');
  return n;
}

export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('must be a whole number of at least 1');
  }
  return Number(value);
}

export function parseNonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

export function dataDirOption(): Option {
  return new Option('--data-dir <dir>', 'data folder (default: $FINOPS_DATA_DIR or the per-user app data folder)');
}

export function resolveDataDir(opts: { dataDir?: string }): string {
  return opts.dataDir ?? defaultDataDir();
}

/** Opens the data dir's database for one command and closes it however the command ends. */
export function withDatabase<T>(opts: { dataDir?: string }, run: (db: Db) => T): T {
  const db = openDataDir(resolveDataDir(opts));
  try {
    return run(db);
  } finally {
    db.close();
  }
}

/** withDatabase for work that awaits (a parse in the parser sandbox): the database closes when the work is done. */
export async function withDatabaseAsync<T>(opts: { dataDir?: string }, run: (db: Db) => Promise<T>): Promise<T> {
  const db = openDataDir(resolveDataDir(opts));
  try {
    return await run(db);
  } finally {
    db.close();
  }
}

export function teamOption(required = true): Option {
  const o = new Option('--team <team>', 'team name or id');
  if (required) o.makeOptionMandatory();
  return o;
}

/** The team a command names, by id or by name; NotFound (exit 1, "team X not found") when there is none. */
export function findTeam(db: Db, nameOrId: string): Team {
  const team = findTeamById(db, nameOrId) ?? findTeamByName(db, nameOrId);
  if (!team) throw new NotFound('team', nameOrId);
  return team;
}

/** A progress bar on stderr: redrawn in place on a terminal, a line every 10 % otherwise. */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  let lastTenth = -1;
  return (done: number, total: number) => {
    const share = total === 0 ? 1 : Math.min(1, done / total);
    if (stream.isTTY) {
      const width = 30;
      const full = Math.round(share * width);
      stream.write(`\r${label} [${'#'.repeat(full)}${'.'.repeat(width - full)}] ${done}/${total}${done >= total ? '\n' : ''}`);
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      stream.write(`${label}: ${done}/${total} (${Math.round(share * 100)} %)\n`);
    }
  };
}
