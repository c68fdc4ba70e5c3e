// Child processes under test (the service, the ceiling): start, wait until healthy, read memory, stop.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';

import { freePort } from '../test/process/server.js';

export { freePort };

export interface Memory {
  /** Resident set size now, MiB. */
  rssMb: number;
  /** Peak resident set size since start (or since the last resetPeak), MiB. */
  hwmMb: number;
}

export function readMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

/** Resets VmHWM to the current RSS (Linux clear_refs "5"); false where the kernel does not allow it. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples a process's RSS while a measurement runs; VmHWM alone cannot tell one phase from another. */
export class RssSampler {
  private maxMb = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    everyMs = 100,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), everyMs);
  }

  private sample(): void {
    try {
      this.maxMb = Math.max(this.maxMb, readMemory(this.pid).rssMb);
    } catch {
      // the process is gone; the caller finds out on its own
    }
  }

  stop(): number {
    clearInterval(this.timer);
    this.sample();
    return this.maxMb;
  }
}

export interface Running {
  url: string;
  pid: number;
  /** From spawn to the first healthy answer. */
  startupMs: number;
  output(): string;
  stop(): Promise<number | null>;
}

const OUTPUT_KEEP = 64 * 1024;

/**
 * Starts `command` with REG_PORT/BENCH_PORT set to a free port and waits until GET /healthz answers 200.
 * Output is kept (the last 64 KiB) for error messages, and always drained so the child never blocks.
 */
export async function startProcess(
  command: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs = 120_000,
): Promise<Running> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    cwd,
    env: { ...process.env, ...env, REG_PORT: String(port), REG_HOST: '127.0.0.1', BENCH_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-OUTPUT_KEEP);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `${command.join(' ')} exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${log}`,
      );
    }
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${command.join(' ')} was not healthy within ${timeoutMs} ms:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const startupMs = performance.now() - started;
  return {
    url,
    pid: child.pid!,
    startupMs,
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = once(child, 'exit') as Promise<[number | null]>;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const [code] = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
