/**
 * The index of conversations (issue 17, points 8–10): `conversations.json` in the state dir is never lost.
 * A bad entry, a truncated file or a file of another version costs only what cannot be read, and the file
 * is kept aside; two bridges on one state dir never lose each other's entries; nothing planted at a
 * temporary file's name is followed, and no temporary file is left behind.
 * The two-bridge test runs the BUILT store in two processes (`npx tsc -p .` first).
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from '../../src/log/logger.js';
import { ConversationStore, STATE_FILE_NAME } from '../../src/state/conversation-store.js';

const STORE = pathToFileURL(path.resolve('dist/src/state/conversation-store.js')).href;
const LOG = pathToFileURL(path.resolve('dist/src/log/logger.js')).href;
const log = createLogger('error', () => {});

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'symposium-index-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = () => path.join(dir, STATE_FILE_NAME);
const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `conv-${i}`, at: 1000 + i, link: `link-${i}`, agentSession: `s-${i}` }));
const asideFiles = () => readdirSync(dir).filter((name) => name.startsWith(`${STATE_FILE_NAME}.unreadable-`));
const stored = () => (JSON.parse(readFileSync(file(), 'utf8')) as { conversations: { id: string }[] }).conversations.map((c) => c.id);

describe('a damaged index keeps what is readable, and the file aside', () => {
  test('one bad entry among 50: the other 49 are kept', () => {
    const all: unknown[] = entries(50);
    all[17] = { id: 17, at: 'yesterday' };
    const original = JSON.stringify({ version: 1, conversations: all });
    writeFileSync(file(), original);
    const store = new ConversationStore(dir, log);
    expect(store.conversationAt('link-3')).toBe('conv-3');
    expect(store.conversationAt('link-49')).toBe('conv-49');
    store.rememberLink('new', 'link-new');
    store.flush();
    expect(stored()).toHaveLength(50);
    expect(asideFiles().map((name) => readFileSync(path.join(dir, name), 'utf8'))).toEqual([original]);
  });

  test('a truncated file: the entries before the cut are kept', () => {
    const original = JSON.stringify({ version: 1, conversations: entries(50) });
    writeFileSync(file(), original.slice(0, Math.floor(original.length * 0.6)));
    const store = new ConversationStore(dir, log);
    expect(store.conversationAt('link-0')).toBe('conv-0');
    expect(store.conversationAt('link-25')).toBe('conv-25');
    store.rememberLink('new', 'link-new');
    store.flush();
    expect(stored().length).toBeGreaterThan(25);
    expect(asideFiles()).toHaveLength(1);
  });

  test('a file of another version: its readable entries are kept, and so is the file', () => {
    const original = JSON.stringify({ version: 2, conversations: entries(50), more: 'from a newer bridge' });
    writeFileSync(file(), original);
    const store = new ConversationStore(dir, log);
    expect(store.conversationAt('link-42')).toBe('conv-42');
    store.rememberLink('new', 'link-new');
    store.flush();
    expect(stored()).toHaveLength(51);
    expect(asideFiles().map((name) => readFileSync(path.join(dir, name), 'utf8'))).toEqual([original]);
  });
});

/** A bridge's store in its own process: remembers `count` conversations of its own, writing after each. */
function writer(name: string, count: number): Promise<number | null> {
  const script = `
    const { ConversationStore } = await import(${JSON.stringify(STORE)});
    const { createLogger } = await import(${JSON.stringify(LOG)});
    const store = new ConversationStore(${JSON.stringify(dir)}, createLogger('error'));
    for (let i = 0; i < ${count}; i++) {
      store.rememberLink('${name}-' + i, '${name}-link-' + i);
      store.flush();
    }
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
  return new Promise((resolve) => child.once('exit', resolve));
}

test('two bridges writing one state dir at once lose none of each other’s entries (10 rounds)', async () => {
  for (let round = 0; round < 10; round++) {
    rmSync(file(), { force: true });
    expect(await Promise.all([writer('a', 20), writer('b', 20)])).toEqual([0, 0]);
    expect(new Set(stored()).size).toBe(40);
  }
}, 60000);

test('a symlink planted at a temporary file name is not followed, and no temporary file is left', () => {
  const target = path.join(dir, 'precious.txt');
  writeFileSync(target, 'do not overwrite');
  // The old name, and a few more guesses of the same kind.
  const planted = [`${file()}.${process.pid}.tmp`, `${file()}.tmp`, `${file()}.${process.pid}`];
  for (const name of planted) symlinkSync(target, name);
  const store = new ConversationStore(dir, log);
  store.rememberLink('conv', 'link');
  store.flush();
  expect(readFileSync(target, 'utf8')).toBe('do not overwrite');
  for (const name of planted) expect(lstatSync(name).isSymbolicLink()).toBe(true);
  expect(stored()).toEqual(['conv']);
  const stray = readdirSync(dir).filter((name) => !['precious.txt', STATE_FILE_NAME, ...planted.map((p) => path.basename(p))].includes(name));
  expect(stray).toEqual([]);
  expect(existsSync(`${file()}.lock`)).toBe(false);
});
