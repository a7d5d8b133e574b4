/** `VsCodeAnswers`: what a prompt's agent waits on VS Code for, answered only once VS Code was shown it. */
import { jest } from '@jest/globals';
import type { ToolResultPart } from '../../src/protocol/messages.js';
import { VsCodeAnswers, type AnswerRule } from '../../src/agents/acp/session/vscode-answers.js';
import { allowing, rejecting } from '../../src/agents/acp/session/permission-choice.js';

const result = (toolCallId: string, value = 'ok'): ToolResultPart => ({ type: 'tool_result', toolCallId, result: [{ type: 'text', value }] });
/** A rule for tests: any result goes ahead; the answer says what came. */
const tool: AnswerRule<string> = {
  goesAhead: (r) => r !== undefined,
  answered: (r) => (r === undefined ? 'declined' : `result ${r.toolCallId}`),
  cancelled: () => 'cancelled',
};
const settled = <T>(promise: Promise<T>): Promise<T | 'pending'> => Promise.race([promise, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);

describe('VsCodeAnswers', () => {
  test('what VS Code was shown is answered with its result, or declined when the request has none', async () => {
    const answers = new VsCodeAnswers();
    const a = answers.wait('a', new AbortController().signal, tool);
    const b = answers.wait('b', new AbortController().signal, tool);
    answers.markShown();
    answers.answerShown(new Map([['a', result('a')]]));
    await expect(a).resolves.toBe('result a');
    await expect(b).resolves.toBe('declined');
  });

  test('what came after the response that showed the others waits for the next one', async () => {
    const answers = new VsCodeAnswers();
    const shown = answers.wait('a', new AbortController().signal, tool);
    answers.markShown();
    const later = answers.wait('b', new AbortController().signal, tool);
    answers.answerShown(new Map([['a', result('a')], ['b', result('b')]]));
    await expect(shown).resolves.toBe('result a');
    expect(await settled(later)).toBe('pending');
    answers.markShown();
    answers.answerShown(new Map([['b', result('b')]]));
    await expect(later).resolves.toBe('result b');
  });

  test('what a response held back (it ended on the agent’s plan first) is not shown, and waits for the next one', async () => {
    const answers = new VsCodeAnswers();
    const held = answers.wait('a', new AbortController().signal, tool);
    answers.markShown(new Set(['a']));
    answers.answerShown(new Map());
    expect(await settled(held)).toBe('pending');
    expect(answers.holdsBack(new Map(), true)).toBe(false);
    answers.markShown();
    answers.answerShown(new Map([['a', result('a')]]));
    await expect(held).resolves.toBe('result a');
  });

  test('holds back while something shown would not go ahead with the results', () => {
    const answers = new VsCodeAnswers();
    void answers.wait('a', new AbortController().signal, tool);
    expect(answers.holdsBack(new Map(), true)).toBe(false);
    answers.markShown();
    expect(answers.holdsBack(new Map(), true)).toBe(true);
    expect(answers.holdsBack(new Map([['a', result('a')]]), true)).toBe(false);
  });

  test('a withdrawn request is owed nothing; cancelAll answers the rest as cancelled', async () => {
    const answers = new VsCodeAnswers();
    const withdrawn = new AbortController();
    const a = answers.wait('a', withdrawn.signal, tool);
    const b = answers.wait('b', new AbortController().signal, tool);
    answers.markShown();
    withdrawn.abort();
    expect(answers.holdsBack(new Map([['b', result('b')]]), true)).toBe(false);
    answers.cancelAll();
    await expect(b).resolves.toBe('cancelled');
    expect(await settled(a)).toBe('pending');
  });

  test('what VS Code leaves unanswered for its rule\'s time is answered as given up; what it answered first keeps its answer', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const answers = new VsCodeAnswers();
      const limited = { ...tool, unanswered: { afterMs: 1000, answer: () => 'given up' } };
      const left = answers.wait('a', new AbortController().signal, limited);
      const answered = answers.wait('b', new AbortController().signal, limited);
      // The response showed b; a came after it, and waits for the next.
      answers.markShown(new Set(['a']));
      answers.answerShown(new Map([['b', result('b')]]));
      jest.advanceTimersByTime(999);
      expect(await settled(left)).toBe('pending');
      jest.advanceTimersByTime(1);
      await expect(left).resolves.toBe('given up');
      await expect(answered).resolves.toBe('result b');
      // Given up, it is no longer waited on: a late result answers nothing, and nothing is held back for it.
      expect(answers.holdsBack(new Map(), true)).toBe(false);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('permission choices', () => {
  const options = [
    { optionId: 'always', name: 'Always', kind: 'allow_always' as const },
    { optionId: 'once', name: 'Once', kind: 'allow_once' as const },
    { optionId: 'no', name: 'No', kind: 'reject_once' as const },
  ];
  test('allowing prefers once, rejecting finds a reject option, and an agent offering neither is answered cancelled', () => {
    expect(allowing(options)).toEqual({ outcome: 'selected', optionId: 'once' });
    expect(allowing(options.slice(0, 1))).toEqual({ outcome: 'selected', optionId: 'always' });
    expect(rejecting(options)).toEqual({ outcome: 'selected', optionId: 'no' });
    expect(rejecting(options.slice(0, 2))).toEqual({ outcome: 'cancelled' });
  });
});
