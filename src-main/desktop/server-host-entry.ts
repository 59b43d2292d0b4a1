/** Entry of the server host process (built to out/main/server-host.js; forked with tsx in tests). */
import { detectParentChannel, runServerHost } from './server-host';

runServerHost(detectParentChannel());
