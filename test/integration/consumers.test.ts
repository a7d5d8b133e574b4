/**
 * Conversations as real consumers make them, through the built bridge and the scripted ACP agent: a chat that
 * switches agents (Copilot sends the whole chat, with the first agent's markers, to the one picked), Cline's
 * requests (its system prompt as a first Assistant message, its note after tool results), each shaped as those
 * consumers were recorded sending them (test/fixtures/cline/, test/fixtures/copilot/); Roo Code's (its automated
 * retries, its completion tool and the reply to it, test/fixtures/roo/).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message, Part, ResponsePart, ToolCallPart } from '../../src/protocol/messages.js';
import { AgentBridge, SCRIPTED_AGENT, assistantOf, rejection, replied, resultOf, toolCallsOf, user } from './agent-bridge.js';

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

  test('a file @/-mentioned in a new task (recorded) reaches the agent: a link and the text Cline read, or a resource', async () => {
    const [prompt, said] = cline('mention-file').messages;
    const text = (said!.content[0] as { value: string }).value.replace('say got the mention', 'echo');
    const asked = [prompt!, { role: 'user' as const, content: [{ type: 'text' as const, value: text }] }];
    // The workspace the bridge runs in, against which Cline's relative path is read (the bridge reads no file).
    const workspace = realpathSync(tmpdir());
    const uri = pathToFileURL(path.join(workspace, 'attach-mentioned.txt')).href;
    bridge = new AgentBridge(['--cwd', workspace]);
    expect(echoIn(await bridge.chat(asked, SCRIPTED))).toEqual([
      { type: 'text', text: "'attach-mentioned.txt' (see below for file content) what does it say?\necho" },
      { type: 'resource_link', uri, name: 'attach-mentioned.txt', mimeType: 'text/plain' },
      { type: 'text', text: `The text of attach-mentioned.txt as the person sees it (${uri}):\n\`\`\`\nthe mentioned file says 42\n\n\`\`\`` },
    ]);
    expect(echoIn(await bridge.chat(asked, agent('embedding', ['--embedded-context'])))).toEqual([
      { type: 'text', text: "'attach-mentioned.txt' (see below for file content) what does it say?\necho" },
      { type: 'resource', resource: { uri, mimeType: 'text/plain', text: 'the mentioned file says 42\n' } },
    ]);
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

describe("Roo Code's requests", () => {
  const roo = (name: string): Recorded => JSON.parse(readFileSync(path.resolve('test/fixtures/roo', `${name}.json`), 'utf8')) as Recorded;
  const ELIZA: AgentDefinition = { eliza: { deterministic: true } };
  /** Two of the tools Roo offers (13 in code mode), with the schema of its completion tool. */
  const ROO_TOOLS = [
    { name: 'read_file', description: 'Reads a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
    { name: 'attempt_completion', description: 'Completes the task', inputSchema: { type: 'object', properties: { result: { type: 'string' } }, required: ['result'] } },
  ];
  /** Roo's environment details, the last text of each of its requests. */
  const environment = (): Part => roo('reply-after-completion').messages.at(-1)!.content.at(-1)!;
  /** The person's reply after "Task Completed", as Roo sends it: the completion call's result, its environment after it. */
  const replyTo = (completion: ToolCallPart, words: string): Message => ({
    role: 'user',
    content: [{ type: 'tool_result', toolCallId: completion.toolCallId, result: [{ type: 'text', value: `<user_message>\n${words}\n</user_message>` }] }, environment()],
  });
  const completionOf = (parts: readonly ResponsePart[]): ToolCallPart => {
    const calls = toolCallsOf(parts);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ toolName: 'attempt_completion', parameters: { result: expect.any(String) } });
    return calls[0]!;
  };

  test('a task ends with a call of attempt_completion after the answer; the reply to it continues the agent session', async () => {
    bridge = new AgentBridge();
    const first = roo('first-task').messages;
    const answered = await bridge.chat(first, SCRIPTED, ROO_TOOLS);
    expect(textOfParts(answered)).toBe('hello from roo');
    expect(answered.at(-1)).toEqual(completionOf(answered));
    // Roo gives the reply back text first, then its call; the person's words come as that call's result.
    const asked = [...first, replied(answered), replyTo(completionOf(answered), 'history')];
    const next = await bridge.chat(asked, SCRIPTED, ROO_TOOLS);
    expect(JSON.parse(textOfParts(next))).toEqual(['say hello from roo']);
    completionOf(next);
  });

  test("Roo's retry and its guidance note reach no agent as a prompt; the words the person typed into the guidance do", async () => {
    bridge = new AgentBridge();
    // The recorded task, before the bridge ended turns with a completion: the agent's text answer, then Roo's retry.
    const recorded = roo('no-tools-used').messages;
    const [prompt, task] = recorded;
    const answered = await bridge.chat([prompt!, task!], SCRIPTED);
    expect(textOfParts(answered)).toBe('hello from roo');
    const said = [prompt!, task!, assistantOf(answered)];
    // The retry says nothing new: refused like any request that repeats the conversation, the agent not asked.
    expect((await rejection(bridge.chat([...said, recorded.at(-1)!], SCRIPTED, ROO_TOOLS))).message).toMatch(/^Nothing new to answer/);
    const guidance = roo('too-many-mistakes').messages.at(-1)!;
    const guided = await bridge.chat([...said, guidance], SCRIPTED, ROO_TOOLS);
    expect(JSON.parse(textOfParts(guided))).toEqual(['say hello from roo']);
  });

  test("a tool round trip through Roo's read_file ends with the completion only once the agent's turn is over", async () => {
    bridge = new AgentBridge();
    const [prompt] = roo('first-task').messages;
    const asked = [prompt!, user('<user_message>\nmcp-call read_file {"path":"README.md"}\nsay the end\n</user_message>')];
    const called = await bridge.chat(asked, MCP_AGENT, ROO_TOOLS);
    const [call] = toolCallsOf(called);
    expect(call).toMatchObject({ toolName: 'read_file', parameters: { path: 'README.md' } });
    const answered = await bridge.chat([...asked, replied(called), resultOf(call!.toolCallId, 'File: README.md\n1 | A workspace.')], MCP_AGENT, ROO_TOOLS);
    expect(textOfParts(answered)).toBe('result read_file: File: README.md\n1 | A workspace.the end');
    completionOf(answered);
  });

  test('Eliza ends a task the same way, and hears the reply', async () => {
    bridge = new AgentBridge();
    const [prompt] = roo('first-task').messages;
    const asked = [prompt!, user('<user_message>\nI am worried about my exams\n</user_message>')];
    const answered = await bridge.chat(asked, ELIZA, ROO_TOOLS);
    expect(textOfParts(answered)).not.toBe('');
    const next = await bridge.chat([...asked, replied(answered), replyTo(completionOf(answered), 'list tools')], ELIZA, ROO_TOOLS);
    expect(textOfParts(next)).toBe('Tools offered: read_file, attempt_completion.');
    completionOf(next);
  });
});
