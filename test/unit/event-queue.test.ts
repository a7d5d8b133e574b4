import { firstValueFrom, take, toArray } from 'rxjs';
import { EventQueue } from '../../src/agents/acp/updates/event-queue.js';

describe('EventQueue', () => {
  test('events pushed while nobody is attached reach the next attachment first, in order', async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.push(2);
    const seen = firstValueFrom(queue.attach().pipe(take(3), toArray()));
    queue.push(3);
    expect(await seen).toEqual([1, 2, 3]);
  });

  test('buffered events are merged when the merge says so; live ones never are', async () => {
    const joinStrings = (a: string, b: string) => (a.startsWith('t:') && b.startsWith('t:') ? `${a}${b.slice(2)}` : undefined);
    const queue = new EventQueue<string>(joinStrings);
    for (const event of ['t:a', 't:b', 't:c', 'tool', 't:d', 't:e']) queue.push(event);
    const seen = firstValueFrom(queue.attach().pipe(take(5), toArray()));
    queue.push('t:f');
    queue.push('t:g');
    expect(await seen).toEqual(['t:abc', 'tool', 't:de', 't:f', 't:g']);
  });

  test('a response that ends on a buffered event leaves the rest for the next one', async () => {
    const queue = new EventQueue<number>();
    [1, 2, 3].forEach((n) => queue.push(n));
    expect(await firstValueFrom(queue.attach().pipe(take(1), toArray()))).toEqual([1]);
    expect(await firstValueFrom(queue.attach().pipe(take(2), toArray()))).toEqual([2, 3]);
  });

  test('a failure reaches the attached response, and any later attachment after the buffered events', async () => {
    const queue = new EventQueue<number>();
    queue.push(1);
    queue.fail(new Error('agent exited'));
    const events: number[] = [];
    await expect(
      new Promise<void>((resolve, reject) => queue.attach().subscribe({ next: (n) => events.push(n), error: reject, complete: () => resolve() })),
    ).rejects.toThrow('agent exited');
    expect(events).toEqual([1]);
  });

  test('past its limit, what waits is dropped and the overflow told once; attached events are never counted', async () => {
    let overflows = 0;
    const queue = new EventQueue<string>(undefined, { maxBytes: 5, sizeOf: (e) => e.length, onOverflow: () => overflows++ });
    queue.push('abc');
    queue.push('de');
    expect(overflows).toBe(0);
    queue.push('f');
    queue.push('g');
    expect(overflows).toBe(1);
    const seen: string[] = [];
    const attached = queue.attach().subscribe((e) => seen.push(e));
    queue.push('a very long live event');
    attached.unsubscribe();
    expect(seen).toEqual(['a very long live event']);
    expect(overflows).toBe(1);
  });

  test('an event that replaces the one buffered before it costs what it adds, so that replacements in a row never overflow', async () => {
    let overflows = 0;
    const latest = (a: string, b: string) => (a.startsWith('plan') && b.startsWith('plan') ? b : undefined);
    const queue = new EventQueue<string>(latest, { maxBytes: 10, sizeOf: (e) => e.length, onOverflow: () => overflows++ });
    for (let i = 0; i < 10_000; i++) queue.push(`plan${i % 10}`);
    expect(overflows).toBe(0);
    expect(await firstValueFrom(queue.attach().pipe(take(1), toArray()))).toEqual(['plan9']);
  });
});
