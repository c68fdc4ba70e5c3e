// An operation of the registry: a function of the context and the caller that first admits the caller by
// the operation's access (domain/operations.ts: the one table of who may call what), then runs with a typed
// caller: an Agent wherever one is required. REST routes and MCP tools name the same access.
import { admit, type Access, type Admitted } from '../domain/operations.js';
import type { Caller } from '../domain/caller.js';
import type { Context } from './context.js';

/** An operation: called with any caller, it admits the caller by `access` (401, then 403) before it runs. */
export interface Operation<A extends Access, Args extends unknown[], R> {
  readonly access: A;
  (ctx: Context, caller: Caller, ...args: Args): Promise<R>;
}

export function operation<A extends Access, Args extends unknown[], R>(
  access: A,
  body: (ctx: Context, caller: Admitted<A>, ...args: Args) => R | Promise<R>,
): Operation<A, Args, Awaited<R>> {
  const run = async (ctx: Context, caller: Caller, ...args: Args) => body(ctx, admit(access, caller), ...args);
  return Object.assign(run, { access }) as Operation<A, Args, Awaited<R>>;
}
