/**
 * What the person attached or mentioned, per consumer shape, and how it reaches an ACP agent. The Copilot shapes
 * are those its prompt-tsx elements render (0.67: `ChatVariables`, `FileVariable`, `FolderVariable`,
 * `DiagnosticVariable`, `PromptFile`, `BinaryFileHexdump`, `NotebookCellOutputVariable`); Cline's and Roo Code's
 * those of their mention code (Cline 4.1.13's `<file_content>` inside `<user_input>`, Roo Code 3.52's
 * `[read_file for …]` texts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { applyContextPolicy, type ForwardedPart } from '../../src/history/context-policy.js';
import { ConversationTracker } from '../../src/history/conversations.js';
import { identityOf } from '../../src/history/normalize.js';
import { splitConsumerText } from '../../src/history/consumer-context.js';
import { attachmentBlocks, EmbeddingBudget, MAX_EMBEDDED_CHARS } from '../../src/agents/acp/session/attachment-blocks.js';
import { promptBlocks, turnAsk } from '../../src/agents/acp/session/prompt.js';
import { transcriptOf } from '../../src/agents/transcript.js';
import fc from 'fast-check';
import type { Message } from '../../src/protocol/messages.js';

const user = (value: string): Message => ({ role: 'user', content: [{ type: 'text', value }] });

/** A user message of Copilot's agent mode: the attachments, its own context (with no editor open), then the words. */
const copilot = (attachments: string, words: string): string =>
  `${attachments === '' ? '' : `<attachments>\n${attachments}\n</attachments>\n`}<context>\nThe current date is November 27, 2026.\n</context>\n<reminderInstructions>\nUse the edit tools.\n</reminderInstructions>\n<userRequest>\n${words}\n</userRequest>`;

/** A request Copilot Chat 0.67 sent in the real Chat view (test/fixtures/copilot/attachment-*.json, recorded by the real-host scenarios). */
const recorded = (consumer: 'copilot' | 'cline' | 'roo', name: string): Message[] =>
  (JSON.parse(readFileSync(path.resolve('test/fixtures', consumer, `${name}.json`), 'utf8')) as { messages: Message[] }).messages;
/** What the person's last message of a recorded request brings the agent under the default policy. */
const lastSaid = (messages: readonly Message[]): readonly ForwardedPart[] => applyContextPolicy(messages, 'user').at(-1)!.content;
/** The workspace of the recorded run, which its paths name. */
const workspaceOf = (messages: readonly Message[]): string => /(\/tmp\/symposium-vscode-\w+\/workspace)/.exec(JSON.stringify(messages))![1]!;

describe('Copilot Chat: what the person attached, from its <attachments> block', () => {
  test('a file (Add Context…, #file): its path and the text Copilot sent; the words alone are the request', () => {
    const text = copilot('<attachment id="a.ts" filePath="/ws/src/a.ts">\nexport const a = 1;\n</attachment>', 'explain the attached file');
    expect(splitConsumerText(text)).toMatchObject({ request: 'explain the attached file', attachments: [{ kind: 'file', path: '/ws/src/a.ts', text: 'export const a = 1;' }] });
  });

  test('a selection: the excerpt with its lines, its path from the summary of the whole file that follows it', () => {
    const excerpt = '<attachment id="a.ts:2-3">\nExcerpt from a.ts, lines 2 to 3:\n```typescript\nconst b = 2;\nconst c = 3;\n```\n</attachment>';
    const summary = '<attachment filePath="/ws/src/a.ts">\nUser\'s active file for additional context:\nconst a = 1;\nconst b = 2;\nconst c = 3;\n</attachment>';
    expect(splitConsumerText(copilot(`${excerpt}\n${summary}`, 'what does this do?')).attachments).toEqual([
      { kind: 'file', path: '/ws/src/a.ts', lines: { start: 2, end: 3 }, text: 'const b = 2;\nconst c = 3;' },
    ]);
  });

  test('a selection without a summary after it (the whole file selected) keeps the name Copilot gave', () => {
    const excerpt = '<attachment id="a.ts">\nExcerpt from a.ts, lines 1 to 1:\n```typescript\nconst a = 1;\n```\n</attachment>';
    expect(splitConsumerText(copilot(excerpt, 'why')).attachments).toEqual([{ kind: 'file', path: 'a.ts', lines: { start: 1, end: 1 }, text: 'const a = 1;' }]);
  });

  test('a file named with no text (contents omitted), a summarized file and a binary file are references only', () => {
    const omitted = '<attachment id="b.ts" filePath="/ws/src/b.ts" />';
    const summarized = '<attachment id="big.ts" isSummarized="true" filePath="/ws/src/big.ts">\nclass Big {\n\t/* Lines 2-900 omitted */\n}\n</attachment>';
    const binary = '<attachment id="file:data.bin" startByte=0 endByte=128 totalSize=4096 truncated=true>\n00000000: 00 01 02\n</attachment>';
    // A binary file's hexdump names it only by the reference's name.
    expect(splitConsumerText(copilot([omitted, summarized, binary].join('\n'), 'look')).attachments).toEqual([
      { kind: 'file', path: '/ws/src/b.ts' },
      { kind: 'file', path: '/ws/src/big.ts' },
      { kind: 'file', path: 'data.bin' },
    ]);
  });

  test('a folder, problems, a notebook cell output and a string value (a terminal selection)', () => {
    const folder = '<attachment id="src" folderPath="/ws/src">\nThe user attached the folder `/ws/src` which has the following structure: ```\na.ts\n```\n</attachment>';
    const problems = '<error path="/ws/src/a.ts" line=3 code="2304" severity="error">\nCannot find name \'x\'.\n</error>';
    const output = '<notebook-cell-output mimeType="text/plain" outputIndex=0 cellIndex=2 notebookPath="/ws/n.ipynb">\n42\n</notebook-cell-output>';
    const terminal = '<attachment id="terminalSelection">\nThe active terminal\'s selection:\n$ npm test\n</attachment>';
    expect(splitConsumerText(copilot([folder, problems, output, terminal].join('\n'), 'fix')).attachments).toEqual([
      { kind: 'folder', path: '/ws/src' },
      { kind: 'note', label: 'Output of cell 2 of the notebook /ws/n.ipynb', text: '42' },
      { kind: 'note', label: 'terminalSelection', text: "The active terminal's selection:\n$ npm test" },
      { kind: 'note', label: 'Problems', text: "/ws/src/a.ts:3 error 2304: Cannot find name 'x'." },
    ]);
  });

  test('a prompt file, rendered inside <userRequest> before the words, is an attachment and not words', () => {
    const words = '<attachment id="review" filePath="/ws/.github/prompts/review.prompt.md">\nPrompt instructions file:\nReview the code for bugs.\n</attachment>\nFollow instructions in #review';
    expect(splitConsumerText(copilot('', words))).toMatchObject({
      request: 'Follow instructions in #review',
      attachments: [{ kind: 'file', path: '/ws/.github/prompts/review.prompt.md', text: 'Review the code for bugs.' }],
    });
    // The same shape without the prompt file's first line is what the person typed.
    expect(splitConsumerText(copilot('', '<attachment id="x">mine</attachment> hi')).request).toBe('<attachment id="x">mine</attachment> hi');
  });

  test("the active editor Copilot names in <editorContext>, with the lines selected in it, is a link; the block's words stay out", () => {
    const text = "<editorContext>\nThe user's current file is /ws/src/a.ts. The current selection is from line 4 to line 9.\n</editorContext>\n<userRequest>\nwhy\n</userRequest>";
    expect(splitConsumerText(text)).toMatchObject({ request: 'why', attachments: [{ kind: 'file', path: '/ws/src/a.ts', lines: { start: 4, end: 9 } }] });
  });

  test("blocks of unknown shape stay out, and so does Copilot's own context (date, reminders)", () => {
    const text = copilot('<somethingNew id="x">\nnot known\n</somethingNew>', 'go');
    const { request, attachments } = splitConsumerText(text);
    expect(request).toBe('go');
    expect(attachments).toEqual([]);
    expect(applyContextPolicy([user(text)], 'user')).toEqual([{ role: 'user', content: [{ type: 'text', value: 'go' }] }]);
  });

  test('an attached file that itself contains the closing tags does not cut the block short', () => {
    const text = copilot('<attachment id="t.md" filePath="/ws/t.md">\nwrite </attachments> here\n</attachment>', 'read it');
    expect(splitConsumerText(text)).toMatchObject({ request: 'read it', attachments: [{ kind: 'file', path: '/ws/t.md', text: 'write </attachments> here' }] });
  });
});

describe('Copilot Chat 0.67 in the real Chat view (recorded requests)', () => {
  test('Add Context… and #file: the file with its text; the typed reference stays in the words', () => {
    const picked = recorded('copilot', 'attachment-file');
    const ws = workspaceOf(picked);
    const lines = (name: string): string => Array.from({ length: 10 }, (_, i) => `line ${i + 1} of ${name}`).join('\n');
    expect(lastSaid(picked)).toEqual([{ type: 'text', value: 'say got the picked file' }, { type: 'attachment', attachment: { kind: 'file', path: `${ws}/attach-picked.txt`, text: lines('attach-picked.txt') } }]);
    const typed = recorded('copilot', 'attachment-file-typed');
    expect(lastSaid(typed)).toEqual([
      { type: 'text', value: 'say got the typed file\n#file:attach-typed.txt' },
      { type: 'attachment', attachment: { kind: 'file', path: `${workspaceOf(typed)}/attach-typed.txt`, text: lines('attach-typed.txt') } },
    ]);
  });

  test('Add Selection to Chat: the lines once, though Copilot renders them twice and the editor names the file again', () => {
    const messages = recorded('copilot', 'attachment-selection');
    const text = ['line 3', 'line 4', 'line 5'].map((l) => `${l} of attach-selected.txt`).join('\n');
    expect(lastSaid(messages)).toEqual([
      { type: 'text', value: 'say got the selection' },
      { type: 'attachment', attachment: { kind: 'file', path: `${workspaceOf(messages)}/attach-selected.txt`, lines: { start: 3, end: 5 }, text } },
    ]);
  });

  test('#sym: the symbol\'s lines, its path from the summary after it', () => {
    const messages = recorded('copilot', 'attachment-symbol');
    expect(lastSaid(messages)).toEqual([
      { type: 'text', value: 'say got the symbol\n#sym:attachedSymbol' },
      { type: 'attachment', attachment: { kind: 'file', path: `${workspaceOf(messages)}/attach-symbol.ts`, lines: { start: 1, end: 3 }, text: 'export function attachedSymbol(): number {\n  return 42;\n}' } },
    ]);
  });

  test("the active editor's chip: a link when left in the input, the file with its text when added", () => {
    const left = recorded('copilot', 'attachment-active-editor');
    expect(lastSaid(left)).toEqual([{ type: 'text', value: 'say got the active editor' }, { type: 'attachment', attachment: { kind: 'file', path: `${workspaceOf(left)}/attach-active.txt` } }]);
    const added = recorded('copilot', 'attachment-active-editor-added');
    const [, attachment, ...more] = lastSaid(added);
    expect(attachment).toMatchObject({ type: 'attachment', attachment: { kind: 'file', path: `${workspaceOf(added)}/attach-active-added.txt`, text: expect.stringContaining('line 10 of attach-active-added.txt') } });
    expect(more).toEqual([]);
  });

  test('Add Folder to Chat: the folder; Problems: their lines (and the editor that shows them)', () => {
    const folder = recorded('copilot', 'attachment-folder');
    expect(lastSaid(folder)).toEqual([{ type: 'text', value: 'say got the folder' }, { type: 'attachment', attachment: { kind: 'folder', path: `${workspaceOf(folder)}/attach-folder` } }]);
    const problems = recorded('copilot', 'attachment-problems');
    const ws = workspaceOf(problems);
    expect(lastSaid(problems)).toEqual([
      { type: 'text', value: 'say got the problems' },
      { type: 'attachment', attachment: { kind: 'note', label: 'Problems', text: `${ws}/attach-broken.json:1 error 516: Value expected` } },
      { type: 'attachment', attachment: { kind: 'file', path: `${ws}/attach-broken.json` } },
    ]);
  });

  test('the next message continues the conversation, and the file Copilot renders again in the history is not sent again', () => {
    const tracker = new ConversationTracker({ newId: () => 'conv-1' });
    const first = tracker.decide({ id: 1, agentKey: 'a', messages: recorded('copilot', 'attachment-file') });
    if (first.kind !== 'turn') throw new Error(first.reason);
    tracker.recordPart(1, { type: 'text', value: 'got the picked file' });
    tracker.endTurn(1, true);
    const next = tracker.decide({ id: 2, agentKey: 'a', messages: recorded('copilot', 'attachment-file-next-message') });
    expect(next).toMatchObject({ kind: 'turn', conversationId: 'conv-1', isNew: false, canceled: false });
    if (next.kind !== 'turn') return;
    expect(applyContextPolicy(next.newMessages, 'user')).toEqual([{ role: 'user', content: [{ type: 'text', value: 'say next after the picked file' }] }]);
  });
});

describe('Cline 4.1.13 in the real host (recorded request)', () => {
  test('@/file in a new task: the words, and the file with its text', () => {
    expect(lastSaid(recorded('cline', 'mention-file'))).toEqual([
      { type: 'text', value: "'attach-mentioned.txt' (see below for file content) what does it say?\nsay got the mention" },
      { type: 'attachment', attachment: { kind: 'file', path: 'attach-mentioned.txt', text: 'the mentioned file says 42\n' } },
    ]);
  });
});

describe('Roo Code 3.52 in the real host (recorded request)', () => {
  test('@/file in a new task: the words, and the file with its text (its read_file text ends right before its environment details)', () => {
    const tracker = new ConversationTracker({ newId: () => 'conv-1' });
    const turn = tracker.decide({ id: 1, agentKey: 'a', messages: recorded('roo', 'mention-file') });
    if (turn.kind !== 'turn') throw new Error(turn.reason);
    expect(applyContextPolicy(turn.newMessages, 'user').at(-1)!.content).toEqual([
      { type: 'text', value: "'roo-mentioned.txt' what does it say?\nsay got the mention" },
      { type: 'attachment', attachment: { kind: 'file', path: 'roo-mentioned.txt', text: 'the mentioned file says 42\n' } },
    ]);
  });
});

describe('Cline and Roo Code: what the person @-mentioned', () => {
  test("Cline 4.x: a file inside <user_input>, its words without it", () => {
    const text = '<user_input mode="act">explain \'src/a.ts\' (see below for file content)\n\n<file_content path="src/a.ts">\nconst a = 1;\n\n</file_content></user_input>';
    expect(splitConsumerText(text)).toMatchObject({ request: "explain 'src/a.ts' (see below for file content)", attachments: [{ kind: 'file', path: 'src/a.ts', text: 'const a = 1;\n' }] });
  });

  test('Cline: a folder, problems, terminal output; a file it could not read is a reference only', () => {
    const text = [
      "look at 'src/' (see below for folder content) and Workspace Problems (see below for diagnostics) and 'gone.ts' (see below for file content)",
      '<folder_content path="src/">\n├── a.ts\n\n<file_content path="src/a.ts">\nconst a = 1;\n</file_content>\n</folder_content>',
      '<workspace_diagnostics>\nsrc/a.ts\n- [ts Error] 1 | x : Cannot find name \'x\'.\n</workspace_diagnostics>',
      '<terminal_output>\n$ npm test\nok\n</terminal_output>',
      '<file_content path="gone.ts">\nError fetching content: Failed to access path "gone.ts": ENOENT\n</file_content>',
    ].join('\n\n');
    expect(splitConsumerText(text).attachments).toEqual([
      { kind: 'folder', path: 'src/' },
      { kind: 'note', label: 'Problems in the workspace', text: "src/a.ts\n- [ts Error] 1 | x : Cannot find name 'x'." },
      { kind: 'note', label: 'Terminal output', text: '$ npm test\nok' },
      { kind: 'file', path: 'gone.ts' },
    ]);
  });

  test("Cline 4.x: files attached to a message after its note, which goes with them", () => {
    const text = 'summarise these\n\nFiles attached by the user:\n\n<file_content path="/ws/a.txt">\nhello\n</file_content>';
    expect(splitConsumerText(text)).toMatchObject({ request: 'summarise these', attachments: [{ kind: 'file', path: '/ws/a.txt', text: 'hello' }] });
  });

  test("Roo Code 3.52: a file as a read_file result of its own, joined after the words or in a message of its own", () => {
    const joined = "<user_message>\nexplain 'src/a.ts'\n</user_message>[read_file for 'src/a.ts']\nFile: src/a.ts\n1 | const a = 1;\n2 | const b = 2;\n";
    expect(splitConsumerText(joined)).toMatchObject({ request: "explain 'src/a.ts'", attachments: [{ kind: 'file', path: 'src/a.ts', text: 'const a = 1;\nconst b = 2;' }] });
    const alone = "[read_file for 'src/a.ts']\nFile: src/a.ts\n 9 | x\n10 | y";
    expect(splitConsumerText(alone)).toMatchObject({ request: '', attachments: [{ kind: 'file', path: 'src/a.ts', text: 'x\ny' }] });
  });

  test('Roo Code: a truncated or binary file is a reference only; a folder is a folder; problems after the words', () => {
    const truncated = "[read_file for 'big.ts']\nIMPORTANT: File content truncated.\nStatus: Showing lines 1-2000 of 9000 total lines.\n\nFile: big.ts\n1 | a";
    const binary = "[read_file for 'img.bin']\nNote: Binary file omitted from context.";
    const folder = "[read_file for 'src/']\nFolder: src/\n├── a.ts";
    const words = '<user_message>\nfix Workspace Problems (see below for diagnostics)\n</user_message>\n\n<workspace_diagnostics>\na.ts: error\n</workspace_diagnostics>';
    expect(splitConsumerText(words + truncated + binary + folder)).toMatchObject({
      request: 'fix Workspace Problems (see below for diagnostics)',
      attachments: [{ kind: 'note', label: 'Problems in the workspace', text: 'a.ts: error' }, { kind: 'file', path: 'big.ts' }, { kind: 'file', path: 'img.bin' }, { kind: 'folder', path: 'src/' }],
    });
  });

  test("Cline's and Roo's environment details stay out", () => {
    const text = '<user_input mode="act">go</user_input>\n<environment_details>\n# VSCode Visible Files\nsrc/a.ts\n</environment_details>';
    expect(applyContextPolicy([user(text)], 'user')).toEqual([{ role: 'user', content: [{ type: 'text', value: 'go' }] }]);
  });
});

describe('one conversation whatever a consumer does with earlier attachments', () => {
  test('a message is the same turn whether Copilot re-renders its attachments, renders others or drops them', () => {
    const first = user(copilot('<attachment id="a.ts" filePath="/ws/a.ts">\nv1\n</attachment>', 'explain'));
    const rerendered = user(copilot('<attachment id="a.ts" filePath="/ws/a.ts">\nv2, edited since\n</attachment>', 'explain'));
    const dropped = user('<userRequest>\nexplain\n</userRequest>');
    expect(identityOf(rerendered)).toEqual(identityOf(first));
    expect(identityOf(dropped)).toEqual(identityOf(first));
  });

  test('a prompt file Copilot renders inside the words of the current turn only is not part of its identity', () => {
    const now = user(copilot('', '<attachment id="r" filePath="/ws/r.prompt.md">\nPrompt instructions file:\nBe brief.\n</attachment>\nFollow instructions in #r'));
    expect(identityOf(user('<userRequest>\nFollow instructions in #r\n</userRequest>'))).toEqual(identityOf(now));
  });
});

describe('the context policies', () => {
  const text = copilot('<attachment id="a.ts" filePath="/ws/a.ts">\nconst a = 1;\n</attachment>', 'explain');
  const messages: Message[] = [{ role: 'system', content: [{ type: 'text', value: 'You are Copilot.' }] }, user(text)];
  const attached = { type: 'attachment', attachment: { kind: 'file', path: '/ws/a.ts', text: 'const a = 1;' } } as const;

  test('user: the words and the attachment; system: the system prompt too', () => {
    expect(applyContextPolicy(messages, 'user')).toEqual([{ role: 'user', content: [{ type: 'text', value: 'explain' }, attached] }]);
    expect(applyContextPolicy(messages, 'system')).toEqual([messages[0], { role: 'user', content: [{ type: 'text', value: 'explain' }, attached] }]);
  });

  test('everything: the text as sent (the file in it) and the attachment as a reference only', () => {
    expect(applyContextPolicy(messages, 'everything')).toEqual([messages[0], { role: 'user', content: [{ type: 'text', value: text }, { type: 'attachment', attachment: { kind: 'file', path: '/ws/a.ts' } }] }]);
  });

  test('an attachment without words is something the person said', () => {
    const ask = turnAsk(applyContextPolicy([user(copilot('<attachment id="a.ts" filePath="/ws/a.ts" />', ''))], 'user'));
    expect(ask.saysSomething).toBe(true);
  });
});

describe('what reaches the agent', () => {
  const root = '/ws';
  const embedding = { embeddedContext: true, root };
  const linking = { embeddedContext: false, root };

  test('a file with its text: a resource for an agent that takes embedded context', () => {
    expect(attachmentBlocks({ kind: 'file', path: 'src/a.ts', text: 'const a = 1;' }, embedding, new EmbeddingBudget())).toEqual([
      { type: 'resource', resource: { uri: 'file:///ws/src/a.ts', mimeType: 'text/x-typescript', text: 'const a = 1;' } },
    ]);
  });

  test('for one that does not: a link, and the text the person saw', () => {
    const [link, text] = attachmentBlocks({ kind: 'file', path: '/ws/src/a.ts', lines: { start: 2, end: 3 }, text: 'b\nc' }, linking, new EmbeddingBudget());
    expect(link).toEqual({ type: 'resource_link', uri: 'file:///ws/src/a.ts#L2:3', name: 'a.ts', title: 'a.ts, lines 2 to 3', mimeType: 'text/x-typescript' });
    expect(text).toEqual({ type: 'text', text: 'The text of a.ts, lines 2 to 3 as the person sees it (file:///ws/src/a.ts#L2:3):\n```\nb\nc\n```' });
  });

  test('a folder is a link; a note is text', () => {
    expect(attachmentBlocks({ kind: 'folder', path: 'src/' }, embedding, new EmbeddingBudget())).toEqual([
      { type: 'resource_link', uri: 'file:///ws/src', name: 'src', mimeType: 'inode/directory', description: 'A folder the person attached.' },
    ]);
    expect(attachmentBlocks({ kind: 'note', label: 'Problems', text: 'a.ts:1 error' }, embedding, new EmbeddingBudget())).toEqual([{ type: 'text', text: 'Problems, as the person attached it:\na.ts:1 error' }]);
  });

  test('bad input is a link the agent may or may not read; the bridge reads nothing', () => {
    const links = (path: string): unknown[] => attachmentBlocks({ kind: 'file', path }, embedding, new EmbeddingBudget());
    expect(links('/etc/passwd')).toEqual([{ type: 'resource_link', uri: 'file:///etc/passwd', name: 'passwd' }]);
    expect(links('../outside/x.ts')).toEqual([{ type: 'resource_link', uri: 'file:///outside/x.ts', name: 'x.ts', mimeType: 'text/x-typescript' }]);
    expect(links('src/../../up.txt')).toEqual([{ type: 'resource_link', uri: 'file:///up.txt', name: 'up.txt', mimeType: 'text/plain' }]);
    expect(links('does/not/exist.bin')).toEqual([{ type: 'resource_link', uri: 'file:///ws/does/not/exist.bin', name: 'exist.bin' }]);
    expect(links('untitled:Untitled-1')).toEqual([{ type: 'resource_link', uri: 'untitled:Untitled-1', name: 'untitled:Untitled-1' }]);
    // A symlink is named as the person named it: where it leads is the agent's to find, if it reads it.
    expect(links('src/link-to-secrets')).toEqual([{ type: 'resource_link', uri: 'file:///ws/src/link-to-secrets', name: 'link-to-secrets' }]);
  });

  test('text shaped like any consumer\'s markup, however broken, is read without a throw and gives blocks', () => {
    const fragment = fc.constantFrom(
      '<attachments>', '</attachments>', '<attachment id="a" filePath="/ws/a.ts">', '<attachment folderPath="/ws/d" />', '</attachment>',
      'Excerpt from a.ts, lines 2 to 1:\n```ts\n', '```', '<error path="p" line=x>', '</error>', '<userRequest>', '</userRequest>',
      '<editorContext>The user\'s current file is . </editorContext>', '<file_content path="">', '</file_content>', "[read_file for '", "']\nFile: ",
      ' 1 | ', '\n', 'x', '"', '<', '>', 'Prompt instructions file:', '<user_input mode="act">', '</user_input>',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        for (const attachment of splitConsumerText(text).attachments) {
          expect(attachmentBlocks(attachment, embedding, new EmbeddingBudget()).length).toBeGreaterThan(0);
          expect(attachmentBlocks(attachment, linking, new EmbeddingBudget()).length).toBeGreaterThan(0);
        }
      }),
      { seed: 36, numRuns: 500 },
    );
  });

  test('past the budget, text goes no further: a 20 MB file the consumer sent whole is a link', () => {
    const huge = 'x'.repeat(20 * 1024 * 1024);
    expect(attachmentBlocks({ kind: 'file', path: 'big.txt', text: huge }, embedding, new EmbeddingBudget())).toEqual([{ type: 'resource_link', uri: 'file:///ws/big.txt', name: 'big.txt', mimeType: 'text/plain' }]);
    const budget = new EmbeddingBudget();
    const half = 'y'.repeat(MAX_EMBEDDED_CHARS / 2 + 1);
    expect(attachmentBlocks({ kind: 'file', path: 'one.txt', text: half }, embedding, budget)[0]).toMatchObject({ type: 'resource' });
    expect(attachmentBlocks({ kind: 'file', path: 'two.txt', text: half }, embedding, budget)[0]).toMatchObject({ type: 'resource_link' });
  });

  test('a turn: what the session is told first, the words, then the attachments', () => {
    const messages = applyContextPolicy([user(copilot('<attachment id="a.ts" filePath="/ws/a.ts">\nconst a = 1;\n</attachment>', 'explain'))], 'user');
    expect(promptBlocks(turnAsk(messages), ['told first'], { images: false, ...embedding })).toEqual([
      { type: 'text', text: 'told first' },
      { type: 'text', text: 'explain' },
      { type: 'resource', resource: { uri: 'file:///ws/a.ts', mimeType: 'text/x-typescript', text: 'const a = 1;' } },
    ]);
  });

  test('a session told the conversation so far is told earlier attachments as references', () => {
    const history = applyContextPolicy(
      [user(copilot('<attachment id="a.ts" filePath="/ws/a.ts">\nconst a = 1;\n</attachment>', 'explain')), { role: 'assistant', content: [{ type: 'text', value: 'It sets a.' }] }],
      'user',
    );
    const told = transcriptOf(history)!;
    expect(told).toContain('User: explain\n[attached: file /ws/a.ts]');
    expect(told).not.toContain('const a = 1;');
  });
});
