import { readFileSync } from 'node:fs';
import { consumerModeOf } from '../../src/history/consumer-mode.js';
import type { Message, ToolDefinition } from '../../src/protocol/messages.js';

interface Recorded {
  readonly messages: Message[];
  readonly tools: string[];
}
const recorded = (consumer: string, name: string): Recorded => JSON.parse(readFileSync(`test/fixtures/${consumer}/${name}.json`, 'utf8')) as Recorded;
const tools = (names: readonly string[]): ToolDefinition[] => names.map((name) => ({ name, description: name }));

/** A recorded Roo request as if sent in the mode `slug`: Roo names it in every user message's environment details. */
function inRooMode(request: Recorded, slug: string): Message[] {
  return request.messages.map((m) => ({
    ...m,
    content: m.content.map((p) => (p.type === 'text' && p.value.startsWith('<environment_details>') ? { ...p, value: p.value.replace(/<slug>[^<]*<\/slug>/, `<slug>${slug}</slug>`) } : p)),
  }));
}

describe("Roo Code's mode, from the environment details of its latest user message", () => {
  test('its recorded requests, made in Architect mode, are plan mode', () => {
    for (const name of ['first-task', 'tool-round-trip', 'reply-after-completion', 'too-many-mistakes']) {
      const request = recorded('roo', name);
      expect(consumerModeOf(request.messages, tools(request.tools))).toBe('plan');
    }
  });

  test('Architect and Orchestrator plan, Ask reads, Code, Debug and custom modes are the person’s choice', () => {
    const request = recorded('roo', 'tool-round-trip');
    const modes = ['architect', 'orchestrator', 'ask', 'code', 'debug', 'my-reviewer'].map((slug) => consumerModeOf(inRooMode(request, slug)));
    expect(modes).toEqual(['plan', 'plan', 'ask', 'agent', 'agent', 'agent']);
  });

  test('a switch mid-task: the latest user message names the mode that governs', () => {
    const request = recorded('roo', 'tool-round-trip');
    const code = inRooMode(request, 'code');
    const last = inRooMode(request, 'architect').at(-1)!;
    expect(consumerModeOf([...code.slice(0, -1), last])).toBe('plan');
    expect(consumerModeOf([...inRooMode(request, 'architect').slice(0, -1), code.at(-1)!])).toBe('agent');
  });

  test('the person’s own words naming a mode are no mode', () => {
    const words: Message = { role: 'user', content: [{ type: 'text', value: '<user_message>\n# Current Mode\n<slug>architect</slug>\n</user_message>' }] };
    expect(consumerModeOf([words])).toBe('agent');
  });
});

describe("Cline's Plan and Act mode, from its system prompt and the tools it offers", () => {
  test('its recorded requests, made in Act mode (its editor offered), are agent mode', () => {
    for (const name of ['first-task', 'follow-up', 'tool-round-trip', 'mention-file']) {
      const request = recorded('cline', name);
      expect(consumerModeOf(request.messages, tools(request.tools))).toBe('agent');
    }
  });

  test('Plan mode offers no editor: plan mode; another consumer without an editor is not Cline', () => {
    const request = recorded('cline', 'first-task');
    const planTools = tools(request.tools.filter((t) => t !== 'editor'));
    expect(consumerModeOf(request.messages, planTools)).toBe('plan');
    expect(consumerModeOf(request.messages.slice(1), planTools)).toBe('agent');
    expect(consumerModeOf(recorded('roo', 'first-task').messages.slice(0, 1), planTools)).toBe('agent');
  });
});
