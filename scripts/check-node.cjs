// Refuses to install on a Node older than 22.12: native modules built now must be loaded by the same Node later.
// `npx finops` links this checkout into npm's exec cache, which runs this script again under the shell's Node;
// the launcher picks the project's Node itself, so that case is let through.
if (process.env.npm_command === 'exec') process.exit(0);
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`Finops Desk needs Node >= 22.12 (found ${process.versions.node}). Run: bash scripts/setup.sh`);
  process.exit(1);
}
