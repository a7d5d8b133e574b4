import { TestScheduler } from 'rxjs/testing';
import { endFinishedTurn } from '../../src/operators/end-finished-turn.js';
import type { ResponsePart } from '../../src/protocol/messages.js';
import { text } from './fixtures.js';

const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const call = (toolCallId: string): ResponsePart => ({ type: 'tool_call', toolCallId, toolName: 'read_file', parameters: {} });
const finish = (hadText: boolean): ResponsePart => ({ type: 'tool_call', toolCallId: 'done', toolName: 'attempt_completion', parameters: { hadText } });
const parts: Record<string, ResponsePart> = { a: text('a'), b: text('b'), s: text(' \n'), T: call('t1'), F: finish(true), E: finish(false) };

describe('endFinishedTurn', () => {
  test('a turn that finished after text ends with the finishing part, told it had text', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a--b--|', parts).pipe(endFinishedTurn(finish))).toBe('-a--b--(F|)', parts);
    });
  });

  test('a response ending on a tool call waits on the consumer: nothing is added', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a--T--|', parts).pipe(endFinishedTurn(finish))).toBe('-a--T--|', parts);
    });
  });

  test('a turn with no text, or only white space, ends with the finishing part told so', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('----|', parts).pipe(endFinishedTurn(finish))).toBe('----(E|)', parts);
      expectObservable(cold('-s--|', parts).pipe(endFinishedTurn(finish))).toBe('-s--(E|)', parts);
    });
  });

  test('a failed turn fails without it; a cancelled one is unsubscribed and gets nothing', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      expectObservable(cold('-a--#', parts).pipe(endFinishedTurn(finish))).toBe('-a--#', parts);
      const agent = cold('-a--b--|', parts);
      expectObservable(agent.pipe(endFinishedTurn(finish)), '^--!').toBe('-a--', parts);
      expectSubscriptions(agent.subscriptions).toBe('^--!');
    });
  });
});
