// Measurements against a running process: fixed-duration load with autocannon (latency recorded per
// response, in microsecond resolution, 2xx only), and a streamed export with its memory.
import autocannon from 'autocannon';
import { readMemory, resetPeak, RssSampler } from './processes.js';

export interface LoadOptions {
  connections: number;
  /** Seconds measured. */
  duration: number;
  /** Seconds of the same load before measuring, not recorded (0: none). */
  warmup: number;
  /** The process whose memory is sampled. */
  pid: number;
}

export interface Measurement {
  /** Successful (2xx) responses per second. */
  rps: number;
  /** Milliseconds, over 2xx responses. */
  p50: number;
  p99: number;
  max: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  seconds: number;
  /** The largest RSS sampled while the load ran, MiB. */
  rssMaxMb: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function fire(url: string, requests: autocannon.Request[], connections: number, duration: number) {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const instance = autocannon({ url, connections, duration, requests, timeout: 30 });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode < 200 || statusCode >= 300) return;
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = responseTime;
  });
  const result = await instance;
  return { result, latencies: latencies.slice(0, count).sort() };
}

/** Runs `requests` (cycled by each connection) against `url` for the given time and reports it. */
export async function measureLoad(
  url: string,
  requests: autocannon.Request[],
  options: LoadOptions,
): Promise<Measurement> {
  if (options.warmup > 0) await fire(url, requests, options.connections, options.warmup);
  const sampler = new RssSampler(options.pid);
  const { result, latencies } = await fire(url, requests, options.connections, options.duration);
  const rssMaxMb = sampler.stop();
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  return {
    rps: latencies.length / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: percentile(latencies, 100),
    ok: latencies.length,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
    seconds: result.duration,
    rssMaxMb,
  };
}

export interface ExportMeasurement {
  status: number;
  /** Knowledge units in the document (counted while it streams). */
  units: number;
  bytes: number;
  /** Until the first byte, and until the end, milliseconds (best of the repeats). */
  firstByteMs: number;
  totalMs: number;
  rssBeforeMb: number;
  /** Peak RSS while exporting (VmHWM reset before each export where the kernel allows it), MiB. */
  rssPeakMb: number;
}

const UNIT_MARK = '"id":"ku_';

/** Reads GET /v1/export/:agent_id `repeats` times to the end, one at a time. */
export async function measureExport(
  url: string,
  key: string,
  pid: number,
  repeats: number,
): Promise<ExportMeasurement> {
  let best: ExportMeasurement | undefined;
  let peak = 0;
  for (let r = 0; r < repeats; r++) {
    const rssBeforeMb = readMemory(pid).rssMb;
    const peakReset = resetPeak(pid);
    const sampler = new RssSampler(pid, 20);
    let started = performance.now();
    let res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    // Right after the write scenarios the service may still be shedding load (503 with Retry-After):
    // retry as a well-behaved client would; the export is timed from the attempt that is served.
    for (let retry = 0; res.status === 503 && retry < 10; retry++) {
      await res.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      started = performance.now();
      res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    }
    let firstByteMs = NaN;
    let bytes = 0;
    let units = 0;
    let tail = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
      bytes += chunk.byteLength;
      // Counted across chunk boundaries: the tail of one chunk is searched with the next.
      const text = tail + decoder.decode(chunk, { stream: true });
      for (let at = text.indexOf(UNIT_MARK); at !== -1; at = text.indexOf(UNIT_MARK, at + 1)) units++;
      tail = text.slice(-(UNIT_MARK.length - 1));
    }
    const totalMs = performance.now() - started;
    const sampled = sampler.stop();
    peak = Math.max(peak, sampled, peakReset ? readMemory(pid).hwmMb : 0);
    const m = { status: res.status, units, bytes, firstByteMs, totalMs, rssBeforeMb, rssPeakMb: peak };
    if (!best || m.totalMs < best.totalMs) best = m;
  }
  return { ...best!, rssPeakMb: peak };
}
