import { readFileSync } from 'node:fs';
import { consumerModeOf } from '../../src/history/consumer-mode.js';
import { applyContextPolicy } from '../../src/history/context-policy.js';
import type { Message } from '../../src/protocol/messages.js';

interface Recorded {
  readonly messages: Message[];
  readonly tools: string[];
}
const recorded = (consumer: string, name: string): Recorded => JSON.parse(readFileSync(`test/fixtures/${consumer}/${name}.json`, 'utf8')) as Recorded;

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
      expect(consumerModeOf(request.messages)).toBe('plan');
    }
  });

  test('Architect and Orchestrator plan, Ask reads, Code, Debug and custom modes are the person’s choice', () => {
    const request = recorded('roo', 'tool-round-trip');
    const modes = ['architect', 'orchestrator', 'ask', 'code', 'debug', 'my-reviewer'].map((slug) => consumerModeOf(inRooMode(request, slug)));
    expect(modes).toEqual(['plan', 'plan', 'ask', 'agent', 'agent', 'agent']);
  });

  test('recorded after a switch mid-task: Ask, then Code (the answer to an apply_diff, the answer to the plan in its todo list)', () => {
    expect(consumerModeOf(recorded('roo', 'mode-ask').messages)).toBe('ask');
    expect(consumerModeOf(recorded('roo', 'apply-diff-result').messages)).toBe('agent');
    expect(consumerModeOf(recorded('roo', 'todo-list-result').messages)).toBe('agent');
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
  test('its recorded requests in Act mode are agent mode, also the one Cline sends by itself on the switch to Act', () => {
    for (const name of ['first-task', 'follow-up', 'tool-round-trip', 'mention-file', 'switched-to-act']) {
      expect(consumerModeOf(recorded('cline', name).messages)).toBe('agent');
    }
  });

  test('its recorded request in Plan mode (its system prompt says "You are in Plan mode", no editor offered) is plan mode', () => {
    const request = recorded('cline', 'plan-mode');
    expect(request.tools).not.toContain('editor');
    expect(consumerModeOf(request.messages)).toBe('plan');
    // The person's words saying the same are no mode, nor is another consumer's first message.
    const [system, ...rest] = request.messages as [Message, ...Message[]];
    expect(consumerModeOf([{ role: 'user', content: system.content }, ...rest])).toBe('agent');
  });

  test('the message Cline sends by itself on the switch to Act approves the plan: it reaches the agent, without its mode notice', () => {
    const switched = recorded('cline', 'switched-to-act').messages.at(-1)!;
    expect(applyContextPolicy([switched], 'user')).toEqual([{ role: 'user', content: [{ type: 'text', value: 'The user approved switching to act mode. Continue with the approved plan now.' }] }]);
  });
});
