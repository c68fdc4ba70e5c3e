#!/usr/bin/env node
// knowledge-registry (alias kreg): the registry's command line, for people and scripts. Every command talks
// to a registry's REST API (--url, REG_URL, the stored login, or http://127.0.0.1:3000) with a key (--key,
// REG_API_KEY, or the stored login), prints JSON with --json, and ends with a documented exit code.
import { Command, CommanderError } from 'commander';
import { VERSION } from './client.js';
import { accountCommands } from './commands/account.js';
import { browseCommands } from './commands/browse.js';
import { exportCommand } from './commands/export.js';
import { installCommand } from './commands/install.js';
import { mcpCommand } from './commands/mcp.js';
import { publishCommand } from './commands/publish.js';
import { unitsCommands } from './commands/units-import.js';
import { EXIT, reportError } from './context.js';

const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  the registry refused or failed (its message is printed), or the command could not finish (a digest differs, a file exists)
  2  usage error: unknown command or option, missing argument, bad value
  3  the registry could not be reached

Environment: REG_URL (registry URL), REG_API_KEY (API key). The stored login lives in your config directory (see login).`;

function program(): Command {
  const cli = new Command('knowledge-registry')
    .description('Search, install and publish skills and knowledge units in a Knowledge Registry; serve it to local agents over MCP.')
    .version(VERSION)
    .option('--url <url>', 'the registry (default: REG_URL, the stored login, or http://127.0.0.1:3000)')
    .option('--key <key>', 'API key (default: REG_API_KEY or the stored login)')
    .option('--json', 'print results (and errors) as JSON on stdout')
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError()
    .exitOverride();
  accountCommands(cli);
  browseCommands(cli);
  installCommand(cli);
  publishCommand(cli);
  unitsCommands(cli);
  exportCommand(cli);
  mcpCommand(cli);
  // Subcommands end the way the program does: exit codes are decided below, never by commander itself.
  for (const command of cli.commands) {
    command.exitOverride();
    for (const sub of command.commands) sub.exitOverride();
  }
  return cli;
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  try {
    await program().parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are answers; anything else commander refused is a usage error (already printed).
      return ['commander.helpDisplayed', 'commander.version'].includes(error.code) ? EXIT.ok : EXIT.usage;
    }
    return reportError(error, json);
  }
}

main(process.argv).then((code) => {
  process.exitCode = code;
});
