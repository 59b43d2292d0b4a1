import path from 'node:path';
import { Command, Option } from 'commander';
import { clockOffset, NOW_ENV } from '../../clock';
import { configureOperator } from '../../operator/settings';
import { BadAllowance, parseAllowance } from '../../outbound/allowance';
import { startServer } from '../../server/start';
import { dataDirOption, parseNonNegativeInt, parsePort, parsePositiveInt, resolveDataDir, UsageError } from '../program';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function serveCommand(): Command {
  return new Command('serve')
    .addOption(dataDirOption())
    .addOption(new Option('--port <port>', 'TCP port (0 picks a free one)').argParser(parsePort).default(4100))
    .addOption(new Option('--host <host>', 'address to listen on; 0.0.0.0 to serve a LAN').default('127.0.0.1'))
    .addOption(new Option('--rate-limit <n>', 'max requests per minute per credential').argParser(parsePositiveInt).default(600))
    .addOption(
      new Option('--response-cache-mb <n>', 'memory for cached GET responses, in MiB; 0 turns the cache off')
        .argParser(parseNonNegativeInt)
        .default(32),
    )
    .addOption(
      new Option('--spec-only', "serve only the spec's and the hosted service's operations (every extension answers 404)"),
    )
    .addOption(
      new Option(
        '--allow-private-hosts <entries>',
        'addresses, CIDR ranges or host names (each optionally :port), comma-separated, that outbound requests may reach although they are loopback, private or link-local (default: none; $FINOPS_ALLOW_PRIVATE_HOSTS)',
      ).argParser(collect),
    )
    .addOption(
      new Option(
        '--inbox-root <dir>',
        'a folder under which teams may set their watched inbox folder; repeat for more (default: none, watched folders off; $FINOPS_INBOX_ROOTS)',
      ).argParser(collect),
    )
    .action(
      async (opts: {
        dataDir?: string;
        port: number;
        host: string;
        rateLimit: number;
        responseCacheMb: number;
        specOnly?: boolean;
        allowPrivateHosts?: string[];
        inboxRoot?: string[];
      }) => {
        // The operator's choices for this process, before anything reaches out (docs/decisions/0176).
        if (opts.allowPrivateHosts) {
          const entries = opts.allowPrivateHosts
            .flatMap((v) => v.split(','))
            .map((v) => v.trim())
            .filter(Boolean);
          try {
            parseAllowance(entries);
          } catch (err) {
            if (err instanceof BadAllowance) throw new UsageError(`--allow-private-hosts: ${err.message}`);
            throw err;
          }
          configureOperator({ allowPrivateHosts: entries });
        }
        if (opts.inboxRoot) configureOperator({ inboxRoots: opts.inboxRoot.map((d) => path.resolve(d)) });
        const server = await startServer({
          dataDir: resolveDataDir(opts),
          host: opts.host,
          port: opts.port,
          rateLimitPerMinute: opts.rateLimit,
          responseCacheBytes: opts.responseCacheMb * 1024 * 1024,
          specOnly: opts.specOnly === true,
        });
        process.stdout.write(
          `Finops Desk server listening on ${server.url} (API ${server.url}/v1, docs ${server.url}/v1/docs)\n`,
        );
        // Said once, loudly: a server on a shifted clock must not be mistaken for one on today.
        if (clockOffset() !== 0) process.stderr.write(`clock set by ${NOW_ENV}: now is ${new Date().toISOString()}\n`);
        await new Promise<void>((resolve) => {
          const stop = (signal: string) => {
            process.stderr.write(`received ${signal}, shutting down\n`);
            server.close().then(resolve, (err) => {
              process.stderr.write(`shutdown failed: ${String(err)}\n`);
              process.exitCode = 1;
              resolve();
            });
          };
          process.once('SIGINT', () => stop('SIGINT'));
          process.once('SIGTERM', () => stop('SIGTERM'));
        });
      },
    );
}
