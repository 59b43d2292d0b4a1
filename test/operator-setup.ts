import os from 'node:os';
import { ALLOW_PRIVATE_HOSTS_ENV, INBOX_ROOTS_ENV } from '../src-main/operator/settings';

// The test process is the operator of the stand-ins it starts on loopback (remotes, mail servers, the access point)
// and of the folders it makes under the system's temporary folder; processes it starts inherit the same. The
// refusals by default are tested where they are decided (test/main/outbound, test/main/inbox-ingest/roots).
// A setup file of both vitest configs: the browser tests' servers sync with and mail to loopback stand-ins too.
process.env[ALLOW_PRIVATE_HOSTS_ENV] ??= '127.0.0.0/8,::1,localhost';
process.env[INBOX_ROOTS_ENV] ??= os.tmpdir();
