/**
 * An agent's plans and mode updates under hostility (issue 38): thousands of plan updates, each different, with 500
 * entries, one of 100 KiB and several alike; thousands of mode updates with ids of 10 KiB, unknown ids, and config
 * options of 10 KiB names with 200 choices of one value. Each costs a bounded amount (one call of the todo tool,
 * a bounded checklist, no mode set twice) and the turn goes on.
 */
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message, ToolDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, assistantOf, resultOf, toolCallsOf, user } from '../integration/agent-bridge.js';

const AGENT: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--modes', 'default,plan'], env: [] } };
const TODO_LIST: ToolDefinition = { name: 'manage_todo_list', description: 'Manage a structured todo list', inputSchema: { type: 'object', properties: { todoList: { type: 'array' } } } };

let bridge: AgentBridge;
beforeEach(() => {
  bridge = new AgentBridge(['--tool-settle-ms', '2000']);
});
afterEach(async () => {
  await bridge.close();
});

test('3000 plans in a burst are one call of the todo tool with at most 50 short entries, and the turn goes on', async () => {
  const first: Message[] = [user('plan-flood 3000', 'say after the flood')];
  const shown = await bridge.chat(first, AGENT, [TODO_LIST]);
  const calls = toolCallsOf(shown);
  expect(calls).toHaveLength(1);
  const todos = (calls[0]!.parameters as { todoList: { title: string }[] }).todoList;
  expect(todos).toHaveLength(50);
  expect(Math.max(...todos.map((t) => t.title.length))).toBeLessThanOrEqual(200);
  expect(JSON.stringify(calls[0]!.parameters).length).toBeLessThan(20_000);
  const rest = await bridge.chat([...first, assistantOf(shown), resultOf(calls[0]!.toolCallId, 'Successfully wrote todo list')], AGENT, [TODO_LIST]);
  expect(textOfParts(rest)).toBe('planned 3000after the flood');
});

test('3000 plans in a burst without a todo tool print a bounded checklist and bounded changes', async () => {
  const text = textOfParts(await bridge.chat([user('plan-flood 3000', 'say after the flood')], AGENT));
  expect(text.endsWith('planned 3000after the flood')).toBe(true);
  expect(text.length).toBeLessThan(60_000);
});

test('2000 mode and option updates of huge and unknown ids cost nothing lasting, and the next turn is set as asked', async () => {
  const plan: Message = { role: 'system', content: [{ type: 'text', value: '<modeInstructions>\nYou are currently running in "Plan" mode.' }] };
  const first: Message[] = [user('mode-flood 2000')];
  expect(textOfParts(await bridge.chat(first, AGENT))).toBe('moded 2000');
  const reply = await bridge.chat([plan, ...first, assistantOf([{ type: 'text', value: 'moded 2000' }]), user('mode')], AGENT);
  expect(textOfParts(reply)).toBe('plan');
});
