import os from 'node:os';
import { ALLOW_PRIVATE_HOSTS_ENV, INBOX_ROOTS_ENV } from '../src-main/operator/settings';
import { installSubscriptions } from '../src-main/runtime/subscriptions';

// Every process of the product subscribes its orchestration folders to the store's domain events before it writes
// (src-main/runtime/data-dir.ts); a test process does the same, so store functions behave as they do in production.
installSubscriptions();

// The test process is the operator of the stand-ins it starts on loopback (remotes, mail servers, the access point)
// and of the folders it makes under the system's temporary folder; processes it starts inherit the same. The
// refusals by default are tested where they are decided (test/main/outbound, test/main/inbox-ingest/roots).
process.env[ALLOW_PRIVATE_HOSTS_ENV] ??= '127.0.0.0/8,::1,localhost';
process.env[INBOX_ROOTS_ENV] ??= os.tmpdir();
