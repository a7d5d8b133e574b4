import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConversationStore, STATE_FILE_NAME } from '../../src/state/conversation-store.js';
import { createLogger } from '../../src/log/logger.js';

const warnings: string[] = [];
const log = { ...createLogger('error', () => {}), warn: (m: string) => void warnings.push(m) };

describe('ConversationStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'symposium-store-'));
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('what one bridge remembered, the next one finds in the same folder', () => {
    const first = new ConversationStore(dir, log);
    first.rememberLink('conv-1', 'link-a');
    first.rememberAgentSession('conv-1', 'agent', 'acp-1', '/work');
    first.flush();
    const second = new ConversationStore(dir, log);
    expect(second.conversationAt('link-a')).toBe('conv-1');
    expect(second.agentSessionOf('conv-1', 'agent')).toBe('acp-1');
  });

  test('the conversations used lately in a workspace, latest first, with sessions still theirs', () => {
    const first = new ConversationStore(dir, log);
    first.rememberAgentSession('old', 'agent', 's0', '/work');
    // The next millisecond: what follows is later than 'old'.
    const since = Date.now() + 1;
    while (Date.now() < since);
    first.rememberAgentSession('a', 'agent', 's1', '/work');
    first.rememberAgentSession('elsewhere', 'agent', 's2', '/other');
    first.rememberAgentSession('b', 'other-agent', 's3', '/work');
    first.rememberLink('no-session', 'link-x');
    first.rememberAgentSession('c', 'agent', 's4', '/work');
    // An id the agent handed out again belongs to the conversation that got it last.
    first.rememberAgentSession('d', 'agent', 's1', '/work');
    first.flush();
    const second = new ConversationStore(dir, log);
    expect(second.recentAgentSessions('/work', since)).toEqual([
      { conversationId: 'd', agent: 'agent', agentSession: 's1', usedAt: expect.any(Number) },
      { conversationId: 'c', agent: 'agent', agentSession: 's4', usedAt: expect.any(Number) },
      { conversationId: 'b', agent: 'other-agent', agentSession: 's3', usedAt: expect.any(Number) },
    ]);
    expect(second.recentAgentSessions('/work', 0).map((r) => r.conversationId)).toEqual(['d', 'c', 'b', 'old']);
  });

  test('the agent used last in any folder, within the time asked, across a restart', () => {
    const first = new ConversationStore(dir, log);
    expect(first.lastUsedAgent(0)).toBeUndefined();
    first.rememberAgentSession('a', 'claude', 's1', '/work');
    first.rememberAgentSession('b', 'codex', 's2', '/elsewhere');
    first.rememberTitle('c', 'no session yet');
    first.flush();
    const second = new ConversationStore(dir, log);
    expect(second.lastUsedAgent(0)).toBe('codex');
    expect(second.lastUsedAgent(Date.now() + 1000)).toBeUndefined();
  });

  test("a conversation's title is its first words, kept once, across a restart, with when it was used", () => {
    const first = new ConversationStore(dir, log);
    first.rememberTitle('a', 'fix the parser');
    first.rememberAgentSession('a', 'agent', 's1', '/work');
    first.rememberTitle('a', 'later words');
    first.rememberAgentSession('b', 'agent', 's2', '/work');
    first.flush();
    const second = new ConversationStore(dir, log);
    const recent = second.recentAgentSessions('/work', 0);
    expect(recent.map(({ conversationId, title }) => ({ conversationId, title }))).toEqual([{ conversationId: 'b', title: undefined }, { conversationId: 'a', title: 'fix the parser' }]);
    expect(recent[0]!.usedAt).toBeGreaterThanOrEqual(recent[1]!.usedAt);
  });

  test('the writes while requests come in are made durable by the write at exit, even with nothing new', async () => {
    const store = new ConversationStore(dir, log);
    store.rememberLink('conv-1', 'link-a');
    const file = path.join(dir, STATE_FILE_NAME);
    for (let waited = 0; waited < 5000; waited += 50) {
      try {
        statSync(file);
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const periodic = statSync(file).ino;
    // Nothing changed since: the exit still writes the file anew, through to the disk.
    store.flush();
    expect(statSync(file).ino).not.toBe(periodic);
    expect(new ConversationStore(dir, log).conversationAt('link-a')).toBe('conv-1');
    const again = statSync(file).ino;
    store.flush();
    expect(statSync(file).ino).toBe(again);
  });

  test("only a conversation's latest link finds it", () => {
    const store = new ConversationStore(undefined, log);
    store.rememberLink('conv-1', 'link-a');
    store.rememberLink('conv-1', 'link-b');
    expect(store.conversationAt('link-a')).toBeUndefined();
    expect(store.conversationAt('link-b')).toBe('conv-1');
  });

  test('beyond its capacity the least recently used conversation goes', () => {
    const store = new ConversationStore(undefined, log, 2);
    store.rememberLink('one', 'l1');
    store.rememberLink('two', 'l2');
    store.rememberAgentSession('one', 'agent', 's1', '/work'); // one is now the most recently used
    store.rememberLink('three', 'l3');
    expect(store.conversationAt('l2')).toBeUndefined();
    expect(store.conversationAt('l1')).toBe('one');
    expect(store.conversationAt('l3')).toBe('three');
  });

  test('a forgotten agent session is not resumed, but the conversation is still found', () => {
    const store = new ConversationStore(dir, log);
    store.rememberLink('conv-1', 'link-a');
    store.rememberAgentSession('conv-1', 'agent', 'acp-1', '/work');
    store.forgetAgentSession('conv-1');
    store.flush();
    const reopened = new ConversationStore(dir, log);
    expect(reopened.agentSessionOf('conv-1', 'agent')).toBeUndefined();
    expect(reopened.conversationAt('link-a')).toBe('conv-1');
  });

  test("two bridges sharing the folder keep each other's conversations", () => {
    const a = new ConversationStore(dir, log);
    const b = new ConversationStore(dir, log);
    a.rememberLink('from-a', 'la');
    a.flush();
    b.rememberLink('from-b', 'lb');
    b.flush();
    const later = new ConversationStore(dir, log);
    expect(later.conversationAt('la')).toBe('from-a');
    expect(later.conversationAt('lb')).toBe('from-b');
  });

  test('an unreadable entry is reported and the bridge starts without it', () => {
    writeFileSync(path.join(dir, STATE_FILE_NAME), '{"version": 1, "conversations": [{"id": 3}]}');
    const store = new ConversationStore(dir, log);
    expect(store.conversationAt('anything')).toBeUndefined();
    expect(warnings.join('\n')).toMatch(/1 unreadable entries of 1 \(conversations\[0\]\)/);
    store.rememberLink('conv-1', 'l1');
    store.flush();
    expect(JSON.parse(readFileSync(path.join(dir, STATE_FILE_NAME), 'utf8')).conversations).toHaveLength(1);
  });
});
