/**
 * Run by trust.test.ts in a process of its own (`node --import tsx fetch-child.ts URL [name=address]`): what Node
 * trusts is fixed when a process starts (NODE_EXTRA_CA_CERTS, the system's store), so each case needs a fresh one.
 * Prints the answer or the error as one JSON line.
 */
import { outboundFetch } from '../../../src-main/outbound/fetch';
import { useResolver as resolveNamesWith } from '../../../src-main/outbound/policy';

const [url, resolve] = process.argv.slice(2);
const [name, address] = (resolve ?? '').split('=');

// The one test name; 127.0.0.1 and the like are literals and never asked.
resolveNamesWith(async (host) => {
  if (!resolve || host !== name) throw new Error(`no test address for ${host}`);
  return [{ address: address!, family: 4 }];
});

async function main(): Promise<void> {
  try {
    const res = await outboundFetch(url!, { maxBytes: 64 * 1024 });
    process.stdout.write(`${JSON.stringify({ status: res.status, text: await res.text() })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ error: (err as Error).name, message: (err as Error).message })}\n`);
  }
}

void main();
