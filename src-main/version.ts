import pkg from '../package.json';

export const SERVER_VERSION: string = pkg.version;
/** The contract version this server implements (v1-api.md, "Versioning"). */
export const CONTRACT_VERSION = '1.0.0';
