/**
 * Ending a process tree on Windows, by the bridge itself: it reads the process table (each process's id and its
 * parent's), then ends the agent's descendants, children before their parents, and the agent last.
 *
 * Why not `taskkill /T /F` (tree-kill): Wine's taskkill refuses /T ("Unknown or invalid command line option"), so a
 * run under Wine could never show it works. Why not the job object libuv puts every child in: libuv's job allows
 * silent breakaway (JOB_OBJECT_LIMIT_SILENT_BREAKAWAY_OK), so a process started by a child that is not Node itself
 * (cmd.exe running `npx.cmd` or an npm `.cmd` shim) is in no job, and outlives both the bridge and the cmd.exe that
 * started it (measured under Wine; Microsoft documents the flag so).
 *
 * The table comes from `wmic` (every Windows up to 11 23H2, and Wine), else from PowerShell's `Get-CimInstance`
 * (Windows 11 24H2 and later, where wmic is an optional feature). Both run synchronously, so a tree can be ended from
 * an 'exit' handler too. A process orphaned before the walk (its parent already gone) is not found by it.
 */
import { spawnSync } from 'node:child_process';

export interface ProcessRow {
  readonly pid: number;
  readonly ppid: number;
}

const TABLE_TIMEOUT_MS = 10_000;

/**
 * The rows of a table whose header names `ProcessId` and `ParentProcessId` (in any order and case, as wmic sorts its
 * columns), its fields separated by blanks (wmic) or commas with quotes (PowerShell's ConvertTo-Csv).
 */
export function parseProcessTable(text: string): ProcessRow[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((line) => line.trim() !== '');
  const headerAt = lines.findIndex((line) => /parentprocessid/i.test(line));
  if (headerAt < 0) return [];
  const headerLine = lines[headerAt]!.toLowerCase();
  const csv = headerLine.includes(',');
  const split = (line: string) => (csv ? line.split(',').map((field) => field.trim().replace(/^"(.*)"$/, '$1')) : line.trim().split(/\s+/));
  // Wine's wmic runs the header's names together ("ParentProcessIDProcessID"): their order is what counts.
  const names = csv ? split(headerLine) : (headerLine.match(/parentprocessid|processid/g) ?? []);
  const pidAt = names.indexOf('processid');
  const ppidAt = names.indexOf('parentprocessid');
  if (pidAt < 0 || ppidAt < 0) return [];
  const rows: ProcessRow[] = [];
  for (const line of lines.slice(headerAt + 1)) {
    const fields = split(line);
    const pid = Number(fields[pidAt]);
    const ppid = Number(fields[ppidAt]);
    if (/^\d+$/.test(fields[pidAt] ?? '') && /^\d+$/.test(fields[ppidAt] ?? '')) rows.push({ pid, ppid });
  }
  return rows;
}

/** wmic writes UTF-16 (with a byte order mark) to a pipe under Wine and when redirected, else the console's code page. */
export function decodeTableOutput(bytes: Buffer): string {
  const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes.length > 1 && bytes[1] === 0 && bytes[0] !== 0);
  return bytes.toString(utf16 ? 'utf16le' : 'utf8');
}

/** `root`'s tree in the order to end it: the deepest descendants first, `root` last. */
export function treeOrder(rows: readonly ProcessRow[], root: number): number[] {
  const children = new Map<number, number[]>();
  for (const { pid, ppid } of rows) if (pid !== ppid) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const order: number[] = [];
  const seen = new Set<number>([root]);
  const visit = (pid: number): void => {
    for (const child of children.get(pid) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      visit(child);
    }
    order.push(pid);
  };
  visit(root);
  return order;
}

/** Runs a command that prints a process table; its rows, or undefined when it could not run or printed none. */
export type TableReader = (command: string, args: readonly string[]) => ProcessRow[] | undefined;

export const readTable: TableReader = (command, args) => {
  const result = spawnSync(command, [...args], { windowsHide: true, timeout: TABLE_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'ignore'] });
  if (result.error !== undefined || result.status !== 0) return undefined;
  const rows = parseProcessTable(decodeTableOutput(result.stdout));
  return rows.length === 0 ? undefined : rows;
};

/** The commands tried in turn for the table. */
export const TABLE_SOURCES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['wmic', ['process', 'get', 'ParentProcessId,ProcessId']],
  ['powershell', ['-NoProfile', '-NonInteractive', '-Command', 'Get-CimInstance Win32_Process | Select-Object ProcessId,ParentProcessId | ConvertTo-Csv -NoTypeInformation']],
];

/**
 * Ends `root` and its descendants, children first; with no table to read, `root` alone. `kill` is
 * `process.kill` (TerminateProcess on Windows); a process already gone is passed over.
 */
export function endWindowsTree(root: number, kill: (pid: number) => void, read: TableReader = readTable): void {
  let rows: ProcessRow[] | undefined;
  for (const [command, args] of TABLE_SOURCES) {
    rows = read(command, args);
    if (rows !== undefined) break;
  }
  for (const pid of rows === undefined ? [root] : treeOrder(rows, root)) {
    try {
      kill(pid);
    } catch {
      // Gone already.
    }
  }
}
