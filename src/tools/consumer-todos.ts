/**
 * An agent's plan as a call of the consumer's own todo tool, so that the consumer shows it in its own widget:
 * - Copilot Chat's `manage_todo_list {todoList: [{id, title, status}]}` (agent mode; `status` one of
 *   `not-started`, `in-progress`, `completed`) replaces the Chat view's todo list above the input ("Todos (1/3)")
 *   with the whole list it is given, and answers "Successfully wrote todo list".
 * - Roo Code's `update_todo_list {todos}` (3.52) takes the whole list as a markdown checklist, one line per entry:
 *   `[ ]` pending, `[-]` in progress, `[x]` completed; Roo shows it as its todo list above the input.
 * Cline 4.x has none: its tools carry no `task_progress` (its Focus Chain left the agent loop in 4.0).
 */

export const TODO_LIST_TOOL = 'manage_todo_list';
export const UPDATE_TODO_LIST_TOOL = 'update_todo_list';

export type TodoStatus = 'not-started' | 'in-progress' | 'completed';

export interface Todo {
  readonly id: number;
  readonly title: string;
  readonly status: TodoStatus;
}

/** The consumer's todo tool among those `offered`; undefined when it offers none. */
export function todoToolOf(offered: readonly string[]): string | undefined {
  return [TODO_LIST_TOOL, UPDATE_TODO_LIST_TOOL].find((tool) => offered.includes(tool));
}

const ROO_MARKS: Record<TodoStatus, string> = { 'not-started': '[ ]', 'in-progress': '[-]', completed: '[x]' };

/** The arguments of the call of todo tool `tool` that shows `todos`. */
export function todoListArguments(todos: readonly Todo[], tool: string = TODO_LIST_TOOL): Record<string, unknown> {
  if (tool === UPDATE_TODO_LIST_TOOL) return { todos: todos.map((t) => `${ROO_MARKS[t.status]} ${t.title}`).join('\n') };
  return { todoList: todos.map((t) => ({ id: t.id, title: t.title, status: t.status })) };
}
