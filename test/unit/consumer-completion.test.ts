import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COMPLETION_TOOL, answeredAbove, completionCall, nothingToAdd, completionRepliesAsSaid, offersCompletionTool } from '../../src/tools/consumer-completion.js';
import { applyContextPolicy } from '../../src/history/context-policy.js';
import type { Message, ToolDefinition } from '../../src/protocol/messages.js';

/** A request Roo Code 3.52 sent, recorded in the real VS Code host (test/fixtures/roo/). */
const roo = (name: string): { messages: Message[] } => JSON.parse(readFileSync(path.resolve('test/fixtures/roo', `${name}.json`), 'utf8')) as { messages: Message[] };
const ATTEMPT_COMPLETION: ToolDefinition = { name: 'attempt_completion', description: 'Completes the task', inputSchema: { type: 'object', properties: { result: { type: 'string' } }, required: ['result'] } };
const reply = (toolCallId: string, text: string): Message => ({ role: 'user', content: [{ type: 'tool_result', toolCallId, result: [{ type: 'text', value: text }] }] });

describe('offersCompletionTool', () => {
  test('Roo Code, Kilo Code legacy and Cline 3.x offer attempt_completion taking a result', () => {
    expect(offersCompletionTool([{ name: 'read_file', description: 'Reads' }, ATTEMPT_COMPLETION])).toBe(true);
  });

  test("a tool of that name taking no result is another consumer's; Cline 4.x and Copilot offer none", () => {
    expect(offersCompletionTool([{ ...ATTEMPT_COMPLETION, inputSchema: { type: 'object', properties: { summary: { type: 'string' } } } }])).toBe(false);
    expect(offersCompletionTool([{ name: 'attempt_completion', description: 'x' }])).toBe(false);
    expect(offersCompletionTool([{ name: 'read_files', description: 'Reads' }, { name: 'ask_question', description: 'Asks' }])).toBe(false);
  });
});

describe('completionCall', () => {
  test('says whether the answer is above it, each call with an id of its own', () => {
    const at = new Date(2026, 10, 28, 9, 5, 7);
    const [one, two] = [completionCall(true, at), completionCall(false, at)];
    expect(one).toMatchObject({ type: 'tool_call', toolName: COMPLETION_TOOL, parameters: { result: 'Answered above at 09:05:07. Reply to go on, or start a new task.' } });
    expect(two).toMatchObject({ parameters: { result: nothingToAdd(at) } });
    expect(one.toolCallId).not.toBe(two.toolCallId);
    // Roo Code sanitises ids to this alphabet before it gives them back.
    expect(one.toolCallId).toMatch(/^[\w-]+$/);
  });
});

test("two answers a second apart end with calls of different parameters: Roo stops a task at the fourth identical call in a row", () => {
  const first = new Date(2026, 10, 28, 12, 51, 50);
  const next = new Date(first.getTime() + 1000);
  expect(completionCall(true, first).parameters).not.toEqual(completionCall(true, next).parameters);
  expect(answeredAbove(first)).not.toBe(answeredAbove(next));
});

describe('completionRepliesAsSaid', () => {
  test("what the person typed after Roo's Task Completed, sent as the call's result, is their message (recorded)", () => {
    const { messages } = roo('reply-after-completion');
    const replied = completionRepliesAsSaid(messages).at(-1)!;
    expect(replied.content[0]).toEqual({ type: 'text', value: '<user_message>\nhistory\n</user_message>' });
    // Roo's wrapper and its environment are context, which the policy takes away.
    expect(applyContextPolicy([replied], 'user')).toEqual([{ role: 'user', content: [{ type: 'text', value: 'history' }] }]);
  });

  test("a file the person mentioned in their reply after Task Completed reaches the agent as an attachment", () => {
    const call = completionCall(true);
    const mentioned: Message = { role: 'user', content: reply(call.toolCallId, "<user_message>\nlook at 'a.ts'\n</user_message>[read_file for 'a.ts']\nFile: a.ts\n1 | const a = 1;\n").content };
    expect(applyContextPolicy(completionRepliesAsSaid([mentioned]), 'user')).toEqual([
      { role: 'user', content: [{ type: 'text', value: "look at 'a.ts'" }, { type: 'attachment', attachment: { kind: 'file', path: 'a.ts', text: 'const a = 1;' } }] },
    ]);
  });

  test("Kilo Code legacy's reply, its words in <feedback>; an image the person attached stays", () => {
    const call = completionCall(true);
    const kilo: Message = {
      role: 'user',
      content: [
        { type: 'tool_result', toolCallId: call.toolCallId, result: [{ type: 'text', value: 'The user has provided feedback on the results. Consider their input to continue the task, and then attempt completion again.\n<feedback>\nnow the tests\n</feedback>' }, { type: 'data', mimeType: 'image/png', data: 'AAAA' }] },
      ],
    };
    expect(applyContextPolicy(completionRepliesAsSaid([kilo]), 'user')).toEqual([{ role: 'user', content: [{ type: 'text', value: 'now the tests' }, { type: 'data', mimeType: 'image/png', data: 'AAAA' }] }]);
  });

  test("results of other calls are left as they are, the messages too when none is a completion's", () => {
    const messages = [reply('vscode-tool-1', '<user_message>\nnot words\n</user_message>')];
    expect(completionRepliesAsSaid(messages)).toBe(messages);
    const call = completionCall(true);
    const both: Message = { role: 'user', content: [...reply('vscode-tool-1', 'ok').content, ...reply(call.toolCallId, '<user_message>\ngo on\n</user_message>').content] };
    expect(applyContextPolicy(completionRepliesAsSaid([both]), 'user')).toEqual([{ role: 'user', content: [both.content[0], { type: 'text', value: 'go on' }] }]);
  });
});
