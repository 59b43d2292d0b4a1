import { installClockFromEnv, NOW_ENV, OFFSET_ENV } from '../src-main/clock';
import { DEFAULT_TEST_NOW } from './helpers/clock';

// Every test process runs on the test clock (test/helpers/clock.ts), and every process it starts inherits it: no
// test depends on the day the suite happens to run.
if (!process.env[OFFSET_ENV] && !process.env[NOW_ENV]) process.env[NOW_ENV] = DEFAULT_TEST_NOW;
installClockFromEnv();
