/**
 * Going back in a chat (issue 45): after Restore Checkpoint, an edited earlier request or Retry, the agent holds
 * exactly the conversation the person sees. Through the built bridge with the scripted agent, whose `history`
 * command answers the prompts its session received before (`seen`), and whose prompt log holds what each prompt
 * carried: so the tests read what the AGENT holds, not what the bridge meant to send.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message, ResponsePart } from '../../src/protocol/messages.js';
import { statefulMarkerData, STATEFUL_MARKER } from '../../src/history/stateful-marker.js';
import { AgentBridge as Bridge, SCRIPTED_AGENT, user } from './agent-bridge.js';

let bridge: Bridge;
let promptLog: string;
beforeEach(() => {
  bridge = new Bridge();
  promptLog = path.join(mkdtempSync(path.join(tmpdir(), 'going-back-')), 'prompts.jsonl');
});
afterEach(async () => {
  await bridge.close();
  expect(bridge.stderr()).not.toContain('OVERLAPPING PROMPT');
});

function scripted(flags: string[] = []): AgentDefinition {
  return { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--prompt-log', promptLog, ...flags], env: [] } };
}

/** Copilot's request: the history, and the stateful marker it gives this response (its `modelId\marker` comes back in the reply). */
async function ask(messages: Message[], agent: AgentDefinition, marker: string): Promise<{ parts: ResponsePart[]; reply: Message }> {
  const parts = await bridge.client.collectChatResponse({ modelId: 'scripted', messages, agent, options: { tools: [] }, marker });
  const text = textOfParts(parts);
  const data = Buffer.from(statefulMarkerData('scripted', marker)).toString('base64');
  return { parts, reply: { role: 'assistant', content: [{ type: 'text', value: text }, { type: 'data', mimeType: STATEFUL_MARKER, data }] } };
}

/** The text of the agent's last prompt, as it received it. */
function lastPrompt(): string {
  const lines = readFileSync(promptLog, 'utf8').trim().split('\n');
  const blocks = JSON.parse(lines[lines.length - 1]!) as { type: string; text?: string }[];
  return blocks.map((block) => block.text ?? '').join('\n');
}

/** `[u1] → a1`, `[u1,a1,u2] → a2`, `[u1,a1,u2,a2,u3] → a3`, each with its marker: the conversation. */
async function threeTurns(agent: AgentDefinition, third = 'say three'): Promise<{ u1: Message; a1: Message; u2: Message; a2: Message; u3: Message; a3: Message }> {
  const u1 = user('say one');
  const { reply: a1 } = await ask([u1], agent, 'm1');
  const u2 = user('say two');
  const { reply: a2 } = await ask([u1, a1, u2], agent, 'm2');
  const u3 = user(third);
  const { reply: a3 } = await ask([u1, a1, u2, a2, u3], agent, 'm3');
  return { u1, a1, u2, a2, u3, a3 };
}

describe.each([
  ['told the transcript (no fork)', [] as string[]],
  ['forked (session/fork)', ['--fork']],
])('going back, the agent %s', (_route, flags) => {
  test('an older marker (an edited earlier request, a restored checkpoint): the agent holds the exchange before that point and nothing after it', async () => {
    const agent = scripted(flags);
    const { u1, a1 } = await threeTurns(agent);
    const { parts } = await ask([u1, a1, user('history')], agent, 'm4');
    const held = JSON.parse(textOfParts(parts)) as string[];
    // What the session held before the new words: "say one" as its own turn (fork), or nothing but a transcript of it (told).
    expect(held).not.toContain('say two');
    expect(held).not.toContain('say three');
    expect(lastPrompt()).not.toContain('say two');
    expect(lastPrompt()).not.toContain('say three');
    if (flags.includes('--fork')) expect(held).toEqual(['say one']);
    else expect(lastPrompt()).toContain('say one');
    expect(await bridge.logged(/went back/)).toMatch(flags.includes('--fork') ? /went back \(.*\): ACP session \S+, forked from/ : /went back \(.*\) to a point of conversation \S+, but the agent cannot fork sessions/);
  });

  test('an older marker alone names the point when the consumer re-rendered the history around it', async () => {
    const agent = scripted(flags);
    const { u1, a1 } = await threeTurns(agent);
    // The first exchange as the consumer shows it now (re-rendered, summarised): only the marker says which answer it was.
    const rerendered: Message = { ...a1, content: [{ type: 'text', value: 'one (as shown)' }, ...a1.content.slice(1)] };
    const { parts } = await ask([user(`${textOfParts(u1.content as ResponsePart[])} (as shown)`), rerendered, user('history')], agent, 'm4');
    const held = JSON.parse(textOfParts(parts)) as string[];
    expect(held).not.toContain('say two');
    expect(lastPrompt()).not.toContain('say two');
    expect(await bridge.logged(/went back/)).toContain('went back (the marker of the last answer kept is an older one of the conversation)');
    if (flags.includes('--fork')) expect(held).toEqual(['say one']);
  });

  test('redo: the abandoned branch, sent again (VS Code\'s "Reapply discarded … chat"), goes on in its own session', async () => {
    const agent = scripted(flags);
    const { u1, a1, u2, a2, u3, a3 } = await threeTurns(agent);
    const { reply: back } = await ask([u1, a1, user('say other')], agent, 'm4');
    expect(textOfParts([back.content[0]!] as ResponsePart[])).toBe('other');
    const { parts } = await ask([u1, a1, u2, a2, u3, a3, user('history')], agent, 'm5');
    expect(JSON.parse(textOfParts(parts))).toEqual(['say one', 'say two', 'say three']);
  });

  test('twice in a row, and back to the first request (a new session: nothing before it)', async () => {
    const agent = scripted(flags);
    const { u1, a1, u2, a2 } = await threeTurns(agent);
    await ask([u1, a1, user('say other')], agent, 'm4');
    const { parts: second } = await ask([u1, a1, u2, a2, user('history')], agent, 'm5');
    expect(JSON.parse(textOfParts(second))).toEqual(flags.includes('--fork') ? ['say one', 'say two'] : []);
    expect(lastPrompt()).not.toContain('say three');
    expect(lastPrompt()).not.toContain('say other');
    const { parts: first } = await ask([user('history')], agent, 'm6');
    expect(JSON.parse(textOfParts(first))).toEqual([]);
  });

  test('Retry of a completed answer: the question is asked once, not again in the session that holds it and its answer', async () => {
    const agent = scripted(flags);
    const { u1, a1, u2, a2, u3 } = await threeTurns(agent, 'history');
    const { parts } = await ask([u1, a1, u2, a2, u3], agent, 'm4');
    const held = JSON.parse(textOfParts(parts)) as string[];
    expect(held.filter((text) => text === 'history')).toEqual([]);
    expect(lastPrompt()).not.toMatch(/history[\s\S]*history/);
    if (flags.includes('--fork')) expect(held).toEqual(['say one', 'say two']);
    else expect(lastPrompt()).toContain('say two');
  });
});

describe('going back, where the agent cannot fork at the point', () => {
  test('a fork the agent refuses (it lost the session: it restarted) falls back to the told transcript, and says why', async () => {
    const agent = scripted(['--fork']);
    const { u1, a1 } = await threeTurns(agent);
    // Another chat makes the agent exit: its sessions, the one to fork among them, are gone.
    await ask([user('crash')], agent, 'x1').catch(() => []);
    const { parts } = await ask([u1, a1, user('history')], agent, 'm4');
    expect(JSON.parse(textOfParts(parts))).toEqual([]);
    expect(lastPrompt()).toContain('say one');
    expect(lastPrompt()).not.toContain('say two');
    expect(await bridge.logged(/session\/fork of .* failed/)).toMatch(/went back \(.*\) to a point of conversation \S+, but session\/fork of \S+ failed/);
  });

  test('an agent that forks only whole sessions (OpenCode 1.18 ignores the fork point) is told the transcript instead: a fork would hold what was taken back', async () => {
    const agent = scripted(['--fork', '--fork-whole']);
    const { u1, a1 } = await threeTurns(agent);
    const { parts } = await ask([u1, a1, user('history')], agent, 'm4');
    expect(JSON.parse(textOfParts(parts))).toEqual([]);
    expect(lastPrompt()).toContain('say one');
    expect(lastPrompt()).not.toContain('say two');
    expect(await bridge.logged(/went back/)).toContain('(scripted-agent) is not known to fork at a point, only its whole session');
    expect(bridge.stderr()).not.toContain('session/fork scripted');
  });

  test('after a model switch the marker is another agent\'s: a conversation of its own with this agent, told the history', async () => {
    const first = scripted(['--fork']);
    const { u1, a1, u2, a2 } = await threeTurns(first);
    const other: AgentDefinition = { mcp_server: { name: 'other', command: process.execPath, args: [SCRIPTED_AGENT, '--prompt-log', promptLog, '--fork', '--image'], env: [] } };
    const { parts } = await ask([u1, a1, u2, a2, user('history')], other, 'o1');
    expect(JSON.parse(textOfParts(parts))).toEqual([]);
    expect(lastPrompt()).toContain('say two');
    expect(lastPrompt()).not.toContain('say three');
    expect(bridge.stderr()).not.toContain('went back');
  });
});
