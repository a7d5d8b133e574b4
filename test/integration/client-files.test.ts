/**
 * The workspace's files offered to agents (ACP `fs/*`) through the real bridge: the built `symposium-lm
 * vscodelm` driven by LmClient as the extension drives it (answering `symposium/documentText` with what its
 * editor shows), and the scripted agent reading and writing with its `read` and `write` commands. A write
 * becomes a call of the consumer's own edit tool when the request offers one, which the test then runs as
 * Copilot would; otherwise the bridge writes the file.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { textOfParts } from '../../src/client/lm-client.js';
import type { AgentDefinition, Message, ResponsePart, ToolDefinition } from '../../src/protocol/messages.js';
import { AgentBridge, CREATE_FILE, REPLACE_STRING, SCRIPTED_AGENT, replied, resultOf, toolCallsOf, user } from './agent-bridge.js';

const AGENT: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http'], env: [] } };

const EDIT_TOOLS = [CREATE_FILE, REPLACE_STRING];
/** Roo Code's edit tools (3.52, Code mode). */
const ROO_EDITS: ToolDefinition[] = [
  { name: 'write_to_file', description: 'Writes a file', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } },
  { name: 'apply_diff', description: 'Applies SEARCH/REPLACE blocks', inputSchema: { type: 'object', properties: { path: { type: 'string' }, diff: { type: 'string' } } } },
];

/** Roo's apply_diff as far as these tests go: each block's lines found at its start line and replaced (markers unescaped). */
function applyDiff(text: string, diff: string): string {
  const lines = text.split('\n');
  const unescape = (side: string) => (side === '' ? [] : side.split('\n').map((l) => l.replace(/^\\(<<<<<<<|=======|>>>>>>>|-------|:start_line:|:end_line:)/, '$1')));
  for (const [, start, search, replace] of diff.matchAll(/<<<<<<< SEARCH\n:start_line:(\d+)\n-------\n([\s\S]*?)\n=======\n([\s\S]*?)\n?>>>>>>> REPLACE/g)) {
    const from = Number(start) - 1;
    const found = unescape(search!);
    expect(lines.slice(from, from + found.length)).toEqual(found);
    lines.splice(from, found.length, ...unescape(replace!));
  }
  return lines.join('\n');
}


let workspace: string;
let bridge: AgentBridge;
/** What the test's "editor" shows: files open with unsaved text. */
let editor: Map<string, string>;

function startBridge(args: string[] = []): AgentBridge {
  const started = new AgentBridge(['--cwd', workspace, ...args]);
  started.client.onDocumentText((file) => editor.get(file));
  return started;
}

beforeEach(() => {
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'symposium-files-')));
  editor = new Map();
  bridge = startBridge();
});

afterEach(async () => {
  await bridge.close();
  rmSync(workspace, { recursive: true, force: true });
});

/** Runs the edit call the way Copilot's tools do: `create_file` writes a new file, `replace_string_in_file` replaces the editor's text. */
function runEdit(parts: readonly ResponsePart[]): { readonly toolCallId: string; readonly name: string } {
  const [call] = toolCallsOf(parts);
  expect(call).toBeDefined();
  const args = call!.parameters as { filePath: string; content?: string; oldString?: string; newString?: string };
  if (call!.toolName === 'create_file') writeFileSync(args.filePath, args.content ?? '');
  else {
    const current = editor.get(args.filePath) ?? readFileSync(args.filePath, 'utf8');
    const edited = current.replace(args.oldString ?? '', args.newString ?? '');
    writeFileSync(args.filePath, edited);
    if (editor.has(args.filePath)) editor.set(args.filePath, edited);
  }
  return { toolCallId: call!.toolCallId, name: call!.toolName };
}

describe('writes', () => {
  test("a new file is made by the consumer's create_file, and the agent goes on once it ran", async () => {
    const first = [user('write notes.txt "first line\\nsecond line"')];
    const asked = await bridge.chat(first, AGENT, EDIT_TOOLS);
    const file = path.join(workspace, 'notes.txt');
    expect(toolCallsOf(asked)).toEqual([{ type: 'tool_call', toolCallId: expect.any(String), toolName: 'create_file', parameters: { filePath: file, content: 'first line\nsecond line' } }]);
    expect(existsSync(file)).toBe(false);

    const { toolCallId } = runEdit(asked);
    const rest = await bridge.chat([...first, replied(asked), resultOf(toolCallId, `The following files were successfully edited:\n${file}\n`)], AGENT, EDIT_TOOLS);
    expect(textOfParts(rest)).toBe('wrote notes.txt');
    expect(readFileSync(file, 'utf8')).toBe('first line\nsecond line');
  });

  test("a change to an existing file replaces what the editor shows, unsaved changes included", async () => {
    const file = path.join(workspace, 'main.ts');
    writeFileSync(file, 'saved text\n');
    editor.set(file, 'unsaved text\n');
    const first = [user('write main.ts "new text\\n"')];
    const asked = await bridge.chat(first, AGENT, EDIT_TOOLS);
    expect(toolCallsOf(asked).map((c) => [c.toolName, c.parameters])).toEqual([['replace_string_in_file', { filePath: file, oldString: 'unsaved text\n', newString: 'new text\n' }]]);

    const { toolCallId } = runEdit(asked);
    const rest = await bridge.chat([...first, replied(asked), resultOf(toolCallId, 'edited')], AGENT, EDIT_TOOLS);
    expect(textOfParts(rest)).toBe('wrote main.ts');
  });

  test('an edit tool that did not change the file fails the write, with what the tool said', async () => {
    const first = [user('write notes.txt hello')];
    const asked = await bridge.chat(first, AGENT, EDIT_TOOLS);
    const [call] = toolCallsOf(asked);
    const rest = await bridge.chat([...first, replied(asked), resultOf(call!.toolCallId, 'ERROR: the file is read-only')], AGENT, EDIT_TOOLS);
    expect(textOfParts(rest)).toBe(`write failed notes.txt: Internal error: VS Code's create_file did not write ${path.join(workspace, 'notes.txt')}: ERROR: the file is read-only`);
  });

  test('a person who moves on from the edit to say something else leaves the file unwritten, and is answered', async () => {
    const first = [user('write notes.txt hello')];
    const asked = await bridge.chat(first, AGENT, EDIT_TOOLS);
    const next = await bridge.chat([...first, replied(asked), user('say something else')], AGENT, EDIT_TOOLS);
    expect(textOfParts(next)).toBe('something else');
    expect(existsSync(path.join(workspace, 'notes.txt'))).toBe(false);
  });

  test("where the request offers Roo Code's write_to_file, the write is a call of it, the path relative to the workspace", async () => {
    const roo = [{ name: 'write_to_file', description: 'Writes a file', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } }];
    const first = [user('write docs/notes.md "# Notes\\n"')];
    const asked = await bridge.chat(first, AGENT, roo);
    const [call] = toolCallsOf(asked);
    expect(call).toMatchObject({ toolName: 'write_to_file', parameters: { path: path.join('docs', 'notes.md'), content: '# Notes\n' } });
    // Roo writes it once the person chose Save.
    mkdirSync(path.join(workspace, 'docs'));
    writeFileSync(path.join(workspace, 'docs', 'notes.md'), '# Notes\n');
    const rest = await bridge.chat([...first, replied(asked), resultOf(call!.toolCallId, '{"path":"docs/notes.md","operation":"created"}')], AGENT, roo);
    expect(textOfParts(rest)).toBe('wrote docs/notes.md');
  });

  test("where the request offers no edit tool (Cline's Act mode, the CLI) the bridge writes the file", async () => {
    const parts = await bridge.chat([user('write sub/dir/notes.txt hello')], AGENT, []);
    expect(textOfParts(parts)).toBe('wrote sub/dir/notes.txt');
    expect(readFileSync(path.join(workspace, 'sub/dir/notes.txt'), 'utf8')).toBe('hello');
  });

  test("in a mode that changes nothing (Copilot's Ask, Roo's Ask, Cline's Plan) a write no edit tool of the consumer reviews is refused, and nothing is written", async () => {
    const askMode: Message = { role: 'system', content: [{ type: 'text', value: '<modeInstructions>\nYou are currently running in "Ask" mode.\n</modeInstructions>' }] };
    const parts = await bridge.chat([askMode, user('write notes.txt hello')], AGENT, []);
    expect(textOfParts(parts)).toMatch(/^write failed notes\.txt: .*was not written: the chat is in a mode that changes nothing/);
    expect(existsSync(path.join(workspace, 'notes.txt'))).toBe(false);
  });

  test("an existing file changed where Roo offers apply_diff is one SEARCH/REPLACE block of the lines that changed, Roo's path relative", async () => {
    const file = path.join(workspace, 'main.ts');
    writeFileSync(file, 'one\ntwo\nthree\n');
    const first = [user('write main.ts "one\\n2\\nthree\\n"')];
    const asked = await bridge.chat(first, AGENT, ROO_EDITS);
    const [call] = toolCallsOf(asked);
    expect(call).toMatchObject({ toolName: 'apply_diff', parameters: { path: 'main.ts', diff: '<<<<<<< SEARCH\n:start_line:2\n-------\ntwo\n=======\n2\n>>>>>>> REPLACE' } });
    writeFileSync(file, applyDiff(readFileSync(file, 'utf8'), (call!.parameters as { diff: string }).diff));
    const rest = await bridge.chat([...first, replied(asked), resultOf(call!.toolCallId, '{"path":"main.ts","operation":"modified"}')], AGENT, ROO_EDITS);
    expect(textOfParts(rest)).toBe('wrote main.ts');
    expect(readFileSync(file, 'utf8')).toBe('one\n2\nthree\n');
  });

  test('a diff Roo could not apply is made once more with write_to_file, the whole text; one the person denied is not', async () => {
    const file = path.join(workspace, 'main.ts');
    writeFileSync(file, 'one\ntwo\n');
    const first = [user('write main.ts "one\\n2\\n"')];
    const asked = await bridge.chat(first, AGENT, ROO_EDITS);
    const [diff] = toolCallsOf(asked);
    const failed = resultOf(diff!.toolCallId, 'Unable to apply diff to file: main.ts\n\n<error_details>\nNo sufficiently similar match found\n</error_details>');
    const retried = await bridge.chat([...first, replied(asked), failed], AGENT, ROO_EDITS);
    const [whole] = toolCallsOf(retried);
    expect(whole).toMatchObject({ toolName: 'write_to_file', parameters: { path: 'main.ts', content: 'one\n2\n' } });
    writeFileSync(file, 'one\n2\n');
    const rest = await bridge.chat([...first, replied(asked), failed, replied(retried), resultOf(whole!.toolCallId, '{"path":"main.ts","operation":"modified"}')], AGENT, ROO_EDITS);
    expect(textOfParts(rest)).toBe('wrote main.ts');

    const again = [user('write main.ts "one\\nthree\\n"')];
    const second = await bridge.chat(again, AGENT, ROO_EDITS);
    const [denied] = toolCallsOf(second);
    expect(denied).toMatchObject({ toolName: 'apply_diff' });
    const answer = await bridge.chat([...again, replied(second), resultOf(denied!.toolCallId, '{"status":"denied","message":"The user denied this operation."}')], AGENT, ROO_EDITS);
    expect(toolCallsOf(answer)).toEqual([]);
    expect(textOfParts(answer)).toMatch(/^write failed main\.ts: .*apply_diff did not write/);
    expect(readFileSync(file, 'utf8')).toBe('one\n2\n');

    // Nor one Roo's mode may not make (Architect edits Markdown only): the whole text would be refused alike.
    const third = [user('write main.ts "one\\nfour\\n"')];
    const restricted = await bridge.chat(third, AGENT, ROO_EDITS);
    const [call] = toolCallsOf(restricted);
    const refusal = "The tool execution failed with the following error:\n<error>\nThis mode (🏗️ Architect) can only edit files matching pattern: \\.md$ (Markdown files only). Got: main.ts\n</error>";
    const told = await bridge.chat([...third, replied(restricted), resultOf(call!.toolCallId, refusal)], AGENT, ROO_EDITS);
    expect(toolCallsOf(told)).toEqual([]);
    expect(textOfParts(told)).toMatch(/^write failed main\.ts: [\s\S]*can only edit files matching pattern/);
  });

  test('a write outside the workspace is refused, naming the path', async () => {
    const outside = path.join(path.dirname(workspace), `outside-${path.basename(workspace)}.txt`);
    const parts = await bridge.chat([user(`write ${outside} hello`)], AGENT, EDIT_TOOLS);
    expect(textOfParts(parts)).toMatch(new RegExp(`^write failed ${outside}: .*${outside} is not an absolute path inside the workspace`));
    expect(existsSync(outside)).toBe(false);
  });

  test('with --client-files off the agent is offered no file system and writes by itself', async () => {
    await bridge.close();
    bridge = startBridge(['--client-files', 'off']);
    const parts = await bridge.chat([user('write notes.txt hello')], AGENT, EDIT_TOOLS);
    expect(textOfParts(parts)).toBe('wrote notes.txt (itself)');
  });
});

describe('agents that write by themselves', () => {
  const DISALLOWED = { claudeCode: { options: { disallowedTools: ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'] } } };

  test("a session opened where the consumer offers edit tools tells Claude Code to leave its own write tools to them", async () => {
    expect(JSON.parse(textOfParts(await bridge.chat([user('session-meta')], AGENT, EDIT_TOOLS)))).toEqual(DISALLOWED);
  });

  test('a session resumed after it idled out is told again', async () => {
    await bridge.close();
    bridge = startBridge(['--session-idle-ms', '200']);
    const resumable: AgentDefinition = { mcp_server: { name: 'scripted', command: process.execPath, args: [SCRIPTED_AGENT, '--mcp-http', '--resume-session', '--close-session'], env: [] } };
    const first = [user('session-meta')];
    const opened = await bridge.chat(first, resumable, EDIT_TOOLS);
    expect(JSON.parse(textOfParts(opened))).toEqual(DISALLOWED);
    expect(await bridge.logged(/session\/close scripted-session/, 5000)).toMatch(/session\/close scripted-session/);
    const again = await bridge.chat([...first, replied(opened), user('session-meta')], resumable, EDIT_TOOLS);
    expect(bridge.stderr()).toMatch(/resumed ACP session .* \(session\/resume\)/);
    expect(JSON.parse(textOfParts(again))).toEqual(DISALLOWED);
  });

  test('without the edit tools, or with --client-files off, it tells nothing', async () => {
    expect(JSON.parse(textOfParts(await bridge.chat([user('session-meta')], AGENT, [CREATE_FILE])))).toBeNull();
    await bridge.close();
    bridge = startBridge(['--client-files', 'off']);
    expect(JSON.parse(textOfParts(await bridge.chat([user('session-meta')], AGENT, EDIT_TOOLS)))).toBeNull();
  });
});

describe('reads', () => {
  test('an open file reads as the editor shows it; another as on disk; line and limit pick lines', async () => {
    const open = path.join(workspace, 'open.ts');
    writeFileSync(open, 'on disk\n');
    editor.set(open, 'typed but not saved\n');
    writeFileSync(path.join(workspace, 'closed.ts'), 'one\ntwo\nthree\nfour\n');
    const parts = await bridge.chat([user('read open.ts', 'read closed.ts', 'read closed.ts 2 2')], AGENT, []);
    expect(textOfParts(parts)).toBe(['read open.ts: "typed but not saved\\n"', 'read closed.ts: "one\\ntwo\\nthree\\nfour\\n"', 'read closed.ts: "two\\nthree"'].join(''));
  });

  test('a missing file, a file outside the workspace and a line 0 are errors the agent can read', async () => {
    const parts = await bridge.chat([user('read missing.ts', 'read /etc/hostname', 'read missing.ts 0')], AGENT, []);
    const text = textOfParts(parts);
    expect(text).toContain(`read failed missing.ts: Resource not found: ${path.join(workspace, 'missing.ts')}`);
    expect(text).toContain('read failed /etc/hostname: Invalid params');
    expect(text).toMatch(/read failed missing\.ts: Invalid params.*line/);
  });
});
