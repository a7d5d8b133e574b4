import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/log/logger.js';
import { OfferedToolsStore } from '../../src/state/offered-tools.js';
import type { ToolDefinition } from '../../src/protocol/messages.js';
import { LOOKUP } from '../fixtures/tools.js';

const CLOCK: ToolDefinition = { name: 'clock', description: 'Tells the time' };

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'symposium-offered-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const files = (): string[] => readdirSync(path.join(dir, 'offered-tools'));

test('the tools last offered an agent in a workspace outlive the bridge; per agent and per folder', () => {
  const log = createLogger('error');
  const before = new OfferedToolsStore(dir, log);
  before.remember('agent-1', '/work/a', [LOOKUP]);
  before.remember('agent-1', '/work/a', [LOOKUP, CLOCK]);
  before.remember('agent-1', '/work/b', [CLOCK]);
  const after = new OfferedToolsStore(dir, log);
  expect(after.last('agent-1', '/work/a')).toEqual([LOOKUP, CLOCK]);
  expect(after.last('agent-1', '/work/b')).toEqual([CLOCK]);
  expect(after.last('agent-2', '/work/a')).toEqual([]);
  expect(files()).toHaveLength(2);
});

test("the tools last offered an agent in any workspace, another window's, are known in memory to this process only", () => {
  const log = createLogger('error');
  const store = new OfferedToolsStore(undefined, log);
  expect(store.lastAnywhere('agent-1')).toBeUndefined();
  store.remember('agent-1', '/work/a', [LOOKUP]);
  store.remember('agent-1', '/work/b', [CLOCK]);
  expect(store.lastAnywhere('agent-1')).toEqual([CLOCK]);
  expect(store.lastAnywhere('agent-2')).toBeUndefined();
  expect(new OfferedToolsStore(undefined, log).lastAnywhere('agent-1')).toBeUndefined();
});

test('an unreadable file, or none, gives no tools; without a state dir nothing is kept', () => {
  const log = createLogger('error');
  const store = new OfferedToolsStore(dir, log);
  store.remember('agent-1', '/work/a', [LOOKUP]);
  for (const file of files()) writeFileSync(path.join(dir, 'offered-tools', file), '{"tools": [{"nam');
  expect(store.last('agent-1', '/work/a')).toEqual([]);
  const memoryOnly = new OfferedToolsStore(undefined, log);
  memoryOnly.remember('agent-1', '/work/a', [LOOKUP]);
  expect(memoryOnly.last('agent-1', '/work/a')).toEqual([]);
});

test('a list far larger than any consumer offers is not kept', () => {
  const store = new OfferedToolsStore(dir, createLogger('error'));
  const huge: ToolDefinition = { name: 'huge', description: 'x'.repeat(5 * 1024 * 1024) };
  store.remember('agent-1', '/work/a', [huge]);
  expect(store.last('agent-1', '/work/a')).toEqual([]);
});
