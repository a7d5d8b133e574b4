/**
 * An agent's plan through the real bridge (the built `symposium-lm vscodelm` driven by LmClient, the scripted agent
 * sending `plan` updates): where the request offers Copilot's `manage_todo_list`, the plan is a call of that tool,
 * which ends the response (a burst of plans costs one call), and never a checklist in the text; what the agent says
 * after its plan reaches the request that answers the call, also when the agent was done meanwhile. Elsewhere the
 * plan is a checklist shown once, then its changes.
 */
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message, ResponsePart, ToolDefinition } from '../../src/protocol/messages.js';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AGENT_ACTION, AgentBridge, CREATE_FILE, REPLACE_STRING, SCRIPTED_AGENT, approvals, assistantOf, edited, resultOf, toolCallsOf, user } from './agent-bridge.js';

const AGENT: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http'], env: [] } };

/** Copilot's todo tool, as its agent mode offers it. */
const TODO_LIST: ToolDefinition = { name: 'manage_todo_list', description: 'Manage a structured todo list', inputSchema: { type: 'object', properties: { todoList: { type: 'array' } } } };
const WROTE = 'Successfully wrote todo list';

let bridge: AgentBridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

/** The todo list a response's call of the todo tool shows. */
function todoListOf(parts: readonly ResponsePart[]): unknown[] {
  const calls = toolCallsOf(parts).filter((c) => c.toolName === 'manage_todo_list');
  expect(calls).toHaveLength(1);
  return (calls[0]!.parameters as { todoList: unknown[] }).todoList;
}

test('plans in a row are one call of manage_todo_list, which ends the response; what the agent said after the plan comes after it', async () => {
  // A settle longer than the agent's whole turn: the burst ends with the turn, whatever the machine's speed.
  bridge = new AgentBridge(['--tool-settle-ms', '1500']);
  const first: Message[] = [user('say planning', 'todos Read:doing|Write|Test', 'say working', 'todos Read:done|Write:doing|Test', 'say done')];
  const reply = await bridge.chat(first, AGENT, [TODO_LIST]);
  expect(textOfParts(reply)).toBe('planning');
  expect(reply.at(-1)?.type).toBe('tool_call');
  expect(todoListOf(reply)).toEqual([
    { id: 1, title: 'Read', status: 'completed' },
    { id: 2, title: 'Write', status: 'in-progress' },
    { id: 3, title: 'Test', status: 'not-started' },
  ]);
  const call = toolCallsOf(reply)[0]!;
  const rest = await bridge.chat([...first, assistantOf(reply), resultOf(call.toolCallId, WROTE)], AGENT, [TODO_LIST]);
  expect(rest).toEqual([{ type: 'text', value: 'working' }, { type: 'text', value: 'done' }]);
  // One prompt: the call's result reached no agent.
  expect(bridge.stderr().match(/scripted-agent: prompt \d+ of \S+\n/g)).toHaveLength(1);
});

test('the agent done while VS Code shows its plan: the rest of its turn comes with the next request, and a plan that ends it is followed by how far it came', async () => {
  bridge = new AgentBridge(['--tool-settle-ms', '0']);
  const first: Message[] = [user('todos Read:doing|Write', 'stream 3 200', 'todos Read:done|Write:done')];
  const shown = await bridge.chat(first, AGENT, [TODO_LIST]);
  expect(todoListOf(shown)).toEqual([
    { id: 1, title: 'Read', status: 'in-progress' },
    { id: 2, title: 'Write', status: 'not-started' },
  ]);
  // The agent streams on and ends its turn while VS Code runs the tool: nothing of it is lost.
  expect(await bridge.logged(/scripted-agent: prompt 1 of \S+ answered: end_turn/, 5000)).toMatch(/answered: end_turn/);
  const history: Message[] = [...first, assistantOf(shown), resultOf(toolCallsOf(shown)[0]!.toolCallId, WROTE)];
  const rest = await bridge.chat(history, AGENT, [TODO_LIST]);
  expect(textOfParts(shown) + textOfParts(rest)).toBe('c1 c2 c3 ');
  expect(todoListOf(rest)).toEqual([
    { id: 1, title: 'Read', status: 'completed' },
    { id: 2, title: 'Write', status: 'completed' },
  ]);
  const closing = await bridge.chat([...history, assistantOf(rest), resultOf(toolCallsOf(rest)[0]!.toolCallId, WROTE)], AGENT, [TODO_LIST]);
  expect(closing).toEqual([{ type: 'text', value: '\n\n> 📋 2 of 2 todos done\n\n' }]);
  expect(bridge.stderr().match(/scripted-agent: prompt \d+ of \S+\n/g)).toHaveLength(1);
});

test('a permission the agent asks after its plan shows after it, and goes as the person answers it', async () => {
  bridge = new AgentBridge(['--tool-settle-ms', '0']);
  const first: Message[] = [user('todos Check:doing|Touch', 'permission touch x')];
  const shown = await bridge.chat(first, AGENT, [TODO_LIST, AGENT_ACTION]);
  expect(toolCallsOf(shown).map((c) => c.toolName)).toEqual(['manage_todo_list']);
  const history: Message[] = [...first, assistantOf(shown), resultOf(toolCallsOf(shown)[0]!.toolCallId, WROTE)];
  const asked = await bridge.chat(history, AGENT, [TODO_LIST, AGENT_ACTION]);
  const action = toolCallsOf(asked).find((c) => c.toolName === AGENT_ACTION.name);
  expect(action).toBeDefined();
  const answered = await bridge.chat([...history, assistantOf(asked), approvals(action!)], AGENT, [TODO_LIST, AGENT_ACTION]);
  expect(textOfParts(answered)).toContain('permission touch x: allow_once');
});

test('a file the agent writes while its plan shows is written by Copilot\'s create_file, in the next response', async () => {
  const workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'plans-')));
  try {
    bridge = new AgentBridge(['--tool-settle-ms', '0', '--cwd', workspace]);
    const first: Message[] = [user('todos Write:doing', 'stream 1 300', 'write notes.txt hello', 'say written')];
    const shown = await bridge.chat(first, AGENT, [TODO_LIST, CREATE_FILE, REPLACE_STRING]);
    expect(toolCallsOf(shown).map((c) => c.toolName)).toEqual(['manage_todo_list']);
    const history: Message[] = [...first, assistantOf(shown), resultOf(toolCallsOf(shown)[0]!.toolCallId, WROTE)];
    const writing = await bridge.chat(history, AGENT, [TODO_LIST, CREATE_FILE, REPLACE_STRING]);
    const create = toolCallsOf(writing).find((c) => c.toolName === 'create_file');
    expect(create?.parameters).toEqual({ filePath: path.join(workspace, 'notes.txt'), content: 'hello' });
    writeFileSync(path.join(workspace, 'notes.txt'), 'hello');
    const rest = await bridge.chat([...history, assistantOf(writing), edited(create!, path.join(workspace, 'notes.txt'))], AGENT, [TODO_LIST, CREATE_FILE, REPLACE_STRING]);
    expect(textOfParts(rest)).toContain('written');
    expect(textOfParts(writing) + textOfParts(rest)).not.toContain('(itself)');
  } finally {
    await bridge?.close();
    bridge = undefined;
    rmSync(workspace, { recursive: true, force: true });
  }
});

test('a plan the agent repeats costs no call', async () => {
  bridge = new AgentBridge(['--tool-settle-ms', '0']);
  const first: Message[] = [user('todos Read:doing|Write', 'say one')];
  const shown = await bridge.chat(first, AGENT, [TODO_LIST]);
  const call = toolCallsOf(shown)[0]!;
  const history: Message[] = [...first, assistantOf(shown), resultOf(call.toolCallId, WROTE)];
  const rest = await bridge.chat(history, AGENT, [TODO_LIST]);
  const next = await bridge.chat([...history, assistantOf(rest), user('todos Read:doing|Write', 'say two')], AGENT, [TODO_LIST]);
  expect(toolCallsOf(next)).toEqual([]);
  expect(textOfParts(next)).toBe('two');
});

test('where no todo tool is offered, the plan is a checklist once, then each change in a line', async () => {
  bridge = new AgentBridge();
  const text = textOfParts(await bridge.chat([user('todos Read:doing|Write|Test', 'say working', 'todos Read:done|Write:doing|Test', 'todos Read:done|Write:doing|Test', 'say done')], AGENT));
  expect(text).toBe('\n\n- [ ] **Read**\n- [ ] Write\n- [ ] Test\n\nworking\n\n> ✓ Read\n\n> ▶ Write\n\ndone');
});

describe("Roo Code's todo list", () => {
  /** Roo's tools as far as the plan goes: its todo tool, and the completion tool that ends its tasks. */
  const ROO_TOOLS: ToolDefinition[] = [
    { name: 'update_todo_list', description: 'Replace the entire TODO list', inputSchema: { type: 'object', properties: { todos: { type: 'string' } }, required: ['todos'] } },
    { name: 'attempt_completion', description: 'Present the result', inputSchema: { type: 'object', properties: { result: { type: 'string' } }, required: ['result'] } },
  ];

  test('where Roo offers update_todo_list, the plan is a call of it (a markdown checklist), not text; the task then completes', async () => {
    bridge = new AgentBridge(['--tool-settle-ms', '1500']);
    const first: Message[] = [user('say planning', 'todos Read:done|Write:doing|Test', 'say done')];
    const reply = await bridge.chat(first, AGENT, ROO_TOOLS);
    expect(textOfParts(reply)).toBe('planning');
    const [call, ...others] = toolCallsOf(reply);
    expect(others).toEqual([]);
    expect(call).toMatchObject({ toolName: 'update_todo_list', parameters: { todos: '[x] Read\n[-] Write\n[ ] Test' } });
    const rest = await bridge.chat([...first, assistantOf(reply), resultOf(call!.toolCallId, 'Todo list updated successfully.')], AGENT, ROO_TOOLS);
    expect(textOfParts(rest)).toBe('done');
    expect(toolCallsOf(rest).map((c) => c.toolName)).toEqual(['attempt_completion']);
    expect(bridge.stderr().match(/scripted-agent: prompt \d+ of \S+\n/g)).toHaveLength(1);
  });
});
