// The command line's commands and how a run ends: every command declared on one commander program, help and
// usage errors turned into exit codes, and any other error printed once by reportError (context.ts).
import { Command, CommanderError } from 'commander';
import { VERSION } from './client.js';
import { accountCommands } from './commands/account.js';
import { auditCommand } from './commands/audit.js';
import { browseCommands } from './commands/browse.js';
import { exportCommand } from './commands/export.js';
import { installCommands } from './commands/install.js';
import { lifecycleCommands } from './commands/lifecycle.js';
import { mcpCommand } from './commands/mcp.js';
import { publishCommand } from './commands/publish.js';
import { unitsCommands } from './commands/units.js';
import { closeClients, EXIT, reportError } from './context.js';

const EXIT_CODES_HELP = `
Exit codes:
  0  done
  1  the registry refused or failed (its message is printed), or the command could not finish (a digest differs, a file exists)
  2  usage error: unknown command or option, missing argument, a bad value (checked here, before anything is sent)
  3  the registry could not be reached, or did not answer in time

Environment: REG_URL (registry URL), REG_API_KEY (API key), REG_TIMEOUT, REG_CONNECT_TIMEOUT (seconds),
REG_RETRIES. The stored login lives in your config directory (see login). Reference: docs/cli.md.`;

function program(): Command {
  const cli = new Command('knowledge-registry')
    .description(
      'Search, install and publish skills and knowledge units in a Knowledge Registry; serve it to local agents over MCP.',
    )
    .version(VERSION)
    .option('--url <url>', 'the registry (default: REG_URL, the stored login, or http://127.0.0.1:3000)')
    .option('--key <key>', 'API key (default: REG_API_KEY or the stored login)')
    .option('--json', 'print results (and errors) as JSON on stdout')
    .option(
      '--timeout <seconds>',
      'longest wait for an answer to start, retries included, and for each next chunk (default: REG_TIMEOUT or 30)',
    )
    .option('--connect-timeout <seconds>', 'longest wait for one connection (default: REG_CONNECT_TIMEOUT or 10)')
    .option('--retries <n>', 'retries after a network failure or a busy registry, 0-10 (default: REG_RETRIES or 2)')
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError()
    .exitOverride();
  accountCommands(cli);
  browseCommands(cli);
  installCommands(cli);
  auditCommand(cli);
  publishCommand(cli);
  lifecycleCommands(cli);
  unitsCommands(cli);
  exportCommand(cli);
  mcpCommand(cli);
  // Subcommands end the way the program does: exit codes are decided below, never by commander itself.
  const overrideAll = (command: Command) => {
    command.exitOverride();
    command.commands.forEach(overrideAll);
  };
  overrideAll(cli);
  return cli;
}

/** Runs the command line on `argv` (as process.argv has it) and answers its exit code. */
export async function runCli(argv: string[]): Promise<number> {
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
  } finally {
    await closeClients();
  }
}
