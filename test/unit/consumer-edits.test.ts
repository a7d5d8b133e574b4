import { consumerEdit } from '../../src/tools/consumer-edits.js';

const COPILOT = ['read_file', 'create_file', 'replace_string_in_file', 'run_in_terminal'];

test('a new or empty file is created with create_file', () => {
  expect(consumerEdit(COPILOT, '/w/a.ts', undefined, 'x')).toEqual({ name: 'create_file', arguments: { filePath: '/w/a.ts', content: 'x' } });
  expect(consumerEdit(COPILOT, '/w/a.ts', '', 'x')).toEqual({ name: 'create_file', arguments: { filePath: '/w/a.ts', content: 'x' } });
});

test("an existing file's whole text is replaced with replace_string_in_file", () => {
  expect(consumerEdit(COPILOT, '/w/a.ts', 'old\n', 'new\n')).toEqual({ name: 'replace_string_in_file', arguments: { filePath: '/w/a.ts', oldString: 'old\n', newString: 'new\n' } });
});

test('without the tool that fits, there is no consumer edit', () => {
  expect(consumerEdit([], '/w/a.ts', undefined, 'x')).toBeUndefined();
  expect(consumerEdit(['create_file'], '/w/a.ts', 'old', 'new')).toBeUndefined();
  expect(consumerEdit(['replace_string_in_file'], '/w/a.ts', undefined, 'new')).toBeUndefined();
});
