import { MAX_ENTRY_CHARS, MAX_PLAN_ENTRIES, PlanInText, planChecklist, planProgressLine, todosOf } from '../../src/agents/acp/updates/plan.js';
import { todoListArguments, todoToolOf } from '../../src/tools/consumer-todos.js';

describe('an agent plan as todos', () => {
  test('entries become numbered todos with Copilot’s statuses', () => {
    const todos = todosOf([
      { content: 'Read the code', priority: 'high', status: 'completed' },
      { content: '  Write\n the   test ', priority: 'low', status: 'in_progress' },
      { content: 'Ship', priority: 'low', status: 'pending' },
    ]);
    expect(todoListArguments(todos)).toEqual({
      todoList: [
        { id: 1, title: 'Read the code', status: 'completed' },
        { id: 2, title: 'Write the test', status: 'in-progress' },
        { id: 3, title: 'Ship', status: 'not-started' },
      ],
    });
  });

  test('whatever the agent sends, the plan stays bounded: entries, their length, malformed ones skipped', () => {
    const entries: unknown[] = [null, 7, { content: 42 }, { content: '' }, { content: 'odd', status: 'weird' }, { content: 'x'.repeat(1_000_000), status: 'completed' }];
    for (let i = 0; i < 10_000; i++) entries.push({ content: `step ${i}`, status: 'pending' });
    const todos = todosOf(entries);
    expect(todos).toHaveLength(MAX_PLAN_ENTRIES);
    expect(todos[0]).toEqual({ id: 1, title: 'odd', status: 'not-started' });
    expect(todos[1]!.title).toHaveLength(MAX_ENTRY_CHARS);
    expect(todosOf({ not: 'an array' })).toEqual([]);
  });

  test('the checklist escapes markdown, and the progress line counts what is done', () => {
    const todos = todosOf([
      { content: 'Fix *all* `bugs`', priority: 'high', status: 'in_progress' },
      { content: 'Done', priority: 'low', status: 'completed' },
    ]);
    expect(planChecklist(todos)).toBe('\n\n- [ ] **Fix \\*all\\* \\`bugs\\`**\n- [x] Done\n\n');
    expect(planProgressLine(todos)).toBe('\n\n> 📋 1 of 2 todos done\n\n');
  });
});

describe('PlanInText', () => {
  const plan = (...statuses: string[]) => todosOf(statuses.map((status, i) => ({ content: `step ${i + 1}`, priority: 'low', status })));

  test('the checklist once, then one line per entry started, done or added; a repeat says nothing', () => {
    const text = new PlanInText();
    expect(text.textOf(plan('in_progress', 'pending'))).toBe('\n\n- [ ] **step 1**\n- [ ] step 2\n\n');
    expect(text.textOf(plan('in_progress', 'pending'))).toBe('');
    expect(text.textOf(plan('completed', 'in_progress', 'pending'))).toBe('\n\n> ✓ step 1\n\n> ▶ step 2\n\n> + step 3\n\n');
    text.reset();
    expect(text.textOf(plan('completed'))).toBe('\n\n- [x] step 1\n\n');
  });

  test('a plan that flips its entries endlessly prints a bounded number of lines', () => {
    const text = new PlanInText();
    let printed = 0;
    for (let i = 0; i < 20_000; i++) printed += text.textOf(plan(...Array.from({ length: 60 }, (_, n) => (n + i) % 3 === 0 ? 'completed' : (n + i) % 3 === 1 ? 'in_progress' : 'pending'))).length;
    expect(printed).toBeLessThan(20_000);
  });
});

describe("Roo Code's todo list", () => {
  test('update_todo_list takes the whole plan as a markdown checklist: [ ] pending, [-] in progress, [x] done', () => {
    const todos = todosOf([
      { content: 'Read the code', status: 'completed' },
      { content: 'Write the fix', status: 'in_progress' },
      { content: 'Ship', status: 'pending' },
    ]);
    expect(todoListArguments(todos, 'update_todo_list')).toEqual({ todos: '[x] Read the code\n[-] Write the fix\n[ ] Ship' });
  });

  test('the consumer’s own todo tool is found among those offered; Cline offers none', () => {
    expect(todoToolOf(['read_file', 'update_todo_list', 'attempt_completion'])).toBe('update_todo_list');
    expect(todoToolOf(['manage_todo_list', 'create_file'])).toBe('manage_todo_list');
    expect(todoToolOf(['read_files', 'editor', 'run_commands'])).toBeUndefined();
  });
});
