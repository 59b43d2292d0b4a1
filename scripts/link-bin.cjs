// npm links the bins of dependencies into node_modules/.bin, but not the project's own: link `finops` there so
// that `npx finops` in the checkout runs this project's launcher instead of looking for a registry package.
const fs = require('node:fs');
const path = require('node:path');
const binDir = path.join(__dirname, '..', 'node_modules', '.bin');
const link = path.join(binDir, 'finops');
fs.mkdirSync(binDir, { recursive: true });
try {
  fs.unlinkSync(link);
} catch {}
fs.symlinkSync(path.join('..', '..', 'bin', 'finops'), link);
