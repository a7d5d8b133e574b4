import { jest } from '@jest/globals';
import { Subject, type Observable } from 'rxjs';
import type { AgentSession, TurnInput } from '../../src/agents/agent-stream.js';
import { SessionPool } from '../../src/agents/registry/session-pool.js';
import type { ResponsePart } from '../../src/protocol/messages.js';

const INPUT: TurnInput = { newMessages: [], history: [], canceled: false, askedKept: false, tools: [], config: {}, mode: 'agent', turnKey: 'k', goesBack: undefined };

/** Agent sessions that record their opening and closing; each turn runs until its subject completes. */
class Agent {
  readonly events: string[] = [];
  readonly turns: Subject<ResponsePart>[] = [];
  private next = 1;
  open = (name: string) => (): AgentSession => {
    const id = `${name}#${this.next++}`;
    this.events.push(`open ${id}`);
    return {
      turn: (): Observable<ResponsePart> => {
        const turn = new Subject<ResponsePart>();
        this.turns.push(turn);
        return turn;
      },
      close: () => this.events.push(`close ${id}`),
    };
  };
}

describe('SessionPool', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('an agent session unused for idleMs closes; the next turn opens another', () => {
    const agent = new Agent();
    const pool = new SessionPool({ idleMs: 1000, maxOpen: 8 });
    const session = pool.session('k', agent.open('a'));
    session.turn(INPUT).subscribe();
    agent.turns[0].complete();
    jest.advanceTimersByTime(999);
    expect(agent.events).toEqual(['open a#1']);
    jest.advanceTimersByTime(1);
    expect(agent.events).toEqual(['open a#1', 'close a#1']);
    session.turn(INPUT).subscribe();
    expect(agent.events).toEqual(['open a#1', 'close a#1', 'open a#2']);
  });

  test('a session is not closed while a turn runs, however long', () => {
    const agent = new Agent();
    const pool = new SessionPool({ idleMs: 1000, maxOpen: 8 });
    pool.session('k', agent.open('a')).turn(INPUT).subscribe();
    jest.advanceTimersByTime(60_000);
    expect(agent.events).toEqual(['open a#1']);
  });

  test('beyond maxOpen, the least recently used idle session closes; busy ones stay', () => {
    const agent = new Agent();
    const pool = new SessionPool({ idleMs: 60_000, maxOpen: 2 });
    const a = pool.session('k', agent.open('a'));
    const b = pool.session('k', agent.open('b'));
    const c = pool.session('k', agent.open('c'));
    a.turn(INPUT).subscribe(); // a stays busy
    b.turn(INPUT).subscribe();
    agent.turns[1].complete(); // b is idle
    c.turn(INPUT).subscribe();
    expect(agent.events).toEqual(['open a#1', 'open b#2', 'close b#2', 'open c#3']);
    expect(pool.openCount).toBe(2);
  });

  test('the agent is told when it has no open session left and when it has one again', () => {
    const agent = new Agent();
    const idle: [string, boolean][] = [];
    const pool = new SessionPool({ idleMs: 10, maxOpen: 8, onAgentIdle: (key, isIdle) => idle.push([key, isIdle]) });
    const a = pool.session('x', agent.open('a'));
    a.turn(INPUT).subscribe();
    agent.turns[0].complete();
    jest.advanceTimersByTime(10);
    a.close();
    a.turn(INPUT).subscribe();
    expect(idle).toEqual([
      ['x', false],
      ['x', true],
      ['x', false],
    ]);
  });

  test("a spare holds room against maxOpen; another agent's spare is the first to go when a conversation needs room", () => {
    const agent = new Agent();
    const pool = new SessionPool({ idleMs: 60_000, maxOpen: 2 });
    const evicted: string[] = [];
    const a = pool.session('k', agent.open('a'));
    a.turn(INPUT).subscribe();
    agent.turns[0].complete();
    expect(pool.holdSpare('other', () => evicted.push('other agent\'s spare'))).toBeDefined();
    expect({ open: pool.openCount, spares: pool.spareCount }).toEqual({ open: 1, spares: 1 });
    // A second conversation needs room: the other agent's spare goes, the idle session a stays.
    pool.session('k', agent.open('b')).turn(INPUT).subscribe();
    expect(evicted).toEqual(["other agent's spare"]);
    expect(agent.events).toEqual(['open a#1', 'open b#2']);
    expect({ open: pool.openCount, spares: pool.spareCount }).toEqual({ open: 2, spares: 0 });
  });

  test('a full pool makes room for a spare by closing its least recently used idle session, never a busy one', () => {
    const agent = new Agent();
    const pool = new SessionPool({ idleMs: 60_000, maxOpen: 2 });
    pool.session('k', agent.open('a')).turn(INPUT).subscribe();
    pool.session('k', agent.open('b')).turn(INPUT).subscribe();
    // Both busy: no room.
    expect(pool.holdSpare('k', () => {})).toBeUndefined();
    agent.turns[0].complete();
    // a is idle now: it closes for the spare (its conversation resumes it when it goes on).
    expect(pool.holdSpare('k', () => {})).toBeDefined();
    expect(agent.events).toEqual(['open a#1', 'open b#2', 'close a#1']);
    // Full again, with b busy and a spare: no second spare.
    expect(pool.holdSpare('other', () => {})).toBeUndefined();
  });

  test("a new session's own agent's spare stays while an idle session can make room: the new conversation takes it", () => {
    const agent = new Agent();
    const pool = new SessionPool({ idleMs: 60_000, maxOpen: 2 });
    const evicted: string[] = [];
    pool.session('k', agent.open('a')).turn(INPUT).subscribe();
    agent.turns[0].complete();
    pool.holdSpare('k', () => evicted.push('spare'));
    pool.session('k', agent.open('b')).turn(INPUT).subscribe();
    expect(evicted).toEqual([]);
    expect(agent.events).toEqual(['open a#1', 'close a#1', 'open b#2']);
  });

  test('when every open session is busy, even its own agent\'s spare goes', () => {
    const agent = new Agent();
    const pool = new SessionPool({ idleMs: 60_000, maxOpen: 2 });
    const evicted: string[] = [];
    pool.session('k', agent.open('a')).turn(INPUT).subscribe();
    pool.holdSpare('k', () => evicted.push('spare'));
    pool.session('k', agent.open('b')).turn(INPUT).subscribe();
    expect(evicted).toEqual(['spare']);
    expect(agent.events).toEqual(['open a#1', 'open b#2']);
  });

  test('a spare given back frees its room; a spare keeps no agent in use', () => {
    const idle: string[] = [];
    const pool = new SessionPool({ idleMs: 60_000, maxOpen: 1, onAgentIdle: (key, isIdle) => idle.push(`${key} ${isIdle}`) });
    const spare = pool.holdSpare('k', () => {});
    expect(pool.openOf('k')).toBe(0);
    expect(idle).toEqual([]);
    spare!.free();
    expect(pool.spareCount).toBe(0);
    expect(pool.holdSpare('k', () => {})).toBeDefined();
  });

  test('a session resumed ahead keeps its agent in use, closes after idleMs unused, and is given back when its conversation takes it', () => {
    const idle: string[] = [];
    const evicted: string[] = [];
    const pool = new SessionPool({ idleMs: 60_000, maxOpen: 2, onAgentIdle: (key, isIdle) => idle.push(`${key} ${isIdle}`) });
    const kept = pool.holdAhead('k', 'c1', () => evicted.push('kept'));
    pool.holdAhead('k', 'c2', () => evicted.push('unused'));
    expect(pool.openOf('k')).toBe(2);
    expect(idle).toEqual(['k false']);
    // Full: no third.
    expect(pool.holdAhead('k', 'c3', () => evicted.push('third'))).toBeUndefined();
    // Its conversation takes the first before the idle close; the other is closed as any idle session.
    kept!.free();
    jest.advanceTimersByTime(60_000);
    expect(evicted).toEqual(['unused']);
    expect(pool.openOf('k')).toBe(0);
    expect(pool.spareCount).toBe(0);
    expect(idle).toEqual(['k false', 'k true']);
  });

  test('a session resumed ahead makes room for a conversation that needs it, once', () => {
    const agent = new Agent();
    const evicted: string[] = [];
    const pool = new SessionPool({ idleMs: 60_000, maxOpen: 1 });
    const ahead = pool.holdAhead('k', 'c1', () => evicted.push('ahead'));
    pool.session('other', agent.open('b')).turn(INPUT).subscribe();
    expect(evicted).toEqual(['ahead']);
    expect(pool.openOf('k')).toBe(0);
    // Given back after it went: nothing is counted twice, and the idle close does not fire later.
    ahead!.free();
    jest.advanceTimersByTime(60_000);
    expect(evicted).toEqual(['ahead']);
    expect(pool.openOf('k')).toBe(0);
  });

  test("a conversation's turn takes its session resumed ahead with its room: nothing is evicted; another's turn evicts", () => {
    const agent = new Agent();
    const evicted: string[] = [];
    const pool = new SessionPool({ idleMs: 60_000, maxOpen: 2 });
    const mine = pool.holdAhead('k', 'mine', () => evicted.push('mine'));
    pool.holdAhead('k', 'theirs', () => evicted.push('theirs'));
    pool.session('k', agent.open('mine'), 'mine').turn(INPUT).subscribe();
    mine!.free();
    expect(evicted).toEqual([]);
    // Its turn still runs: a third conversation's room comes from the other session resumed ahead.
    pool.session('k', agent.open('other'), 'other').turn(INPUT).subscribe();
    expect(evicted).toEqual(['theirs']);
  });
});
