import { createLogger } from '../../src/log/logger.js';
import { SessionsResumedAhead, type AheadHost } from '../../src/agents/acp/resumed-ahead.js';
import { ResumeSchedule } from '../../src/agents/acp/resume-schedule.js';
import type { NewAgentSession } from '../../src/agents/acp/spare-session.js';
import type { BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import { waitUntil } from '../fixtures/wait-until.js';

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

const noCall = () => Promise.resolve({ content: [] });
/** A first prompt in a taken session that has ended already. */
const prompted = () => Promise.resolve();
const ticks = async (n: number) => {
  for (let i = 0; i < n; i++) await tick();
};
/**
 * Until the agent was asked to resume exactly `expected`: a resume that may begin waits for its tool server to
 * listen and for timers (the reading, even of 0 ms), which take a varying number of turns of the event loop.
 */
const askedUntil = async (host: Host, expected: readonly string[]) => {
  await waitUntil(() => host.asked.length >= expected.length, 5_000, 5);
  expect(host.asked).toEqual(expected);
};

test('resumes go one after the other, latest first, each with the tools last offered', async () => {
  const host = new Host();
  const ahead = new SessionsResumedAhead(host, new ResumeSchedule(0));
  expect(ahead.resume('latest', 's1', [LOOKUP])).toBe(true);
  expect(ahead.resume('older', 's2', [LOOKUP])).toBe(true);
  expect(ahead.resume('latest', 's1', [LOOKUP])).toBe(false);
  await askedUntil(host, ['latest']);
  host.answer('latest');
  const taken = await ahead.take('latest', [LOOKUP], noCall, prompted);
  expect((await taken!.session)?.tools).toEqual(['lookup']);
  await askedUntil(host, ['latest', 'older']);
  host.answer('older');
  await ahead.settled();
  await ahead.drop();
  await taken!.tools.close();
  expect(host.closed).toEqual(['s2']);
  expect(host.room).toBe(8);
});

test('a conversation that takes its session holds back the resumes not yet begun from the take on, until its first prompt ends', async () => {
  const host = new Host();
  const ahead = new SessionsResumedAhead(host, new ResumeSchedule(0));
  ahead.resume('first', 's1', []);
  ahead.resume('second', 's2', []);
  ahead.resume('third', 's3', []);
  await tick();
  let ended: () => void = () => {};
  // Its turn takes the session while the agent still resumes it: nothing may begin between the take and the prompt.
  const taking = ahead.take('first', [], noCall, () => new Promise((resolve) => (ended = resolve)));
  host.answer('first');
  const taken = await taking;
  await taken!.session;
  await ticks(5);
  expect(host.asked).toEqual(['first']);
  let spareMay = false;
  void ahead.settled().then(() => (spareMay = true));
  ended();
  await askedUntil(host, ['first', 'second']);
  host.answer('second');
  await askedUntil(host, ['first', 'second', 'third']);
  expect(spareMay).toBe(false);
  host.answer('third');
  await ahead.settled();
  await ahead.drop();
  await taken!.tools.close();
});

test("after the latest conversation's resume, the others and the spare wait for the person's reading; one taken meanwhile begins at once", async () => {
  const host = new Host();
  // Longer than the test: the reading never ends here.
  const ahead = new SessionsResumedAhead(host, new ResumeSchedule(60_000));
  ahead.resume('latest', 's1', []);
  ahead.resume('older', 's2', []);
  ahead.resume('oldest', 's3', []);
  await tick();
  host.answer('latest');
  let spareMay = false;
  void ahead.settled().then(() => (spareMay = true));
  await ticks(10);
  expect(host.asked).toEqual(['latest']);
  // The person went to the oldest chat instead: its resume goes now, ahead of the one before it.
  const taken = await ahead.take('oldest', [], noCall, prompted);
  await askedUntil(host, ['latest', 'oldest']);
  host.answer('oldest');
  expect((await taken!.session)?.sessionId).toBe('s3');
  await ticks(5);
  expect(host.asked).toEqual(['latest', 'oldest']);
  expect(spareMay).toBe(false);
  await ahead.drop();
  await taken!.tools.close();
  expect(host.closed).toEqual(['s1']);
  expect(host.room).toBe(8);
});

test('a resume dropped while it waits is never asked; no room in the pool, none is queued', async () => {
  const host = new Host();
  host.room = 1;
  const ahead = new SessionsResumedAhead(host, new ResumeSchedule(0));
  expect(ahead.resume('first', 's1', [])).toBe(true);
  expect(ahead.resume('second', 's2', [])).toBe(false);
  await ahead.drop('first');
  await ahead.settled();
  expect(host.asked).toEqual([]);
  expect(host.room).toBe(1);
});

test("two processes of one agent keep one schedule: the other's first resume waits for the latest's and the reading", async () => {
  const own = new Host();
  const shellOff = new Host();
  // Longer than the test: the reading never ends here.
  const schedule = new ResumeSchedule(60_000);
  const inShellOff = new SessionsResumedAhead(shellOff, schedule);
  const inOwn = new SessionsResumedAhead(own, schedule);
  inShellOff.resume('latest', 's1', []);
  inOwn.resume('older', 's2', []);
  await askedUntil(shellOff, ['latest']);
  shellOff.answer('latest');
  await ticks(10);
  expect(own.asked).toEqual([]);
  // The person went to the older chat: it resumes at once, in its own process.
  const taken = await inOwn.take('older', [], noCall, prompted);
  await askedUntil(own, ['older']);
  own.answer('older');
  await taken!.session;
  await inShellOff.drop();
  await inOwn.drop();
  await taken!.tools.close();
});
