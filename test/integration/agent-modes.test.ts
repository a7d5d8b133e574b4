/**
 * The chat's mode as the agent's own, through the real bridge and the scripted agent: the request's system prompt
 * names Copilot's Plan or Ask mode (as Copilot writes it), and the agent is set to its plan or read-only choice
 * before the prompt goes (it answers `mode` with what it was set to); Agent mode puts it back. A mode the agent
 * leaves by itself stands. Both ways an agent offers modes: a config option of category `mode`, and ACP session
 * modes (`session/set_mode`).
 */
import { readFileSync } from 'node:fs';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message, ToolDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, replied, user } from './agent-bridge.js';

const agent = (...flags: string[]): AgentDefinition => ({ mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });
/** Copilot's system prompt in its Ask or Plan mode, as far as the mode goes. */
const inMode = (name: string): Message => ({
  role: 'system',
  content: [{ type: 'text', value: `You are an expert AI programming assistant.\n<modeInstructions>\nYou are currently running in "${name}" mode. Below are your instructions for this mode.\n</modeInstructions>` }],
});

let bridge: AgentBridge;
beforeEach(() => {
  bridge = new AgentBridge();
});
afterEach(async () => {
  await bridge.close();
});

/** Sends `line` in the chat so far, in `mode` (undefined: Agent mode); the chat grows by it and its answer. */
async function say(chat: Message[], line: string, definition: AgentDefinition, mode?: string): Promise<string> {
  const words = user(line);
  const request = [...(mode === undefined ? [] : [inMode(mode)]), ...chat, words];
  const reply = await bridge.chat(request, definition);
  chat.push(words, replied(reply));
  return textOfParts(reply);
}

test("Plan mode puts the agent in its plan mode before the prompt, Ask mode in its read-only mode, Agent mode back in its own", async () => {
  const modal = agent('--modes', 'default,plan,read-only');
  const chat: Message[] = [];
  expect(await say(chat, 'mode', modal, 'Plan')).toBe('plan');
  expect(await say(chat, 'mode', modal, 'Ask')).toBe('read-only');
  expect(await say(chat, 'mode', modal)).toBe('default');
  const log = await bridge.logged(/set_config_option mode=default/);
  expect(log.match(/scripted-agent: set_config_option mode=\S+/g)).toEqual(['scripted-agent: set_config_option mode=plan', 'scripted-agent: set_config_option mode=read-only', 'scripted-agent: set_config_option mode=default']);
});

test('ACP session modes are set with session/set_mode', async () => {
  const modal = agent('--session-modes', 'build,plan');
  const chat: Message[] = [];
  expect(await say(chat, 'mode', modal, 'Plan')).toBe('plan');
  expect(await say(chat, 'mode', modal)).toBe('build');
  expect((await bridge.logged(/set_mode build/)).match(/scripted-agent: set_mode \S+/g)).toEqual(['scripted-agent: set_mode plan', 'scripted-agent: set_mode build']);
});

test('a mode the agent leaves by itself stands while the chat stays in Plan mode', async () => {
  const modal = agent('--modes', 'default,plan');
  const chat: Message[] = [];
  expect(await say(chat, 'mode', modal, 'Plan')).toBe('plan');
  // As Claude Code leaves its plan mode once the person approved its plan.
  await say(chat, 'set-mode default', modal, 'Plan');
  expect(await say(chat, 'mode', modal, 'Plan')).toBe('default');
  expect(bridge.stderr().match(/set_config_option mode=plan/g)).toHaveLength(1);
});

test('an agent without a plan or read-only mode keeps its mode in Plan and Ask mode', async () => {
  const modal = agent('--modes', 'ask,code');
  const chat: Message[] = [];
  expect(await say(chat, 'mode', modal, 'Plan')).toBe('ask');
  expect(await say(chat, 'mode', modal, 'Ask')).toBe('ask');
  expect(bridge.stderr()).not.toMatch(/set_config_option/);
});

describe("Roo Code's and Cline's modes, read from their real requests", () => {
  interface Recorded {
    readonly messages: Message[];
    readonly tools: string[];
  }
  const recorded = (consumer: string, name: string): Recorded => JSON.parse(readFileSync(`test/fixtures/${consumer}/${name}.json`, 'utf8')) as Recorded;
  const toolsNamed = (names: readonly string[]): ToolDefinition[] => names.map((name) => ({ name, description: name, inputSchema: { type: 'object', properties: {} } }));
  /** A request with the person's choice in the picker: the agent's `code` mode. */
  const chatWith = (messages: Message[], definition: AgentDefinition, tools: ToolDefinition[]) =>
    bridge.client.collectChatResponse({ modelId: 'scripted', messages, agent: definition, options: { tools }, config: { mode: 'code' } });

  test("Roo's Architect puts the agent in its plan mode before the prompt, Ask in its ask mode, Code back in the person's choice: a switch mid-task is followed", async () => {
    const roo = recorded('roo', 'first-task');
    const [systemPrompt, task] = roo.messages as [Message, Message];
    /** Roo's user message: the words, then its environment details naming the mode. */
    const rooSays = (line: string, slug: string): Message => ({
      role: 'user',
      content: task.content.map((p, i) => (p.type !== 'text' ? p : { ...p, value: i === 0 ? `<user_message>\n${line}\n</user_message>` : p.value.replace(/<slug>[^<]*<\/slug>/, `<slug>${slug}</slug>`) })),
    });
    const modal = agent('--modes', 'ask,code,plan');
    const chat: Message[] = [systemPrompt];
    const say = async (slug: string): Promise<string> => {
      chat.push(rooSays('mode', slug));
      const reply = await chatWith(chat, modal, []);
      chat.push(replied(reply));
      return textOfParts(reply);
    };
    expect(await say('architect')).toBe('plan');
    expect(await say('code')).toBe('code');
    expect(await say('ask')).toBe('ask');
    expect(await say('orchestrator')).toBe('plan');
    expect(await say('debug')).toBe('code');
    // At the agent: what it was asked to set, in order, each before the prompt that answered with it.
    const log = await bridge.logged(/set_config_option mode=code[\s\S]*set_config_option mode=ask[\s\S]*set_config_option mode=plan[\s\S]*set_config_option mode=code/);
    expect(log.match(/scripted-agent: (set_config_option mode=\S+|prompt \d+)(?= of \S+\n|\n)/g)).toEqual([
      'scripted-agent: set_config_option mode=plan',
      'scripted-agent: prompt 1',
      'scripted-agent: set_config_option mode=code',
      'scripted-agent: prompt 2',
      'scripted-agent: set_config_option mode=ask',
      'scripted-agent: prompt 3',
      'scripted-agent: set_config_option mode=plan',
      'scripted-agent: prompt 4',
      'scripted-agent: set_config_option mode=code',
      'scripted-agent: prompt 5',
    ]);
  });

  test("Cline's Plan mode (its system prompt says so) puts the agent in its plan mode, Act in the person's choice", async () => {
    const plan = recorded('cline', 'plan-mode');
    const act = recorded('cline', 'first-task');
    const modal = agent('--modes', 'ask,code,plan');
    const chat: Message[] = [];
    /** The person's words in Cline's mode: its system prompt and tools of that mode, as recorded. */
    const say = async (mode: Recorded): Promise<string> => {
      chat.push(user('mode'));
      const reply = await chatWith([mode.messages[0]!, ...chat], modal, toolsNamed(mode.tools));
      chat.push(replied(reply));
      return textOfParts(reply);
    };
    expect(await say(plan)).toBe('plan');
    expect(await say(act)).toBe('code');
    expect(await say(plan)).toBe('plan');
    // The system prompt changes with the mode: the conversation, and the agent's session, go on all the same.
    chat.push(user('history'));
    expect(JSON.parse(textOfParts(await chatWith([act.messages[0]!, ...chat], modal, toolsNamed(act.tools))))).toEqual(['mode', 'mode', 'mode']);
    expect((await bridge.logged(/set_config_option mode=plan[\s\S]*set_config_option mode=code[\s\S]*set_config_option mode=plan/)).match(/scripted-agent: set_config_option mode=\S+/g)).toEqual([
      'scripted-agent: set_config_option mode=plan',
      'scripted-agent: set_config_option mode=code',
      'scripted-agent: set_config_option mode=plan',
      'scripted-agent: set_config_option mode=code',
    ]);
  });
});
