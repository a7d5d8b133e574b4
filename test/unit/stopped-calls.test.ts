/**
 * Whether a consumer's answer to a tool call is a stopped call's or the tool's real result (issue 59): Stop, Cline's
 * Cancel, Roo's abort (issue 54) against the steered request, which holds the round's real results, then the words.
 * The consumers' own requests come from the fixtures recorded in the real hosts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { callGoesOn, isCancelledCall, isStoppedCall } from '../../src/tools/stopped-calls.js';
import type { ToolResultPart } from '../../src/protocol/messages.js';

type Item = ToolResultPart['result'][number];
const resultOf = (...result: Item[]): ToolResultPart => ({ type: 'tool_result', toolCallId: 'call-1', result });
const text = (value: string): Item => ({ type: 'text', value });

/** The last tool result of a recorded request of `consumer`. */
function recordedResult(consumer: string, name: string): ToolResultPart {
  const recorded = JSON.parse(readFileSync(path.resolve('test/fixtures', consumer, `${name}.json`), 'utf8')) as { messages: { content: { type: string }[] }[] };
  const results = recorded.messages.flatMap((m) => m.content).filter((part): part is ToolResultPart => part.type === 'tool_result');
  return results.at(-1)!;
}

describe('isCancelledCall', () => {
  test("Copilot's result for a call stopped while it ran is a cancel; a skip, an error or output are not", () => {
    expect(isCancelledCall(recordedResult('copilot', 'stopped-confirmation-then-message'))).toBe(true);
    expect(isCancelledCall(recordedResult('copilot', 'skipped-confirmation'))).toBe(false);
    expect(isCancelledCall(recordedResult('copilot', 'terminal-killed-result'))).toBe(false);
    // A command whose output merely says so is its output.
    expect(isCancelledCall(resultOf(text('The user cancelled the tool call.'), text('and more')))).toBe(false);
    expect(isCancelledCall(resultOf(text('echo: The user cancelled the tool call.')))).toBe(false);
  });
});

describe('isStoppedCall: what a result that comes with the words says', () => {
  test("Copilot's Stop (its sentence for any cancelled invocation) and Cline's Cancel are stopped calls", () => {
    expect(isStoppedCall(recordedResult('copilot', 'command-stopped-then-message'))).toBe(true);
    expect(isStoppedCall(recordedResult('copilot', 'stopped-confirmation-then-message'))).toBe(true);
    expect(isStoppedCall(recordedResult('cline', 'command-cancelled-then-message'))).toBe(true);
  });
  test('another wording of a stop, an empty result, none at all: stopped', () => {
    for (const result of [resultOf(text('Stopped by the user.')), resultOf(text('')), resultOf(text('  \n')), resultOf(), undefined]) expect(isStoppedCall(result)).toBe(true);
  });
  test("a steered request's results are what the tools gave: a command's output, an edit's outcome, a search's matches, a terminal closed, Roo's killed command", () => {
    for (const result of [
      recordedResult('copilot', 'command-steered'),
      recordedResult('copilot', 'steered-after-the-command'),
      recordedResult('copilot', 'command-queued-next-message'),
      resultOf(text('steered-proof\n')),
      resultOf(text('The following files were successfully edited:\n/ws/a.ts')),
      resultOf(text('3 matches\nsrc/a.ts:1: const a = 1;')),
      recordedResult('copilot', 'terminal-killed-result'),
      recordedResult('roo', 'command-aborted'),
      recordedResult('copilot', 'skipped-confirmation'),
      // Output that mentions a stop among other lines is output.
      resultOf(text('step 1 ok\nstep 2 aborted\nstep 3 ok')),
    ]) {
      expect(isStoppedCall(result)).toBe(false);
    }
  });
});

// Copilot's steered request and its stopped one, recorded in the real Chat view with Claude Code (a command through
// run_in_terminal, then the person's words): alike in every message, part and option but the call's result.
test("Copilot's steered request and its stopped one differ only in the call's result", () => {
  const shape = (name: string): unknown => {
    const recorded = JSON.parse(readFileSync(path.resolve('test/fixtures/copilot', `${name}.json`), 'utf8')) as { modelOptionKeys: unknown; messages: { role: string; content: { type: string }[] }[] };
    return { options: recorded.modelOptionKeys, messages: recorded.messages.map((m) => [m.role, m.content.map((part) => part.type)]) };
  };
  expect(shape('command-steered')).toEqual(shape('command-stopped-then-message'));
  expect(recordedResult('copilot', 'command-steered').result).toEqual([text('steered-42')]);
  expect(recordedResult('copilot', 'command-stopped-then-message').result).toEqual([text('The user cancelled the tool call.')]);
});

describe('callGoesOn', () => {
  const output = resultOf(text('built in 3 s'));
  test("alone (the consumer's tool loop went on by itself): every result goes on but Copilot's sentence for a stopped call", () => {
    expect(callGoesOn(output, false)).toBe(true);
    expect(callGoesOn(undefined, false)).toBe(true);
    expect(callGoesOn(resultOf(text('')), false)).toBe(true);
    expect(callGoesOn(recordedResult('copilot', 'stopped-confirmation-then-message'), false)).toBe(false);
  });
  test("with the person's words (VS Code's steer): a real result goes on", () => {
    expect(callGoesOn(output, true)).toBe(true);
    expect(callGoesOn(resultOf(text('steered-proof\n')), true)).toBe(true);
  });
  test("with the person's words after a stop (issue 54's wordings): the call is stopped", () => {
    for (const result of [recordedResult('copilot', 'stopped-confirmation-then-message'), recordedResult('cline', 'command-cancelled-then-message'), resultOf(text('Stopped by the user.')), resultOf(text('')), resultOf(), undefined]) {
      expect(callGoesOn(result, true)).toBe(false);
    }
  });
});
