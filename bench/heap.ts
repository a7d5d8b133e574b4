/**
 * The used JavaScript heap of another Node process after a garbage collection: what it holds, not what it has
 * yet to collect. The process must run with `heapReportOptions(dir)` in its NODE_OPTIONS.
 */
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** NODE_OPTIONS for a process whose heap `usedHeapBytes` reads: a report on SIGUSR2, a heap snapshot on SIGWINCH, both into `dir`. */
export function heapReportOptions(dir: string): string {
  return `--report-on-signal --report-signal=SIGUSR2 --report-compact --report-directory=${dir} --heapsnapshot-signal=SIGWINCH --diagnostic-dir=${dir}`;
}

/** The used heap of process `pid`, from a Node report written into `dir`; NaN if none came. */
export async function usedHeapBytes(pid: number, dir: string): Promise<number> {
  // A heap snapshot collects garbage first: taken (and thrown away) so that the report shows what is held.
  const snapshots = new Set(readdirSync(dir));
  process.kill(pid, 'SIGWINCH');
  let snapshot: string | undefined;
  for (let waited = 0, size = -1; waited < 30_000; waited += 100) {
    await sleep(100);
    snapshot ??= readdirSync(dir).find((name) => !snapshots.has(name) && name.endsWith('.heapsnapshot'));
    if (snapshot === undefined) continue;
    const now = statSync(path.join(dir, snapshot)).size;
    if (now === size && now > 0) break;
    size = now;
  }
  if (snapshot !== undefined) rmSync(path.join(dir, snapshot));
  const known = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  let report: string | undefined;
  for (let waited = 0; waited < 10_000 && report === undefined; waited += 50) {
    await sleep(50);
    report = readdirSync(dir).find((name) => !known.has(name) && name.endsWith('.json'));
  }
  // The report is written synchronously, but may be seen before it is complete: read until it parses.
  for (let tries = 0; report !== undefined && tries < 100; tries++) {
    try {
      const used = (JSON.parse(readFileSync(path.join(dir, report), 'utf8')) as { javascriptHeap: { usedMemory: number } }).javascriptHeap.usedMemory;
      rmSync(path.join(dir, report));
      return used;
    } catch {
      await sleep(50);
    }
  }
  return NaN;
}
