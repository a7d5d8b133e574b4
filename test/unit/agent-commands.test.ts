import { jest } from '@jest/globals';
import { AgentCommands, COMMANDS_REPORT_MS, MAX_COMMANDS, MAX_DESCRIPTION_CHARS, MAX_HINT_CHARS, slashCommandsOf } from '../../src/agents/acp/answers/agent-commands.js';
import { promptBlocks, turnAsk } from '../../src/agents/acp/session/prompt.js';
import { escapedCommand, unescapeCommand } from '../../src/protocol/agent-command.js';
import type { AgentSlashCommand } from '../../src/protocol/messages.js';

describe('slashCommandsOf', () => {
  test("reads ACP's available commands: name, description, input hint", () => {
    expect(
      slashCommandsOf([
        { name: 'review', description: 'Review the changes', input: { hint: 'what to review' } },
        { name: 'init', description: 'Write CLAUDE.md', input: null },
        { name: 'plugin:skill', description: '' },
      ]),
    ).toEqual([
      { name: 'review', description: 'Review the changes', hint: 'what to review' },
      { name: 'init', description: 'Write CLAUDE.md' },
      { name: 'plugin:skill', description: '' },
    ]);
  });

  test('skips what is no command, keeps the first of two with one name, takes a leading / off', () => {
    const listed = [null, 42, 'review', { description: 'no name' }, { name: 'has space' }, { name: '' }, { name: '/review', description: 'first' }, { name: 'review', description: 'second' }, { name: 'x'.repeat(10_000) }, { name: 'ok', description: 7 }];
    expect(slashCommandsOf(listed)).toEqual([
      { name: 'review', description: 'first' },
      { name: 'ok', description: '' },
    ]);
    expect(slashCommandsOf(undefined)).toEqual([]);
    expect(slashCommandsOf({ name: 'review' })).toEqual([]);
  });

  test('is bounded: at most MAX_COMMANDS, texts on one line and cut, entries past the scanned ones unread', () => {
    const many = Array.from({ length: 5 * MAX_COMMANDS }, (_, i) => ({ name: `c${i}`, description: `line one\nline two ${'d'.repeat(10_000)}`, input: { hint: 'h'.repeat(10_000) } }));
    const commands = slashCommandsOf(many);
    expect(commands).toHaveLength(MAX_COMMANDS);
    expect(commands[0]?.description.startsWith('line one line two d')).toBe(true);
    expect(commands[0]?.description).toHaveLength(MAX_DESCRIPTION_CHARS);
    expect(commands[0]?.hint).toHaveLength(MAX_HINT_CHARS);
    // Duplicates do not make the bridge read without end.
    const duplicates = [...Array.from({ length: 10 * MAX_COMMANDS }, () => ({ name: 'same' })), { name: 'late' }];
    expect(slashCommandsOf(duplicates).map((c) => c.name)).toEqual(['same']);
  });
});

describe('AgentCommands', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('a burst is reported once, as its last list; the same list again is not reported', () => {
    const reports: (readonly AgentSlashCommand[])[] = [];
    const commands = new AgentCommands((c) => reports.push(c));
    for (let i = 0; i < 1000; i++) commands.hear([{ name: `c${i}`, description: '' }]);
    expect(reports).toEqual([]);
    jest.advanceTimersByTime(COMMANDS_REPORT_MS);
    expect(reports).toEqual([[{ name: 'c999', description: '' }]]);
    commands.hear([{ name: 'c999', description: '' }]);
    jest.advanceTimersByTime(COMMANDS_REPORT_MS);
    expect(reports).toHaveLength(1);
    commands.hear([]);
    jest.advanceTimersByTime(COMMANDS_REPORT_MS);
    expect(reports.at(-1)).toEqual([]);
  });

  test('disposed, it reports nothing more', () => {
    const reports: (readonly AgentSlashCommand[])[] = [];
    const commands = new AgentCommands((c) => reports.push(c));
    commands.hear([{ name: 'review', description: '' }]);
    commands.dispose();
    jest.advanceTimersByTime(COMMANDS_REPORT_MS);
    expect(reports).toEqual([]);
  });
});

describe('//command', () => {
  test("a leading //name is the agent's /name; other words stay as typed", () => {
    expect(unescapeCommand('//compact keep the tests')).toBe('/compact keep the tests');
    expect(unescapeCommand('  //review')).toBe('/review');
    expect(unescapeCommand('//plugin:skill x')).toBe('/plugin:skill x');
    expect(unescapeCommand('/squawk loudly')).toBe('/squawk loudly');
    expect(unescapeCommand('// a comment')).toBe('// a comment');
    expect(unescapeCommand('//server/share')).toBe('//server/share');
    expect(unescapeCommand('see //compact')).toBe('see //compact');
    expect(unescapeCommand('///x')).toBe('///x');
  });

  test('escapedCommand is what unescapes to the command', () => {
    expect(escapedCommand('review', '  src/a.ts ')).toBe('//review src/a.ts');
    expect(escapedCommand('init')).toBe('//init');
    expect(unescapeCommand(escapedCommand('compact', 'keep it'))).toBe('/compact keep it');
  });

  test("only the first text block of the person's words is read as a command, after what the session is told first", () => {
    const blocks = promptBlocks(
      turnAsk([
        { role: 'user', content: [{ type: 'text', value: '//compact now' }, { type: 'text', value: '//not-this' }] },
        { role: 'user', content: [{ type: 'text', value: '//nor-this' }] },
      ]),
      ['//told first'],
      { images: false, embeddedContext: false, root: '/workspace' },
    );
    expect(blocks).toEqual([
      { type: 'text', text: '//told first' },
      { type: 'text', text: '/compact now' },
      { type: 'text', text: '//not-this' },
      { type: 'text', text: '//nor-this' },
    ]);
  });
});
