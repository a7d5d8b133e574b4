import { createLogger } from '../../src/log/logger.js';
import { SessionsResumedAhead, type AheadHost } from '../../src/agents/acp/resumed-ahead.js';
import type { NewAgentSession } from '../../src/agents/acp/spare-session.js';
import type { BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';

const LOOKUP = { name: 'lookup', description: 'Looks a tag up' };

interface Session extends NewAgentSession {
  readonly tools: readonly string[];
}

/** A host whose resumes answer when the test says so, in the order they were asked. */
class Host implements AheadHost<Session> {
  readonly name = 'agent';
  readonly log = createLogger('error');
  readonly asked: string[] = [];
  readonly closed: string[] = [];
  private readonly answers = new Map<string, () => void>();
  room = 8;

  resume(conversationId: string, agentSession: string, tools: BridgedToolsServer): Promise<Session> {
    this.asked.push(conversationId);
    return new Promise((resolve) => this.answers.set(conversationId, () => resolve({ sessionId: agentSession, tools: tools.toolNames, alive: () => true, close: () => this.closed.push(agentSession) })));
  }
  hold() {
    if (this.room === 0) return undefined;
    this.room--;
    return { free: () => this.room++ };
  }
  toolCallOutsideTurns() {
    return Promise.resolve({ content: [] });
  }
  /** The agent answers the resume of `conversationId`. */
  answer(conversationId: string): void {
    this.answers.get(conversationId)?.();
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('resumes go one after the other, latest first, each with the tools last offered', async () => {
  const host = new Host();
  const ahead = new SessionsResumedAhead(host);
  expect(ahead.resume('latest', 's1', [LOOKUP])).toBe(true);
  expect(ahead.resume('older', 's2', [LOOKUP])).toBe(true);
  expect(ahead.resume('latest', 's1', [LOOKUP])).toBe(false);
  await tick();
  await tick();
  expect(host.asked).toEqual(['latest']);
  host.answer('latest');
  const taken = await ahead.take('latest', [LOOKUP], () => Promise.resolve({ content: [] }));
  expect((await taken!.session)?.tools).toEqual(['lookup']);
  await tick();
  expect(host.asked).toEqual(['latest', 'older']);
  host.answer('older');
  await ahead.settled();
  ahead.drop();
  await taken!.tools.close();
  expect(host.closed).toEqual(['s2']);
  expect(host.room).toBe(8);
});

test("a conversation prompting in its session holds back the resumes not yet begun, until its prompt ends", async () => {
  const host = new Host();
  const ahead = new SessionsResumedAhead(host);
  ahead.resume('first', 's1', []);
  ahead.resume('second', 's2', []);
  ahead.resume('third', 's3', []);
  await tick();
  host.answer('first');
  const taken = await ahead.take('first', [], () => Promise.resolve({ content: [] }));
  await taken!.session;
  let ended: () => void = () => {};
  ahead.quietWhile(new Promise((resolve) => (ended = resolve)));
  await tick();
  await tick();
  // The second was already waiting on the first only: it goes; the third waits for the prompt.
  host.answer('second');
  await tick();
  await tick();
  expect(host.asked).toEqual(['first', 'second']);
  ended();
  for (let i = 0; i < 5; i++) await tick();
  expect(host.asked).toEqual(['first', 'second', 'third']);
  host.answer('third');
  await ahead.settled();
  ahead.drop();
  await taken!.tools.close();
});

test('a resume dropped while it waits is never asked; no room in the pool, none is queued', async () => {
  const host = new Host();
  host.room = 1;
  const ahead = new SessionsResumedAhead(host);
  expect(ahead.resume('first', 's1', [])).toBe(true);
  expect(ahead.resume('second', 's2', [])).toBe(false);
  ahead.drop('first');
  await ahead.settled();
  expect(host.asked).toEqual([]);
  expect(host.room).toBe(1);
});
