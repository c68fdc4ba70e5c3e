// The ceiling: the least a Fastify route can do to answer a page of 20 knowledge units — the same page
// the service answered, held in memory, serialized per request through the service's own response
// schema — with no authentication, rate limit, hooks or database. Every endpoint is reported as a
// fraction of its req/s. Run as a child process: BENCH_PORT, and BENCH_CEILING_PAGE (a JSON file).
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { UnitPage } from '../src/http/schemas.js';

const page: unknown = JSON.parse(readFileSync(process.env.BENCH_CEILING_PAGE!, 'utf8'));
const app = Fastify({ logger: false });

app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/v1/knowledge', { schema: { response: { 200: UnitPage } } }, async () => page);

await app.listen({ port: Number(process.env.BENCH_PORT), host: '127.0.0.1' });
const close = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', close);
process.on('SIGINT', close);
