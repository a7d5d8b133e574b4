/**
 * An agent's questions to the person (ACP form elicitation) through the real bridge: the built `symposium-lm
 * vscodelm` driven by LmClient, the scripted agent asking with its `ask` command. Where the request offers
 * VS Code's `vscode_askQuestions`, the question is a call of that tool, answered as VS Code answers it;
 * elsewhere it is declined, and a person who moves on without answering (or stops) cancels it.
 */
import { CancellationTokenSource } from 'vscode-jsonrpc/node.js';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, AskQuestionsParams, Message } from '../../src/protocol/messages.js';
import { ASK_QUESTIONS, AgentBridge, SCRIPTED_AGENT, replied, toolCallsOf, user } from './agent-bridge.js';
import { waitUntil } from '../fixtures/wait-until.js';

const AGENT: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http'], env: [] } };
const ASK = 'ask Which flavour? | Vanilla | Chocolate';

const resultOf = (toolCallId: string, text: string): Message => ({ role: 'user', content: [{ type: 'tool_result', toolCallId, result: [{ type: 'text', value: text }] }] });

let bridge: AgentBridge;
beforeEach(() => {
  bridge = new AgentBridge();
});
afterEach(async () => {
  await bridge.close();
});

test("a question becomes a call of VS Code's vscode_askQuestions; the person's pick reaches the agent as the form's value", async () => {
  const first = [user(ASK)];
  const asked = await bridge.chat(first, AGENT, [ASK_QUESTIONS]);
  const [call] = toolCallsOf(asked);
  expect(call).toEqual({
    type: 'tool_call',
    toolCallId: expect.any(String),
    toolName: 'vscode_askQuestions',
    parameters: { questions: [{ header: 'Choice', question: 'Which flavour?', options: [{ label: 'Vanilla' }, { label: 'Chocolate' }], allowFreeformInput: false }] },
  });
  const answer = JSON.stringify({ answers: { Choice: { selected: ['Chocolate'], freeText: null, skipped: false } } });
  const rest = await bridge.chat([...first, replied(asked), resultOf(call!.toolCallId, answer)], AGENT, [ASK_QUESTIONS]);
  expect(textOfParts(rest)).toBe('answer: accept {"choice":"choice-2"}');
});

test('a question the person skipped is declined', async () => {
  const first = [user(ASK)];
  const asked = await bridge.chat(first, AGENT, [ASK_QUESTIONS]);
  const [call] = toolCallsOf(asked);
  const skipped = JSON.stringify({ answers: { Choice: { selected: [], freeText: null, skipped: true } } });
  const rest = await bridge.chat([...first, replied(asked), resultOf(call!.toolCallId, skipped)], AGENT, [ASK_QUESTIONS]);
  expect(textOfParts(rest)).toBe('answer: decline');
});

test('where the request offers no question tool, the client asks the person with its own prompts (the extension: quick picks)', async () => {
  const asked: AskQuestionsParams[] = [];
  bridge.client.onAskQuestions(async (params) => {
    asked.push(params);
    return { answers: { Choice: { selected: ['Vanilla'], freeText: null, skipped: false } } };
  });
  expect(textOfParts(await bridge.chat([user(ASK)], AGENT, []))).toBe('answer: accept {"choice":"choice-1"}');
  expect(asked).toEqual([{ agent: 'scripted', questions: [{ header: 'Choice', question: 'Which flavour?', options: [{ label: 'Vanilla' }, { label: 'Chocolate' }], allowFreeformInput: false }] }]);
});

test('a stop while the client asks withdraws its prompt and cancels the question', async () => {
  let shown = false;
  let withdrawn = false;
  bridge.client.onAskQuestions((_params, token) => {
    shown = true;
    return new Promise((resolve) =>
      token.onCancellationRequested(() => {
        withdrawn = true;
        resolve({ answers: {} });
      }),
    );
  });
  const stop = new CancellationTokenSource();
  const asking = bridge.chat([user(ASK)], AGENT, [], stop);
  expect(await waitUntil(() => shown, 5000)).toBe(true);
  stop.cancel();
  await asking.catch(() => undefined);
  expect(await bridge.logged(/asked 'Which flavour\?': answer:/)).toContain("asked 'Which flavour?': answer: cancel");
  expect(withdrawn).toBe(true);
});

test('where nobody can be asked (the CLI serves no prompts) the question is declined at once', async () => {
  expect(textOfParts(await bridge.chat([user(ASK)], AGENT, []))).toBe('answer: decline');
});

test('a person who moves on without answering cancels the question; the next message is answered, nothing of the old turn shows', async () => {
  const first = [user(ASK, 'say after the question')];
  const asked = await bridge.chat(first, AGENT, [ASK_QUESTIONS]);
  expect(toolCallsOf(asked)).toHaveLength(1);
  const next = await bridge.chat([...first, replied(asked), user('say next message')], AGENT, [ASK_QUESTIONS]);
  expect(textOfParts(next)).toBe('next message');
  expect(await bridge.logged(/asked 'Which flavour\?': answer:/)).toContain("asked 'Which flavour?': answer: cancel");
});

test('with --agent-questions off the agent is told it cannot ask', async () => {
  await bridge.close();
  bridge = new AgentBridge(['--agent-questions', 'off']);
  expect(textOfParts(await bridge.chat([user(ASK)], AGENT, [ASK_QUESTIONS]))).toBe('ask: the client cannot be asked');
});
