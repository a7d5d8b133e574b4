/**
 * An agent's slash commands (issue 38): what the person types as `/word` reaches the agent as typed, `//word`
 * reaches it as its `/word` (how a command whose name the consumer takes for its own is reached), and the
 * agent's `available_commands_update` is reported to the client (`symposium/agentCommands`), per agent, the
 * latest list. Against the built bridge and the scripted agent, which answers a line it does not know with
 * `You said: <line>` and logs every prompt's blocks (`--prompt-log`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentCommandsParams, AgentDefinition, CommandPromptsParams } from '../../src/protocol/messages.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import { waitUntil } from '../fixtures/wait-until.js';
import { AgentBridge, SCRIPTED_AGENT, rejection, user } from './agent-bridge.js';

let bridge: AgentBridge;
let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'slash-commands-'))));
afterEach(async () => {
  await bridge.close();
  rmSync(dir, { recursive: true, force: true });
});

const scripted = (name: string, ...args: string[]): AgentDefinition => ({ mcp_server: { name, command: process.execPath, args: [SCRIPTED_AGENT, ...args], env: [] } });

/** The text of each prompt the agent received, in order. */
function promptsReceived(log: string): string[] {
  const lines = readFileSync(log, 'utf8').split('\n').filter((line) => line !== '');
  return lines.map((line) => (JSON.parse(line) as { type: string; text?: string }[]).map((block) => block.text ?? `[${block.type}]`).join('\n'));
}

test('a /command the consumer does not know reaches the agent as typed; //command reaches it as its /command', async () => {
  bridge = new AgentBridge();
  const log = path.join(dir, 'prompts.jsonl');
  const agent = scripted('scripted', '--prompt-log', log);

  const first = [user('/squawk loudly')];
  const squawked = await bridge.chat(first, agent);
  expect(textOfParts(squawked)).toBe('You said: /squawk loudly');

  const second = [...first, { role: 'assistant' as const, content: squawked }, user('//compact keep the tests')];
  expect(textOfParts(await bridge.chat(second, agent))).toBe('You said: /compact keep the tests');

  // Only a leading //word is the agent's command: other words are the person's, as typed.
  const third = [...second, { role: 'assistant' as const, content: [{ type: 'text' as const, value: 'You said: /compact keep the tests' }] }, user('see //compact, and // a comment')];
  expect(textOfParts(await bridge.chat(third, agent))).toBe('You said: see //compact, and // a comment');
  expect(promptsReceived(log)).toEqual(['/squawk loudly', '/compact keep the tests', 'see //compact, and // a comment']);
});

test("the agent's commands are reported once its session opens, and again when it lists others; per agent", async () => {
  bridge = new AgentBridge();
  const reports: AgentCommandsParams[] = [];
  bridge.client.onAgentCommands((params) => reports.push(params));
  const one = scripted('one', '--commands', 'squawk,review');

  // Sent just after session/new, outside every prompt (as Claude Code does): reported all the same.
  expect(textOfParts(await bridge.chat([user('say hi')], one))).toBe('hi');
  expect(await waitUntil(() => reports.length >= 1, 5000, 20)).toBe(true);
  expect(reports[0]).toEqual({
    agent: one,
    commands: [
      { name: 'squawk', description: 'Scripted squawk', hint: 'what to squawk' },
      { name: 'review', description: 'Scripted review', hint: 'what to review' },
    ],
  });

  // Listed during turns (by an agent whose new sessions list nothing), and changed: each list reported.
  const other = scripted('other');
  const ofOther = () => reports.filter((r) => JSON.stringify(r.agent) === JSON.stringify(other));
  expect(textOfParts(await bridge.chat([user('commands init,plan', 'say listed')], other))).toBe('listed');
  expect(await waitUntil(() => ofOther().length >= 1, 5000, 20)).toBe(true);
  expect(textOfParts(await bridge.chat([user('commands init', 'say listed again')], other))).toBe('listed again');
  expect(await waitUntil(() => ofOther().length >= 2, 5000, 20)).toBe(true);
  expect(ofOther().map((r) => r.commands.map((c) => c.name))).toEqual([['init', 'plan'], ['init']]);
  // The other agent's list is its own.
  expect(reports.filter((r) => JSON.stringify(r.agent) === JSON.stringify(one)).map((r) => r.commands.map((c) => c.name))).toEqual([['squawk', 'review']]);
});

test("symposium/commandPrompts serves the commands as an MCP server's prompts, whose text is the command as typed to reach the agent's own", async () => {
  bridge = new AgentBridge();
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const { PromptListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');

  const served = await bridge.client.commandPrompts({ commands: [{ name: 'review', description: 'Review the changes', hint: 'what to review' }, { name: 'compact', description: 'Compact the context' }] });
  const client = new Client({ name: 'test', version: '1' });
  let changes = 0;
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => void changes++);
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: served.authorization } } }));
  try {
    expect((await client.listPrompts()).prompts).toEqual([
      { name: 'review', description: 'Review the changes', arguments: [{ name: 'input', description: 'what to review', required: false }] },
      { name: 'compact', description: 'Compact the context' },
    ]);
    expect((await client.getPrompt({ name: 'review', arguments: { input: 'src/a.ts' } })).messages).toEqual([{ role: 'user', content: { type: 'text', text: '//review src/a.ts' } }]);
    expect((await client.getPrompt({ name: 'compact' })).messages).toEqual([{ role: 'user', content: { type: 'text', text: '//compact' } }]);

    // Another agent's list (the person picked another model): the same server, other prompts, and the client is told.
    const again = await bridge.client.commandPrompts({ commands: [{ name: 'init', description: 'Write AGENTS.md' }] });
    expect(again).toEqual(served);
    expect(await waitUntil(() => changes >= 1, 5000, 20)).toBe(true);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['init']);
  } finally {
    await client.close();
  }
  const invalid = await rejection(bridge.client.commandPrompts({ commands: [{ name: 'review' }] } as unknown as CommandPromptsParams));
  expect(invalid.code).toBe(ProtocolErrorCodes.InvalidParams);
  expect(invalid.message).toMatch(/params\.commands\[0\]\.description/);
});
