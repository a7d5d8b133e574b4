/**
 * An agent's file write as a call of the consumer's own edit tool, so that the consumer makes the edit and
 * reviews it (Copilot's agent mode lists it with Keep / Undo). Copilot Chat's tools: `create_file
 * {filePath, content}` refuses a file that exists with content; `replace_string_in_file {filePath,
 * oldString, newString}` needs `oldString` to match the editor's text exactly, once.
 */
export interface ConsumerEdit {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export const CREATE_FILE_TOOL = 'create_file';
export const REPLACE_STRING_TOOL = 'replace_string_in_file';

/**
 * The call that turns the file at `path` from `current` (undefined: there is none) into `content`, among the
 * tools `offered`; undefined when none of them can make it. The whole text is replaced: it always matches
 * once, whatever the agent changed.
 */
export function consumerEdit(offered: readonly string[], path: string, current: string | undefined, content: string): ConsumerEdit | undefined {
  if (current === undefined || current === '') {
    return offered.includes(CREATE_FILE_TOOL) ? { name: CREATE_FILE_TOOL, arguments: { filePath: path, content } } : undefined;
  }
  return offered.includes(REPLACE_STRING_TOOL) ? { name: REPLACE_STRING_TOOL, arguments: { filePath: path, oldString: current, newString: content } } : undefined;
}

/** Whether the consumer offers the tools with which any file can be written: a new one, and a change. */
export function offersEditTools(offered: readonly string[]): boolean {
  return offered.includes(CREATE_FILE_TOOL) && offered.includes(REPLACE_STRING_TOOL);
}
