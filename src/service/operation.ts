// Who may call each operation of the registry, declared once, with the operation: anyone ('public'), any
// authenticated agent ('agent'), or an agent whose credential holds a scope ('read', 'write', 'admin').
// Every door reads that one declaration. A REST route names its operation's access, and the
// authentication hook admits the request by it before the body is read (a refused caller hears 401 or
// 403, never a validation error); MCP tools and pages call the operation, which admits its caller the
// same way and hands its body a typed caller: an Agent wherever one is required. Which object a caller
// may touch (its own unit, a skill it may see) is decided inside the operation, by domain/access.ts.
import { requireAgent, requireScope } from '../domain/access.js';
import type { Agent, Caller } from '../domain/caller.js';
import type { Scope } from '../domain/model.js';
import type { Context } from './context.js';

export type Access = 'public' | 'agent' | Scope;

/** The caller an operation of this access is handed once admitted. */
export type Admitted<A extends Access> = A extends 'public' ? Caller : Agent;

/** An operation: called with any caller, it admits the caller by `access` (401, then 403) before it runs. */
export interface Operation<A extends Access, Args extends unknown[], R> {
  readonly access: A;
  (ctx: Context, caller: Caller, ...args: Args): Promise<R>;
}

/** The caller, admitted by `access`, or the refusal it should hear (401 unauthenticated, 403 a missing scope). */
export function admit<A extends Access>(access: A, caller: Caller): Admitted<A> {
  if (access === 'public') return caller as Admitted<A>;
  if (access === 'agent') return requireAgent(caller) as Admitted<A>;
  return requireScope(caller, access) as Admitted<A>;
}

export function operation<A extends Access, Args extends unknown[], R>(
  access: A,
  body: (ctx: Context, caller: Admitted<A>, ...args: Args) => R | Promise<R>,
): Operation<A, Args, Awaited<R>> {
  const run = async (ctx: Context, caller: Caller, ...args: Args) => body(ctx, admit(access, caller), ...args);
  return Object.assign(run, { access }) as Operation<A, Args, Awaited<R>>;
}
