/**
 * How a tool's end reads in the answer (issue 37): its result's meaning in one plain line, whatever each real agent
 * wraps it in (`test/fixtures/tool-results.ts`), nothing left open that swallows what follows, a refusal said
 * once, in the bridge's words.
 */
import { TurnRendering } from '../../src/agents/acp/updates/update-parts.js';
import { briefOf } from '../../src/agents/acp/updates/render.js';
import { TOOL_RESULTS } from '../fixtures/tool-results.js';
import type { ToolCallContent } from '@agentclientprotocol/sdk';

const textOf = (parts: ReturnType<TurnRendering['partsOf']>): string => parts.map((p) => (p.type === 'text' ? p.value : '')).join('');
const text = (value: string): ToolCallContent => ({ type: 'content', content: { type: 'text', text: value } });

/** A tool's end as the answer shows it, after its start. */
function ended(rendering: TurnRendering, id: string, title: string, status: 'completed' | 'failed', content: ToolCallContent[]): string {
  rendering.partsOf({ sessionUpdate: 'tool_call', toolCallId: id, title, status: 'pending' });
  return textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: id, status, content }));
}

describe.each(TOOL_RESULTS)('$agent: $what', ({ title, status, content, line }) => {
  test('ends in one line saying what the result says, with no fence, tag or code span left open', () => {
    const shown = ended(new TurnRendering(), 't1', title, status, content);
    expect(shown).toBe(`\n\n${line}\n\n`);
    expect(shown).not.toContain('```');
    expect(shown).not.toMatch(/<\/?[a-z_]+>/);
    // Every code span closes: the only backticks are the pair around the title.
    expect(shown.match(/(?<!\\)`/g)).toHaveLength(2);
  });
});

test("a permission the person refused ends as refused by you, not in the agent's words, and only once", () => {
  const rendering = new TurnRendering();
  rendering.partsOf({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'touch notes.txt', status: 'pending' });
  rendering.refusedByPerson('t1');
  const refusal = text('```\nUser refused permission to run tool\n```');
  const shown = textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed', content: [refusal] }));
  expect(shown).toBe('\n\n> ✗ `touch notes.txt` refused by you\n\n');
  // Claude Code sends the refusal again with the tool's result: the tool ended once.
  expect(textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed', content: [refusal] }))).toBe('');
});

test('an action refused because nobody could be asked ends as not allowed in this chat', () => {
  const rendering = new TurnRendering();
  const permission = { toolCall: { toolCallId: 't1', title: 'touch x', kind: 'execute' as const }, options: [], actionId: 'a1' };
  expect(textOf([rendering.refusedPart(permission)])).toContain('Not allowed: the agent asked to');
  expect(textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'failed', content: [text('```\nUser refused permission to run tool\n```')] }))).toBe(
    '\n\n> ✗ `touch x` not allowed in this chat\n\n',
  );
});

test('a refusal does not change how the tool reads when it ran after all', () => {
  const rendering = new TurnRendering();
  rendering.partsOf({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'ls', status: 'pending' });
  rendering.refusedByPerson('t1');
  expect(textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [text('a.txt')] }))).toBe('\n\n> ✓ `ls`: a.txt\n\n');
});

test('a brief is the first line that says something, shortened, with what markdown would read escaped', () => {
  expect(briefOf([text('```\n\n```'), text('second block')])).toBe('second block');
  expect(briefOf([text('# Heading\nbody')])).toBe('Heading');
  expect(briefOf([text('> quoted *stars* and _under_ [link](x) <b>')])).toBe('quoted \\*stars\\* and \\_under\\_ \\[link\\](x)');
  expect(briefOf([text(`${'word '.repeat(40)}`)])).toBe(`${'word '.repeat(23)}word…`);
  // `__` within a word (an MCP tool's name) is no emphasis: kept, escaped; around words it is, and goes.
  expect(briefOf([text('__Found__ mcp__vscode-tools-1a__run_in_terminal')])).toBe('Found mcp\\_\\_vscode-tools-1a\\_\\_run\\_in\\_terminal');
  expect(briefOf([text('```')])).toBe('');
  expect(briefOf([])).toBe('');
  expect(briefOf([{ type: 'diff', path: '/w/my_file.ts', oldText: 'a', newText: 'b' }])).toBe('edited /w/my\\_file.ts');
});

test("a result that only repeats the tool's title is not shown twice", () => {
  expect(ended(new TurnRendering(), 't1', 'npm test', 'completed', [text('```console\nnpm test\n```')])).toBe('\n\n> ✓ `npm test`\n\n');
});
