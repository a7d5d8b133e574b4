/**
 * Requests Copilot Chat 0.67 (in VS Code 1.139) really sent our models from its Chat view, recorded by the
 * extension (SYMPOSIUM_RECORD_REQUESTS) in `npm run test:vscode` and kept in test/fixtures/copilot/.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sideRequestAnswer } from '../../src/extension/provider/side-requests.js';
import { applyContextPolicy, type ForwardedMessage } from '../../src/history/context-policy.js';
import { actionIdOf, isApprovalOf } from '../../src/protocol/agent-action.js';
import type { Message, ToolCallPart, ToolResultPart } from '../../src/protocol/messages.js';

interface Recorded {
  readonly modelId: string;
  readonly messages: Message[];
  readonly tools: string[];
  readonly modelOptionKeys: string[];
}

const fixture = (name: string): Recorded => JSON.parse(readFileSync(path.resolve('test/fixtures/copilot', `${name}.json`), 'utf8')) as Recorded;
const texts = (messages: readonly ForwardedMessage[]): string[] => messages.flatMap((m) => m.content.flatMap((p) => (p.type === 'text' ? [p.value] : [])));
const CONVERSATIONS = ['agent-mode-first-message', 'ask-mode-first-message', 'skipped-confirmation', 'stopped-confirmation-then-message'];

test('under the user policy the agent gets exactly what the person typed, none of Copilot\'s blocks', () => {
  expect(texts(applyContextPolicy(fixture('agent-mode-first-message').messages, 'user'))).toEqual(['say hello from the agent']);
  for (const name of CONVERSATIONS) {
    for (const text of texts(applyContextPolicy(fixture(name).messages, 'user'))) expect(text).not.toMatch(/<\/?(environment_info|workspace_info|userMemory|sessionMemory|repoMemory|context|reminderInstructions|userRequest|modeInstructions)>/);
  }
});

test('the confirmation tool is offered in Agent mode, and not by Copilot\'s Ask agent', () => {
  expect(fixture('agent-mode-first-message').tools).toContain('symposium-agent-action');
  expect(fixture('ask-mode-first-message').tools).not.toContain('symposium-agent-action');
});

test('Skip and Stop leave results that are not the approval of the call', () => {
  for (const name of ['skipped-confirmation', 'stopped-confirmation-then-message']) {
    const messages = fixture(name).messages;
    const call = messages.flatMap((m) => m.content).find((p): p is ToolCallPart => p.type === 'tool_call' && p.toolName === 'symposium-agent-action')!;
    const result = messages.flatMap((m) => m.content).find((p): p is ToolResultPart => p.type === 'tool_result' && p.toolCallId === call.toolCallId);
    expect(result).toBeDefined();
    expect(isApprovalOf(actionIdOf(call.parameters)!, result)).toBe(false);
  }
});

test("the chat-title request is recognised (and the conversations are not); it carries no conversation id", () => {
  expect(sideRequestAnswer(fixture('title-request').messages)).toBe('Run touch /tmp/symposium-vscode-MvSpqa/workspace/allowed.txt');
  expect(fixture('title-request').modelOptionKeys).not.toContain('_conversationId');
  for (const name of CONVERSATIONS) expect(sideRequestAnswer(fixture(name).messages)).toBeUndefined();
});

test("Copilot's inline-chat progress messages (sent as soon as an agent is picked) are answered without the agent: a JSON array of 10", () => {
  const answer = sideRequestAnswer(fixture('progress-messages-request').messages);
  const messages = JSON.parse(answer ?? 'null') as unknown;
  expect(Array.isArray(messages) && messages.length === 10 && messages.every((m) => typeof m === 'string' && m.length > 0 && m.length < 50)).toBe(true);
});
