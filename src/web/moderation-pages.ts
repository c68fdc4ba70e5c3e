// The moderation pages: the public log of decisions, and the admins' queue, where an operator decides
// without curl. The admin pages hold no session: the admin's API key is typed into a form and sent again
// by each form of the queue page it is shown on (never in a URL, a cookie or a log), so a page of another
// site cannot act for an admin (it has no credential to send, and cross-site posts are refused on top).
// Every decision goes through the same operation as POST /v1/moderation/decisions.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Caller } from '../domain/caller.js';
import { badRequest, forbidden, unauthorized } from '../domain/errors.js';
import { DECISION_ACTIONS, REASON_CODE } from '../domain/moderation.js';
import { applyChange, type Context } from '../service/context.js';
import { callerOfApiKey } from '../service/keys.js';
import { decide, listReports, moderationLog } from '../service/moderation.js';
import { sendPage } from './headers.js';
import type { Pages } from './render.js';

const LOG_PAGE = 50;
const QUEUE_PAGE = 50;
const MAX_FORM_BYTES = 16 * 1024;

const hidden = { hide: true } as const;
const LogQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })) });
const Key = Type.String({ minLength: 1, maxLength: 512 });
const QueueForm = Type.Object({ key: Key, status: Type.Optional(Type.Enum(['open', 'closed'])) });
const DecisionForm = Type.Object({
  key: Key,
  target: Type.String({ minLength: 1, maxLength: 300 }),
  version: Type.Optional(Type.String({ maxLength: 64 })),
  action: Type.Enum([...DECISION_ACTIONS]),
  reason: Type.String({ minLength: 1, maxLength: 64, pattern: REASON_CODE }),
  note: Type.Optional(Type.String({ maxLength: 2_000 })),
  report_ids: Type.Optional(Type.String({ maxLength: 2_000 })),
});

const OTHER_SITE = 'the admin pages only take forms sent from their own pages';

/** `scheme://host[:port]` normalized (a default port dropped), or null when it is not a URL. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * A post from a page of another site is refused before anything is read: as the browser tells it
 * (Sec-Fetch-Site, which modern browsers send; the pages' no-referrer policy makes their Origin "null"),
 * or else by its Origin.
 */
function sameSite(request: FastifyRequest): void {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) {
    if (site !== 'same-origin' && site !== 'none') throw forbidden(OTHER_SITE);
    return;
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  const own = originOf(`${request.protocol}://${request.host}`);
  if (own === null || originOf(origin) !== own) throw forbidden(OTHER_SITE);
}

export function moderationPages(app: FastifyInstance, ctx: Context, pages: Pages): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const keyCaller = callerOfApiKey(ctx.store);

  // Forms are read here only (the API stays JSON): small, flat, strings.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: MAX_FORM_BYTES },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(body as string)) {
        if (value !== '') fields[name] = value;
      }
      done(null, fields);
    },
  );

  /** The admin the form's key stands for: 401 for a key that does not authenticate, 403 without `admin`. */
  const admin = async (key: string): Promise<Caller> => {
    const caller = await keyCaller(key);
    if (!caller) throw unauthorized('the key is not a valid API key');
    if (!caller.scopes.includes('admin')) throw forbidden('this key has no admin scope');
    return caller;
  };

  const queuePage = async (
    reply: FastifyReply,
    caller: Caller,
    key: string,
    status: 'open' | 'closed',
    notice: string | null,
  ) => {
    const queue = await listReports(ctx, caller, { status, limit: QUEUE_PAGE, offset: 0 });
    reply.header('cache-control', 'no-store');
    return sendPage(
      reply,
      200,
      pages.render(
        'admin-queue',
        { title: 'Moderation queue', searchBox: false },
        { queue, key, status, notice, actions: DECISION_ACTIONS },
      ),
    );
  };

  typed.get('/moderation', { schema: { ...hidden, querystring: LogQuery } }, async (request, reply) => {
    const page = request.query.page ?? 1;
    const log = await moderationLog(ctx, request.auth, { limit: LOG_PAGE, offset: (page - 1) * LOG_PAGE });
    const pagesCount = Math.max(1, Math.ceil(log.total / LOG_PAGE));
    return sendPage(reply, 200, pages.render('moderation', { title: 'Moderation log' }, { log, page, pagesCount }));
  });

  typed.get('/admin', { schema: hidden }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return sendPage(reply, 200, pages.render('admin-key', { title: 'Moderation: sign in', searchBox: false }, {}));
  });

  typed.post('/admin/queue', { schema: { ...hidden, body: QueueForm } }, async (request, reply) => {
    sameSite(request);
    const caller = await admin(request.body.key);
    return queuePage(reply, caller, request.body.key, request.body.status ?? 'open', null);
  });

  typed.post('/admin/decisions', { schema: { ...hidden, body: DecisionForm } }, async (request, reply) => {
    sameSite(request);
    const { key, version, note, report_ids, ...decision } = request.body;
    const caller = await admin(key);
    const reports = (report_ids ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    if (reports.length > 100) throw badRequest('report_ids: at most 100');
    const done = await applyChange(
      await decide(ctx, caller, {
        ...decision,
        ...(version === undefined ? {} : { version }),
        ...(note === undefined ? {} : { note }),
        ...(reports.length === 0 ? {} : { report_ids: reports }),
      }),
    );
    const notice = `Recorded: ${done.data.action} of ${done.data.target}${done.data.version ? `@${done.data.version}` : ''} (${done.data.reason}).`;
    return queuePage(reply, caller, key, 'open', notice);
  });
}
