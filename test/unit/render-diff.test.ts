import { TurnRendering } from '../../src/agents/acp/updates/update-parts.js';
import { diffBlock } from '../../src/agents/acp/updates/render.js';

const textOf = (parts: ReturnType<TurnRendering['partsOf']>): string => parts.map((p) => (p.type === 'text' ? p.value : '')).join('');

test('a diff block is the unified diff of the change, fenced as diff', () => {
  expect(diffBlock('/w/a.ts', 'one\ntwo\nthree\n', 'one\n2\nthree\n')).toBe('\n\n```diff\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n```\n\n');
  expect(diffBlock('/w/new.ts', undefined, 'hello\n')).toBe('\n\n```diff\n@@ -0,0 +1,1 @@\n+hello\n```\n\n');
});

test('a diff holding a fence gets a longer one; a long diff is cut', () => {
  expect(diffBlock('/w/a.md', '', '```ts\nx\n```\n')).toMatch(/^\n\n````diff\n[\s\S]*\n````\n\n$/);
  const long = Array.from({ length: 200 }, (_, i) => `line ${i}`).join('\n');
  const block = diffBlock('/w/b.txt', '', long);
  // 200 added lines, the hunk's header and the mark of no newline at the end: 202, of which 80 show.
  expect(block).toContain('… 122 more lines');
  expect(block.split('\n').length).toBeLessThan(90);
});

test("a tool's end shows the diffs of what the agent changed by itself, not of edits VS Code showed", () => {
  const rendering = new TurnRendering();
  const diff = (path: string) => ({ type: 'diff' as const, path, oldText: 'a\n', newText: 'b\n' });
  rendering.partsOf({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit a.ts', status: 'pending' });
  const ended = textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [diff('/w/a.ts')] }));
  expect(ended).toContain('✓ `Edit a.ts`: edited /w/a.ts');
  expect(ended).toContain('```diff\n@@ -1,1 +1,1 @@\n-a\n+b\n```');

  rendering.reviewedInConsumer('/w/b.ts');
  rendering.partsOf({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Edit b.ts', status: 'pending' });
  const reviewed = textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't2', status: 'completed', content: [diff('/w/b.ts')] }));
  expect(reviewed).toContain('edited /w/b.ts');
  expect(reviewed).not.toContain('```diff');

  rendering.partsOf({ sessionUpdate: 'tool_call', toolCallId: 't3', title: 'Edit c.ts', status: 'pending' });
  expect(textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't3', status: 'failed', content: [diff('/w/c.ts')] }))).not.toContain('```diff');
});

test("a diff sent with the call shows at its end, which carries no content (an update without content keeps it, as Codex relies on)", () => {
  const rendering = new TurnRendering();
  const diff = { type: 'diff' as const, path: '/w/greeting.txt', oldText: 'hello\nbefore\n', newText: 'hello\nafter\n' };
  expect(textOf(rendering.partsOf({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Editing files', kind: 'edit', status: 'in_progress', content: [diff] }))).not.toContain('```diff');
  const ended = textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' }));
  expect(ended).toContain('✓ `Editing files`: edited /w/greeting.txt');
  expect(ended).toContain('```diff\n@@ -1,2 +1,2 @@\n hello\n-before\n+after\n```');
  // Content sent later replaces it; content: null leaves it (omitted and null are the same in ACP).
  rendering.partsOf({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Edit', status: 'in_progress', content: [diff] });
  rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't2', content: [{ type: 'content', content: { type: 'text', text: 'no change after all' } }] });
  const replaced = textOf(rendering.partsOf({ sessionUpdate: 'tool_call_update', toolCallId: 't2', status: 'completed', content: null }));
  expect(replaced).toContain('no change after all');
  expect(replaced).not.toContain('```diff');
});
