// Slow clients cannot hold connections: headers or a body that trickle in, and idle keep-alive sockets,
// are cut off after the server's timeouts (shortened here), with the error envelope where a reply fits.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
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
    // Load shedding off: on a loaded machine it could answer 503 before the timeouts under test.
    app = await buildApp({
      config: testConfig(),
      store: openSqliteStore('sqlite::memory:'),
      timeouts: TIMEOUTS,
      limits: { maxEventLoopDelayMs: 0 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => app.close());

  const open = () => connect(port, '127.0.0.1');

  it('cuts off headers that never finish with 408 and the envelope', async () => {
    const socket = open();
    const closed = untilClosed(socket);
    socket.write('GET /v1/knowledge HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    const { text, ms } = await closed;
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /\{"error":\{"code":"REQUEST_TIMEOUT","message":"the request did not arrive in time"\}\}$/);
    assert.ok(ms < 5_000, `closed after ${Math.round(ms)} ms`);
  });

  it('cuts off a body that trickles in with 408 and the envelope', async () => {
    const socket = open();
    const closed = untilClosed(socket);
    socket.write(
      'POST /v1/knowledge HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ti',
    );
    const { text, ms } = await closed;
    assert.match(text, /^HTTP\/1\.1 408 /);
    assert.match(text, /"code":"REQUEST_TIMEOUT"/);
    assert.ok(ms < 5_000, `closed after ${Math.round(ms)} ms`);
  });

  it('closes an idle keep-alive connection after its timeout', async () => {
    const socket = open();
    const closed = untilClosed(socket);
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    const { text, ms } = await closed;
    assert.match(text, /^HTTP\/1\.1 200 /);
    assert.match(text, /\{"status":"ok"\}$/);
    assert.ok(ms >= TIMEOUTS.keepAliveTimeout - 50 && ms < 5_000, `closed after ${Math.round(ms)} ms`);
  });
});

// Issue 13.1: bodies trickling in (to real and unknown routes) once held every in-flight slot, and other
// clients got 503. A request now counts against the cap only once its body is in.
describe('slow bodies and the in-flight cap', () => {
  let app: FastifyInstance;
  let port: number;
  const trickling: Socket[] = [];
  before(async () => {
    app = await buildApp({
      config: testConfig(),
      store: openSqliteStore('sqlite::memory:'),
      limits: { maxInFlight: 4, maxEventLoopDelayMs: 0 },
      timeouts: { requestTimeout: 60_000, connectionsCheckingInterval: 1_000 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const socket of trickling) socket.destroy();
    await app.close();
  });

  it('serves other clients while more uploads than the cap trickle in', async () => {
    for (let i = 0; i < 12; i++) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      const path = i % 2 === 0 ? '/v1/knowledge' : '/no/such/route';
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"ti`,
      );
      trickling.push(socket);
    }
    // Let the server take in every trickling request's headers and first bytes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/v1/knowledge`);
      assert.equal(res.status, 200, await res.text());
    }
  });
});
