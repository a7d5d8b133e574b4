/**
 * Ending a process tree on Windows (`src/agents/acp/process/windows-tree.ts`): the process table as wmic (on Windows and
 * under Wine) and PowerShell print it, and the order in which the bridge ends a tree. Pure: the table and the kills are
 * handed in, so this runs on every platform; `npm run test:windows` runs it against real processes under Wine.
 */
import { decodeTableOutput, endWindowsTree, parseProcessTable, treeOrder, TABLE_SOURCES, type ProcessRow } from '../../src/agents/acp/process/windows-tree.js';

/** Windows' wmic: columns in alphabetical order, padded with blanks, in the console's code page. */
const WMIC_WINDOWS = 'ParentProcessId  ProcessId  \r\r\n0                0          \r\r\n4                1208       \r\r\n1208             1300       \r\r\n\r\r\n';
/** Wine 8.0's wmic, as it wrote it to a pipe: UTF-16 with a byte order mark, the header's names run together. */
const WMIC_WINE = Buffer.from('\uFEFFParentProcessIDProcessID\r\n0     32    \r\n1496  1332  \r\n1332  1212  \r\n', 'utf16le');
/** PowerShell's ConvertTo-Csv. */
const POWERSHELL = '"ProcessId","ParentProcessId"\r\n"0","0"\r\n"1332","1496"\r\n"1212","1332"\r\n';

describe('the process table', () => {
  test("Windows' wmic (blank-separated, ParentProcessId first)", () => {
    expect(parseProcessTable(decodeTableOutput(Buffer.from(WMIC_WINDOWS, 'latin1')))).toEqual([
      { pid: 0, ppid: 0 },
      { pid: 1208, ppid: 4 },
      { pid: 1300, ppid: 1208 },
    ]);
  });

  test("Wine's wmic: UTF-16 on a pipe, and a header without blanks between its names", () => {
    expect(parseProcessTable(decodeTableOutput(WMIC_WINE))).toEqual([
      { pid: 32, ppid: 0 },
      { pid: 1332, ppid: 1496 },
      { pid: 1212, ppid: 1332 },
    ]);
  });

  test("PowerShell's CSV, ProcessId first", () => {
    expect(parseProcessTable(decodeTableOutput(Buffer.from(POWERSHELL)))).toEqual([
      { pid: 0, ppid: 0 },
      { pid: 1332, ppid: 1496 },
      { pid: 1212, ppid: 1332 },
    ]);
  });

  test('an answer that is no table (an error, a stub that prints nothing) has no rows', () => {
    expect(parseProcessTable('')).toEqual([]);
    expect(parseProcessTable('Error: Invalid query\r\n')).toEqual([]);
    expect(parseProcessTable('Name  ProcessId\r\nnode.exe  12\r\n')).toEqual([]);
  });

  test('wmic first, then PowerShell', () => {
    expect(TABLE_SOURCES.map(([command]) => command)).toEqual(['wmic', 'powershell']);
  });
});

describe('the order a tree is ended in', () => {
  // 10 the agent (cmd.exe of npx.cmd) → 11 npx's node → 12 cmd.exe of the agent's shim → 13 the agent's node → 14 its child;
  // 20 is another agent; 30 a process whose parent 31 is gone.
  const rows: ProcessRow[] = [
    { pid: 1, ppid: 0 },
    { pid: 10, ppid: 1 },
    { pid: 11, ppid: 10 },
    { pid: 12, ppid: 11 },
    { pid: 13, ppid: 12 },
    { pid: 14, ppid: 13 },
    { pid: 15, ppid: 11 },
    { pid: 20, ppid: 1 },
    { pid: 30, ppid: 31 },
  ];

  test('every descendant before its parent, the root last, nothing outside the tree', () => {
    const order = treeOrder(rows, 10);
    expect(order).toEqual([14, 13, 12, 15, 11, 10]);
  });

  test('a root without children is the whole tree', () => {
    expect(treeOrder(rows, 20)).toEqual([20]);
    expect(treeOrder([], 7)).toEqual([7]);
  });

  test('a loop in the table (a reused pid) ends each process once', () => {
    expect(treeOrder([{ pid: 5, ppid: 6 }, { pid: 6, ppid: 5 }, { pid: 7, ppid: 7 }], 5)).toEqual([6, 5]);
  });
});

describe('ending a tree', () => {
  test('the first source that answers gives the table; each process is ended, children first; one already gone is passed over', () => {
    const killed: number[] = [];
    const asked: string[] = [];
    endWindowsTree(
      10,
      (pid) => {
        if (pid === 11) throw Object.assign(new Error('ESRCH'), { code: 'ESRCH' });
        killed.push(pid);
      },
      (command) => {
        asked.push(command);
        return command === 'wmic' ? undefined : [{ pid: 11, ppid: 10 }, { pid: 12, ppid: 11 }];
      },
    );
    expect(asked).toEqual(['wmic', 'powershell']);
    expect(killed).toEqual([12, 10]);
  });

  test('with no table to read, the root alone is ended', () => {
    const killed: number[] = [];
    endWindowsTree(10, (pid) => killed.push(pid), () => undefined);
    expect(killed).toEqual([10]);
  });
});
