// What most commands' actions begin with: their own arguments checked, then the context the global options
// describe (the registry client and the output), so that a bad argument is reported before anything is
// built from --url, --key and the rest.
import type { Command } from 'commander';
import { IdParams } from '../../http/schemas.js';
import type { ClientOptions } from '../client.js';
import { checked } from '../checks.js';
import { commandContext, type CommandContext, type GlobalOptions } from '../context.js';

/** An id for a path segment, checked as the API checks it (1-64 characters). */
export function idArgument(id: string, name = 'the id'): string {
  return checked<{ id: string }>(IdParams, { id }, { names: { id: name } }).id;
}

/**
 * An action run with the command's context: commander passes the arguments, the options and the command;
 * `run` gets the context, then the arguments and the options.
 */
export function withContext<A extends unknown[]>(
  run: (ctx: CommandContext, ...args: A) => Promise<void>,
  client: Partial<ClientOptions> = {},
): (...args: [...A, Command]) => Promise<void> {
  return async (...args) => {
    const command = args.at(-1) as Command;
    await run(commandContext(command.optsWithGlobals<GlobalOptions>(), client), ...(args.slice(0, -1) as A));
  };
}

/** An action on one id argument, checked first (named `name` in an error), run with the command's context. */
export function onId<O>(
  name: string,
  run: (ctx: CommandContext, id: string, options: O) => Promise<void>,
): (id: string, options: O, command: Command) => Promise<void> {
  const withIt = withContext(run);
  return async (id, options, command) => {
    idArgument(id, name);
    await withIt(id, options, command);
  };
}
