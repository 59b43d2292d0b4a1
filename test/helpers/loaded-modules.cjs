'use strict';
/**
 * Preloaded with `--require` into a process under test: at exit, writes every file it loaded (CommonJS and ESM,
 * through Node's module hooks) to the file named by $FINOPS_LOADED_MODULES, one path a line.
 */
const fs = require('node:fs');
const { registerHooks } = require('node:module');
const { fileURLToPath } = require('node:url');

const loaded = new Set();
registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) loaded.add(fileURLToPath(url));
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  if (process.env.FINOPS_LOADED_MODULES) fs.writeFileSync(process.env.FINOPS_LOADED_MODULES, [...loaded].join('\n'));
});
