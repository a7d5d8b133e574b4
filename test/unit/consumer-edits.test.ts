import { changedLines, consumerEdit, offersEditTools, searchReplaceBlock } from '../../src/tools/consumer-edits.js';

const COPILOT = ['read_file', 'create_file', 'replace_string_in_file', 'run_in_terminal'];

test('a new or empty file is created with create_file', () => {
  expect(consumerEdit(COPILOT, '/w', '/w/a.ts', undefined, 'x')).toEqual({ name: 'create_file', arguments: { filePath: '/w/a.ts', content: 'x' } });
  expect(consumerEdit(COPILOT, '/w', '/w/a.ts', '', 'x')).toEqual({ name: 'create_file', arguments: { filePath: '/w/a.ts', content: 'x' } });
});

test('an existing file is changed with replace_string_in_file', () => {
  expect(consumerEdit(COPILOT, '/w', '/w/a.ts', 'old\n', 'new\n')).toEqual({ name: 'replace_string_in_file', arguments: { filePath: '/w/a.ts', oldString: 'old\n', newString: 'new\n' } });
});

test("Roo Code's write_to_file writes a new file, its apply_diff a change; the path relative to the workspace; Copilot's tools come first", () => {
  const ROO = ['read_file', 'write_to_file', 'apply_diff', 'ask_followup_question', 'attempt_completion'];
  expect(consumerEdit(ROO, '/w', '/w/src/a.ts', undefined, 'x')).toEqual({ name: 'write_to_file', arguments: { path: 'src/a.ts', content: 'x' } });
  expect(consumerEdit(ROO, '/w', '/w/a.ts', 'old\n', 'new\n')).toEqual({ name: 'apply_diff', arguments: { path: 'a.ts', diff: '<<<<<<< SEARCH\n:start_line:1\n-------\nold\n=======\nnew\n>>>>>>> REPLACE' } });
  // Asked for the whole text (a diff Roo did not apply), or without apply_diff: write_to_file.
  expect(consumerEdit(ROO, '/w', '/w/a.ts', 'old\n', 'new\n', true)).toEqual({ name: 'write_to_file', arguments: { path: 'a.ts', content: 'new\n' } });
  expect(consumerEdit(['write_to_file'], '/w', '/w/a.ts', 'old\n', 'new\n')).toEqual({ name: 'write_to_file', arguments: { path: 'a.ts', content: 'new\n' } });
  expect(consumerEdit([...COPILOT, 'write_to_file'], '/w', '/w/a.ts', 'old\n', 'new\n')).toMatchObject({ name: 'replace_string_in_file' });
  expect(offersEditTools(ROO)).toBe(true);
  expect(offersEditTools(['create_file'])).toBe(false);
});

/** What replace_string_in_file makes of `current`: the one occurrence of oldString replaced. */
function replaced(current: string, change: { oldString: string; newString: string }): string {
  expect(current.split(change.oldString)).toHaveLength(2);
  return current.replace(change.oldString, () => change.newString);
}

test('only the lines that changed are replaced, widened until they occur once', () => {
  const long = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join('');
  const oneLine = long.replace('line 500\n', 'line five hundred\n');
  expect(changedLines(long, oneLine)).toEqual({ oldString: 'line 500\n', newString: 'line five hundred\n' });
  // A repeated line needs the lines around it to be found once.
  const repeated = 'a\nx\nb\nx\nc\n';
  expect(changedLines(repeated, 'a\nx\nb\ny\nc\n')).toEqual({ oldString: 'b\nx\nc\n', newString: 'b\ny\nc\n' });
  // An insertion replaces a line next to it; a deletion likewise.
  expect(changedLines('a\nb\n', 'a\nnew\nb\n')).toEqual({ oldString: 'a\nb\n', newString: 'a\nnew\nb\n' });
  expect(changedLines('a\nb\nc\n', 'a\nc\n')).toEqual({ oldString: 'b\n', newString: '' });
});

test('the change, applied as replace_string_in_file applies it, gives exactly the new text', () => {
  const cases: [string, string][] = [
    ['a\nb', 'a\nb\nc'],
    ['a\nb\n', 'a\nb'],
    ['x\nx\nx\n', 'x\nx\n'],
    ['x\nx\nx\n', 'x\ny\nx\n'],
    ['one\r\ntwo\r\n', 'one\r\n2\r\n'],
    ['same start\nA\nsame end\n', 'same start\nB\nC\nsame end\n'],
    ['first\n', 'zeroth\nfirst\n'],
    [Array.from({ length: 60 }, () => 'dup\n').join(''), Array.from({ length: 59 }, () => 'dup\n').join('')],
  ];
  for (const [current, content] of cases) expect(replaced(current, changedLines(current, content))).toBe(content);
});

test('without the tool that fits, there is no consumer edit', () => {
  expect(consumerEdit([], '/w', '/w/a.ts', undefined, 'x')).toBeUndefined();
  expect(consumerEdit(['create_file'], '/w', '/w/a.ts', 'old', 'new')).toBeUndefined();
  expect(consumerEdit(['replace_string_in_file'], '/w', '/w/a.ts', undefined, 'new')).toBeUndefined();
});

test("Roo's SEARCH/REPLACE block: the start line, marker lines escaped, a deletion; a change of the last line break it cannot say", () => {
  const current = 'a\nb\n=======\nc\n';
  expect(searchReplaceBlock(current, changedLines(current, 'a\nb\n=======\nC\n'))).toBe('<<<<<<< SEARCH\n:start_line:4\n-------\nc\n=======\nC\n>>>>>>> REPLACE');
  expect(searchReplaceBlock(current, changedLines(current, 'a\nb\n-------\nc\n'))).toBe('<<<<<<< SEARCH\n:start_line:3\n-------\n\\=======\n=======\n\\-------\n>>>>>>> REPLACE');
  expect(searchReplaceBlock('a\nb\nc\n', changedLines('a\nb\nc\n', 'a\nc\n'))).toBe('<<<<<<< SEARCH\n:start_line:2\n-------\nb\n=======\n>>>>>>> REPLACE');
  expect(searchReplaceBlock('a\nb\n', changedLines('a\nb\n', 'a\nb'))).toBeUndefined();
  expect(searchReplaceBlock('a\n\\b\n', changedLines('a\n\\b\n', 'a\n\\c\n'))).toBeUndefined();
});
