/**
 * An agent's plans and mode updates under hostility (issue 38): a thousand plan updates, each different, with 500
 * entries, one of 10 KiB and several alike; thousands of mode updates with ids of 10 KiB, unknown ids, and config
 * options of 10 KiB names with 200 choices of one value. Each costs a bounded amount (a call of the todo tool per
 * second of flood at most, a bounded checklist, no mode set twice) and the turn goes on.
 */

/** Floods take seconds on a loaded machine. */
const FLOOD_MS = 90_000;
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message, ToolDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, assistantOf, resultOf, toolCallsOf, user } from '../integration/agent-bridge.js';

const AGENT: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--modes', 'default,plan'], env: [] } };
const TODO_LIST: ToolDefinition = { name: 'manage_todo_list', description: 'Manage a structured todo list', inputSchema: { type: 'object', properties: { todoList: { type: 'array' } } } };

let bridge: AgentBridge;
beforeEach(() => {
  bridge = new AgentBridge();
});
afterEach(async () => {
  await bridge.close();
});

test(
  'a thousand plans in a burst cost a few calls of the todo tool, each with at most 50 short entries, and the turn goes on',
  async () => {
    const history: Message[] = [user('plan-flood 1000', 'say after the flood')];
    let text = '';
    let calls = 0;
    // Each response shows the latest plan, within a second of its first change; the flood ends, then the words.
    for (;;) {
      const reply = await bridge.chat(history, AGENT, [TODO_LIST]);
      text += textOfParts(reply);
      const call = toolCallsOf(reply).find((c) => c.toolName === 'manage_todo_list');
      if (call === undefined) break;
      calls++;
      const todos = (call.parameters as { todoList: { title: string }[] }).todoList;
      expect(todos).toHaveLength(50);
      expect(Math.max(...todos.map((t) => t.title.length))).toBeLessThanOrEqual(200);
      history.push(assistantOf(reply), resultOf(call.toolCallId, 'Successfully wrote todo list'));
    }
    expect(text).toBe('planned 1000after the flood');
    expect(calls).toBeGreaterThan(0);
    expect(calls).toBeLessThan(100);
  },
  FLOOD_MS,
);

test(
  'a thousand plans in a burst without a todo tool print a bounded checklist and bounded changes',
  async () => {
    const text = textOfParts(await bridge.chat([user('plan-flood 1000', 'say after the flood')], AGENT));
    expect(text.endsWith('planned 1000after the flood')).toBe(true);
    expect(text.length).toBeLessThan(60_000);
  },
  FLOOD_MS,
);

test('2000 mode and option updates of huge and unknown ids cost nothing lasting, and the next turn is set as asked', async () => {
  const plan: Message = { role: 'system', content: [{ type: 'text', value: '<modeInstructions>\nYou are currently running in "Plan" mode.' }] };
  const first: Message[] = [user('mode-flood 2000')];
  expect(textOfParts(await bridge.chat(first, AGENT))).toBe('moded 2000');
  const reply = await bridge.chat([plan, ...first, assistantOf([{ type: 'text', value: 'moded 2000' }]), user('mode')], AGENT);
  expect(textOfParts(reply)).toBe('plan');
}, FLOOD_MS);
