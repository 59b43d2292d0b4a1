/** Entry of the server host process (built to out/main/server-host.js; forked with tsx in tests). */
import { installClockFromEnv } from '../clock';
import { detectParentChannel, runServerHost } from './server-host';

// A test (or a look at the app as on another day) sets the clock the way every other process of the product does.
installClockFromEnv();
runServerHost(detectParentChannel());
