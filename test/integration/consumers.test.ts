/**
 * Conversations as real consumers make them, through the built bridge and the scripted ACP agent: a chat that
 * switches agents (Copilot sends the whole chat, with the first agent's markers, to the one picked), Cline's
 * requests (its system prompt as a first Assistant message, its note after tool results), each shaped as those
 * consumers were recorded sending them (test/fixtures/cline/, test/fixtures/copilot/).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message, ResponsePart } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, replied, resultOf, toolCallsOf, user } from './agent-bridge.js';

const agent = (name: string, flags: string[] = []): AgentDefinition => ({ mcp_server: { name, command: process.execPath, args: [SCRIPTED_AGENT, ...flags], env: [] } });
const PARROT = agent('parrot');
const SCRIPTED = agent('scripted');
const MCP_AGENT = agent('scripted', ['--mcp-http']);

/** What the `history` command answers: the prompts this ACP session received before this one. */
const seen = (parts: readonly ResponsePart[]): string[] => JSON.parse(textOfParts(parts)) as string[];
/** What the `echo` command answers: the content blocks of the prompt as the agent received them. */
const echoed = (parts: readonly ResponsePart[]): { type: string; text?: string }[] => JSON.parse(textOfParts(parts)) as { type: string; text?: string }[];
const texts = (blocks: readonly { text?: string }[]): string[] => blocks.map((b) => b.text ?? '');
/** The JSON array `echo` wrote, in a response whose agent also answered other lines (`You said: …`). */
const echoIn = (parts: readonly ResponsePart[]): { type: string; text?: string }[] => {
  const text = textOfParts(parts);
  return JSON.parse(text.slice(text.indexOf('[{"'))) as { type: string; text?: string }[];
};
/** A reply as Cline gives it back: its tool calls first, then its text. */
const clineReply = (parts: readonly ResponsePart[]): Message => {
  const said = textOfParts(parts);
  return { role: 'assistant', content: [...toolCallsOf(parts), ...(said === '' ? [] : [{ type: 'text' as const, value: said }])] };
};

interface Recorded {
  readonly messages: Message[];
}
const cline = (name: string): Recorded => JSON.parse(readFileSync(path.resolve('test/fixtures/cline', `${name}.json`), 'utf8')) as Recorded;

let bridge: AgentBridge;
afterEach(async () => {
  await bridge.close();
  expect(bridge.stderr()).not.toContain('OVERLAPPING PROMPT');
});

describe('a chat that switches agents', () => {
  test('the agent picked gets the chat in a session of its own, told what was said; switching back continues the first session', async () => {
    bridge = new AgentBridge();
    const u1 = user('say one');
    const a1 = await bridge.chat([u1], PARROT);
    // Copilot sends the whole chat, with Parrot's stateful marker in its reply, to the agent picked now.
    const parrotReply: Message = { role: 'assistant', content: [{ type: 'data', mimeType: 'stateful_marker', data: Buffer.from('m\\parrot-1').toString('base64') }, ...a1] };
    const u2 = user('echo');
    const b2 = await bridge.chat([u1, parrotReply, u2], SCRIPTED);
    const told = echoed(b2);
    expect(told).toEqual([
      { type: 'text', text: expect.stringContaining('This conversation began before this session.') },
      { type: 'text', text: 'echo' },
    ]);
    expect(told[0]!.text).toContain('User: say one\nAssistant: one');

    // Back to Parrot: the same ACP session as before (it has seen `say one`), told what it missed meanwhile.
    const u3 = user('history');
    const back = await bridge.chat([u1, parrotReply, u2, replied(b2), u3], PARROT);
    expect(seen(back)).toEqual(['say one']);
    const u4 = user('echo');
    const again = echoed(await bridge.chat([u1, parrotReply, u2, replied(b2), u3, replied(back), u4], PARROT));
    expect(texts(again)).toEqual(['echo']);
  });

  test('the first agent, switched back to, hears what the other agent was told and answered', async () => {
    bridge = new AgentBridge();
    const u1 = user('say one');
    const a1 = await bridge.chat([u1], PARROT);
    const u2 = user('say two');
    const b2 = await bridge.chat([u1, replied(a1), u2], SCRIPTED);
    const back = echoed(await bridge.chat([u1, replied(a1), u2, replied(b2), user('echo')], PARROT));
    expect(texts(back)).toEqual([
      [
        'This conversation went on without this session, with another model. What was said meanwhile:',
        '<transcript>',
        'User: say two',
        'Assistant: two',
        '</transcript>',
        'Continue the conversation: answer the message that follows.',
      ].join('\n'),
      'echo',
    ]);
  });
});

describe("Cline's requests", () => {
  test('its system prompt, sent as a first Assistant message, reaches the agent only under the system policy', async () => {
    const { messages } = cline('first-task');
    const [prompt, words] = messages;
    expect(prompt!.role).toBe('assistant');
    const asked = [prompt!, { ...words!, content: [{ type: 'text' as const, value: 'echo' }] }];
    bridge = new AgentBridge();
    expect(echoed(await bridge.chat(asked, SCRIPTED))).toEqual([{ type: 'text', text: 'echo' }]);
    await bridge.close();
    bridge = new AgentBridge(['--context', 'system']);
    // The scripted agent answers every line of Cline's prompt (`You said: …`), then echoes what it was sent.
    const withPrompt = echoIn(await bridge.chat(asked, SCRIPTED));
    expect(texts(withPrompt)).toEqual([(prompt!.content[0] as { value: string }).value, 'echo']);
  });

  test('a new task is a new agent session, though it begins with the same system prompt', async () => {
    bridge = new AgentBridge();
    const [prompt] = cline('first-task').messages;
    const first = [prompt!, user('say task one')];
    const one = await bridge.chat(first, SCRIPTED);
    expect(seen(await bridge.chat([...first, replied(one), user('history')], SCRIPTED))).toEqual(['say task one']);
    // New Task: the same first message, other words.
    expect(seen(await bridge.chat([prompt!, user('history')], SCRIPTED))).toEqual([]);
  });

  test.each(['user', 'attachments'])('under the %s policy, its note after tool results is no second prompt: one answer, and the next request continues', async (policy) => {
    bridge = new AgentBridge(['--context', policy]);
    const recorded = cline('tool-round-trip').messages;
    const [prompt] = recorded;
    const note = recorded.at(-1)!;
    expect(textOfParts(note.content.flatMap((p) => (p.type === 'text' ? [p] : [])))).toMatch(/^Above is the result of calling one or more tools/);
    const tools = [{ name: 'read_files', description: 'Reads files', inputSchema: { type: 'object', properties: { files: { type: 'array' } } } }];
    const asked = [prompt!, user('mcp-call read_files {"files":[{"path":"/w/README.md"}]}', 'say the end')];
    const called = await bridge.chat(asked, MCP_AGENT, tools);
    const [call] = toolCallsOf(called);
    expect(call).toMatchObject({ toolName: 'read_files' });
    const result = resultOf(call!.toolCallId, '1 | A workspace.');
    const answered = await bridge.chat([...asked, clineReply(called), result, note], MCP_AGENT, tools);
    // Under the attachments policy the agent also answers each line of Cline's prompt, before its tool call.
    expect(textOfParts(answered)).toBe('result read_files: 1 | A workspace.the end');
    // Cline leaves the note out of the next request: it still continues the same session.
    const next = await bridge.chat([...asked, clineReply(called), result, clineReply(answered), user('history')], MCP_AGENT, tools);
    // One prompt before it (under the attachments policy, with Cline's system prompt before the words).
    const before = seen(next);
    expect(before).toHaveLength(1);
    expect(before[0]!.endsWith('mcp-call read_files {"files":[{"path":"/w/README.md"}]}\nsay the end')).toBe(true);
  });
});
