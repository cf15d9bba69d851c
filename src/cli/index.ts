/**
 * The `idp` command line: commands.ts is THE command table (every command,
 * its options, its function), commands/ holds one thin function per command
 * that parses flags, calls services through the composition root
 * (src/app.ts: createApp for serve, a Foundation for the others) and writes
 * through the injected output (output.ts, the only chalk import); admin/ is
 * the terminal client of the admin API. Exit codes are decided in main.ts.
 */
export { main } from './main.js';
