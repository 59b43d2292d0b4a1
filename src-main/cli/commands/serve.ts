import { Command, Option } from 'commander';
import { clockOffset, NOW_ENV } from '../../clock';
import { startServer } from '../../server/start';
import { dataDirOption, parseNonNegativeInt, parsePort, parsePositiveInt, resolveDataDir } from '../program';

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
    .action(
      async (opts: {
        dataDir?: string;
        port: number;
        host: string;
        rateLimit: number;
        responseCacheMb: number;
        specOnly?: boolean;
      }) => {
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
