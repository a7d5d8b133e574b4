import { LiveSessions, SessionIdInUse } from '../../src/agents/acp/live-sessions.js';

const P1 = { pid: 1 };
const P2 = { pid: 2 };
const A = { name: 'conversation A' };
const B = { name: 'conversation B' };

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('LiveSessions', () => {
  test('an id is held by one holder; another is refused, naming the id', () => {
    const live = new LiveSessions<object, object>();
    live.hold('s1', P1, A);
    expect(live.holderOf('s1')).toEqual({ holder: A, process: P1 });
    expect(() => live.hold('s1', P1, B)).toThrow(SessionIdInUse);
    expect(() => live.hold('s1', P1, B)).toThrow(/s1/);
    // The same holder again is no fault.
    live.hold('s1', P1, A);
    expect(live.held()).toEqual([{ sessionId: 's1', holder: A, process: P1 }]);
  });

  test('letting go: only the holder can, and the id is free after', () => {
    const live = new LiveSessions<object, object>();
    live.hold('s1', P1, A);
    expect(live.letGo('s1', B)).toBe(false);
    expect(live.letGo('s1', A)).toBe(true);
    expect(live.holderOf('s1')).toBeUndefined();
    live.hold('s1', P1, B);
    expect(live.holderOf('s1')?.holder).toBe(B);
  });

  test('a prompt outlives its holder: the id is not given again, and idle waits for the prompt to end', async () => {
    const live = new LiveSessions<object, object>();
    live.hold('s1', P1, A);
    const prompt = deferred();
    live.prompting('s1', P1, prompt.promise);
    live.letGo('s1', A);
    expect(() => live.hold('s1', P1, B)).toThrow(/a prompt still runs/);
    const idle = live.idle('s1', P1, 60_000);
    prompt.resolve();
    await expect(idle).resolves.toBe(true);
    live.hold('s1', P1, B);
    expect(live.holderOf('s1')?.holder).toBe(B);
  });

  test('idle says false when the prompt runs past the timeout, true at once when none runs', async () => {
    const live = new LiveSessions<object, object>();
    await expect(live.idle('s1', P1, 0)).resolves.toBe(true);
    const prompt = deferred();
    live.prompting('s1', P1, prompt.promise);
    await expect(live.idle('s1', P1, 5)).resolves.toBe(false);
    // A prompt on another process is not this one's.
    await expect(live.idle('s1', P2, 5)).resolves.toBe(true);
    prompt.resolve();
    await expect(live.idle('s1', P1, 5)).resolves.toBe(true);
  });

  test('a failed prompt ends too', async () => {
    const live = new LiveSessions<object, object>();
    live.prompting('s1', P1, Promise.reject(new Error('failed')));
    await expect(live.idle('s1', P1, 60_000)).resolves.toBe(true);
  });

  test('steps on one id run one after the other; steps on others do not wait', async () => {
    const live = new LiveSessions<object, object>();
    const order: string[] = [];
    const first = deferred();
    const a = live.exclusive('s1', P1, async () => {
      await first.promise;
      order.push('s1 first');
    });
    const b = live.exclusive('s1', P1, async () => {
      order.push('s1 second');
    });
    await live.exclusive('s2', P1, async () => {
      order.push('s2');
    });
    first.resolve();
    await Promise.all([a, b]);
    expect(order).toEqual(['s2', 's1 first', 's1 second']);
  });

  test('a process that ended takes its ids with it, and says who held them', () => {
    const live = new LiveSessions<object, object>();
    live.hold('s1', P1, A);
    live.hold('s2', P2, B);
    live.prompting('s3', P1, new Promise(() => {}));
    expect(live.processEnded(P1)).toEqual([{ sessionId: 's1', holder: A }]);
    expect(live.holderOf('s1')).toBeUndefined();
    // The next process may number its sessions from 1 again.
    live.hold('s3', P2, A);
    expect(live.held().map((h) => h.sessionId).sort()).toEqual(['s2', 's3']);
  });
});
