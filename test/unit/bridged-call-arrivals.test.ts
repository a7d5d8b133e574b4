/** `BridgedCallArrivals`: when every bridged call an agent announced has reached the bridge, in either order. */
import { BridgedCallArrivals } from '../../src/agents/acp/session/bridged-call-arrivals.js';

describe('BridgedCallArrivals', () => {
  test('announced first: the last announced call to arrive says so', () => {
    const arrivals = new BridgedCallArrivals();
    expect([arrivals.announce('a'), arrivals.announce('b'), arrivals.announce('c')]).toEqual([false, false, false]);
    expect([arrivals.arrive(), arrivals.arrive(), arrivals.arrive()]).toEqual([false, false, true]);
  });

  test('a call that arrives before its announcement: the announcement says so', () => {
    const arrivals = new BridgedCallArrivals();
    expect(arrivals.announce('a')).toBe(false);
    expect(arrivals.arrive()).toBe(true);
    expect(arrivals.arrive()).toBe(false);
    expect(arrivals.announce('b')).toBe(true);
  });

  test('an announcement repeated (tool_call sent again) counts once; calls never announced never say so', () => {
    const arrivals = new BridgedCallArrivals();
    expect(arrivals.announce('a')).toBe(false);
    expect(arrivals.announce('a')).toBe(false);
    expect(arrivals.arrive()).toBe(true);
    const silent = new BridgedCallArrivals();
    expect([silent.arrive(), silent.arrive()]).toEqual([false, false]);
  });

  test('later rounds of the same prompt count on', () => {
    const arrivals = new BridgedCallArrivals();
    arrivals.announce('a');
    expect(arrivals.arrive()).toBe(true);
    arrivals.announce('b');
    arrivals.announce('c');
    expect([arrivals.arrive(), arrivals.arrive()]).toEqual([false, true]);
  });
});
