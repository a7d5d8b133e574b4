/**
 * An agent's plan as a call of the consumer's own todo tool, so that the consumer shows it in its own widget:
 * Copilot Chat's `manage_todo_list {todoList: [{id, title, status}]}` (agent mode; `status` one of
 * `not-started`, `in-progress`, `completed`) replaces the Chat view's todo list above the input ("Todos (1/3)")
 * with the whole list it is given, and answers "Successfully wrote todo list".
 */

export const TODO_LIST_TOOL = 'manage_todo_list';

export type TodoStatus = 'not-started' | 'in-progress' | 'completed';

export interface Todo {
  readonly id: number;
  readonly title: string;
  readonly status: TodoStatus;
}

/** Whether the consumer offers its todo tool. */
export function offersTodoList(offered: readonly string[]): boolean {
  return offered.includes(TODO_LIST_TOOL);
}

/** The arguments of the todo tool's call that shows `todos`. */
export function todoListArguments(todos: readonly Todo[]): Record<string, unknown> {
  return { todoList: todos.map((t) => ({ id: t.id, title: t.title, status: t.status })) };
}
