#!/usr/bin/env node
// fixloop's command-line entry. The sources are TypeScript run directly by Node 24
// (type stripping); the project brings Node 24 itself as a dev dependency.
const [major] = process.versions.node.split('.').map(Number);
if (major < 24) {
  console.error(`fixloop needs Node.js 24 or newer (this is ${process.version}). Run it through npm (npx fixloop, npm run ...) so the project's own Node 24 is used.`);
  process.exit(3);
}
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
