/**
 * A command's output in the answer (issue 46): whole, in a block, live as the agent streams it under
 * `_meta.terminal_output` (codex-acp in chunks, claude-agent-acp at the end), bounded, and closed before anything
 * else the answer shows; an agent that sends it as the result's text gets it whole too.
 */
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import { TurnRendering } from '../../src/agents/acp/updates/update-parts.js';
import { MAX_BYTES, MAX_LINES, TerminalBlocks } from '../../src/agents/acp/updates/terminal-output.js';

const textOf = (parts: readonly { type: string; value?: unknown }[]): string => parts.map((p) => (p.type === 'text' ? String(p.value) : '')).join('');

/** claude-agent-acp 0.100 to a client that declares `_meta.terminal_output` (tool-calls/renderer.js). */
const started = (id: string, command: string): SessionUpdate => ({
  sessionUpdate: 'tool_call',
  toolCallId: id,
  title: command,
  kind: 'execute',
  status: 'pending',
  content: [{ type: 'terminal', terminalId: id }],
  _meta: { terminal_info: { terminal_id: id } },
});
const output = (id: string, data: string): SessionUpdate => ({ sessionUpdate: 'tool_call_update', toolCallId: id, _meta: { terminal_output: { terminal_id: id, data } } });
const exited = (id: string, status: 'completed' | 'failed', code: number): SessionUpdate => ({
  sessionUpdate: 'tool_call_update',
  toolCallId: id,
  status,
  content: [{ type: 'terminal', terminalId: id }],
  _meta: { terminal_info: { terminal_id: id }, terminal_exit: { terminal_id: id, exit_code: code, signal: null } },
});
const said = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

test("Claude Code's command: its output whole in a block between the start and the end line", () => {
  const r = new TurnRendering();
  const shown = [started('t1', 'npm test'), output('t1', 'line 1\nline 2\nok\n'), exited('t1', 'completed', 0)].map((u) => textOf(r.partsOf(u)));
  expect(shown.join('')).toBe('\n\n> 🔧 `npm test`\n\n\n\n~~~~console\nline 1\nline 2\nok\n~~~~\n\n\n\n> ✓ `npm test`\n\n');
});

test("Codex's chunks show as they come, each its own part; a failed command says so after its output", () => {
  const r = new TurnRendering();
  r.partsOf(started('c1', 'Run make'));
  expect(textOf(r.partsOf(output('c1', 'compiling')))).toBe('\n\n~~~~console\ncompiling');
  expect(textOf(r.partsOf(output('c1', '…\nerror: x\n')))).toBe('…\nerror: x\n');
  // The line left open is closed with the block.
  expect(textOf(r.partsOf(output('c1', 'make: *** failed')))).toBe('make: *** failed');
  expect(textOf(r.partsOf(exited('c1', 'failed', 2)))).toBe('\n~~~~\n\n\n\n> ✗ `Run make` failed\n\n');
});

test('anything else shown while a block is open closes it first; more output opens another', () => {
  const r = new TurnRendering();
  r.partsOf(started('t1', 'server'));
  r.partsOf(output('t1', 'listening\n'));
  expect(textOf(r.partsOf(said('It started.')))).toBe('~~~~\n\nIt started.');
  expect(textOf(r.partsOf(output('t1', 'GET /\n')))).toBe('\n\n~~~~console\nGET /\n');
  // A permission asked meanwhile (a tool call part) closes it too.
  const permission = { toolCall: { toolCallId: 'p1', title: 'touch x', kind: 'execute' as const }, options: [], actionId: 'a1' };
  const parts = r.afterOutput([r.permissionPart(permission)]);
  expect(parts.map((p) => p.type)).toEqual(['text', 'tool_call']);
  expect(textOf(parts)).toBe('~~~~\n\n');
  // And a response that ends with a block open closes it.
  r.partsOf(output('t1', 'GET /a\n'));
  expect(textOf(r.endOfResponse())).toBe('~~~~\n\n');
  expect(r.endOfResponse()).toEqual([]);
});

test(`bounded: the first ${MAX_LINES} lines are shown, the rest counted at the end`, () => {
  const r = new TurnRendering();
  r.partsOf(started('t1', 'seq 250'));
  const lines = Array.from({ length: 250 }, (_, i) => `${i + 1}\n`);
  const shown = [...lines.slice(0, 100), lines.slice(100).join('')].map((chunk) => textOf(r.partsOf(output('t1', chunk)))).join('') + textOf(r.partsOf(exited('t1', 'completed', 0)));
  expect(shown).toContain('\n200\n~~~~\n');
  expect(shown).not.toContain('\n201\n');
  expect(shown).toContain('… 50 more lines (200 bytes) not shown');
});

test('50 MB of output: at most the bound is shown, and what was not is said', () => {
  const blocks = new TerminalBlocks();
  const megabyte = `${'x'.repeat(99)}\n`.repeat(10_486);
  let shown = '';
  for (let i = 0; i < 50; i++) shown += blocks.chunk('t1', megabyte);
  shown += blocks.end('t1');
  expect(Buffer.byteLength(shown)).toBeLessThan(MAX_BYTES + 200);
  expect(shown).toMatch(/… \d+ more lines \(51\d{3} KB\) not shown/);
  // One line longer than the bound shows as much of it as fits.
  const long = new TerminalBlocks();
  expect(long.chunk('t2', 'y'.repeat(MAX_BYTES * 2)).length).toBeLessThan(MAX_BYTES + 40);
  expect(long.end('t2')).toContain('… 1 more line (20 KB) not shown');
});

test("output that holds a fence does not end the block: backticks stay, a line of four tildes is kept from closing it", () => {
  const blocks = new TerminalBlocks();
  const shown = blocks.chunk('t1', '```js\ncode\n```\n~~~~\n') + blocks.end('t1');
  expect(shown).toBe('\n\n~~~~console\n```js\ncode\n```\n\u200b~~~~\n~~~~\n\n');
});

test("an agent that sends a command's output as its result's text (Gemini CLI, Qwen Code, OpenCode) gets it whole too, without its fence", () => {
  const text = (value: string): ToolCallContent => ({ type: 'content', content: { type: 'text', text: value } });
  const r = new TurnRendering();
  r.partsOf({ sessionUpdate: 'tool_call', toolCallId: 'g1', title: 'ls', kind: 'execute', status: 'pending' });
  expect(textOf(r.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 'g1', status: 'completed', content: [text('```sh\nREADME.md\nsrc\n```')] }))).toBe(
    '\n\n~~~~console\nREADME.md\nsrc\n~~~~\n\n\n\n> ✓ `ls`\n\n',
  );
  // A refused command still ends in one line, in the bridge's words.
  r.partsOf({ sessionUpdate: 'tool_call', toolCallId: 'g2', title: 'rm x', kind: 'execute', status: 'pending' });
  r.refusedByPerson('g2');
  expect(textOf(r.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 'g2', status: 'failed', content: [text('Tool "run_shell_command" was canceled by the user.')] }))).toBe('\n\n> ✗ `rm x` refused by you\n\n');
});
