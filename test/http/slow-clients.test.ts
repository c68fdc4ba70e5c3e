// Slow clients cannot hold connections: headers or a body that trickle in, and idle keep-alive sockets,
// are cut off after the server's timeouts (shortened here), with the error envelope where a reply fits.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { testConfig } from '../helpers/app.js';

const TIMEOUTS = { headersTimeout: 300, requestTimeout: 600, keepAliveTimeout: 300, connectionsCheckingInterval: 50 };

/** Everything the server sends until it closes the socket, and how long that took. */
function untilClosed(socket: Socket): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  let text = '';
  return new Promise((resolve, reject) => {
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, ms: performance.now() - started }));
  });
}

describe('slow clients', () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await buildApp({ config: testConfig(), store: new SqliteStore('sqlite::memory:'), timeouts: TIMEOUTS });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => app.close());

  const open = () => connect(port, '127.0.0.1');

  it('cuts off headers that never finish with 408 and the envelope', async () => {
    const socket = open();
    const closed = untilClosed(socket);
    socket.write('GET /v1/knowledge HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const { text, ms } = await closed;
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /\{"error":\{"code":"REQUEST_TIMEOUT","message":"the request did not arrive in time"\}\}$/);
    assert.ok(ms < 5_000, `closed after ${Math.round(ms)} ms`);
  });

  it('cuts off a body that trickles in with 408 and the envelope', async () => {
    const socket = open();
    const closed = untilClosed(socket);
    socket.write('POST /v1/knowledge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ti');
    const { text, ms } = await closed;
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /"code":"REQUEST_TIMEOUT"/);
    assert.ok(ms < 5_000, `closed after ${Math.round(ms)} ms`);
  });

  it('closes an idle keep-alive connection after its timeout', async () => {
    const socket = open();
    const closed = untilClosed(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
    const { text, ms } = await closed;
    assert.match(text, /^HTTP\/1\.1 200 /);
    assert.match(text, /\{"status":"ok"\}$/);
    assert.ok(ms >= TIMEOUTS.keepAliveTimeout - 50 && ms < 5_000, `closed after ${Math.round(ms)} ms`);
  });
});
