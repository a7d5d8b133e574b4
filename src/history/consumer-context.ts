/**
 * What of a consumer's user message is the user's own words, and what is context the consumer wrapped
 * around them. Copilot renders each user turn as context blocks (`<context>`, `<attachments>`,
 * `<reminderInstructions>`, …) around a `<userRequest>` block, and renders the same turn differently once
 * it is history; Cline appends `<environment_details>` to each request. The user's words stay the same.
 */

/** Blocks Copilot Chat adds to user messages (prompt-tsx `Tag`s of its agent prompts, 0.67). */
const COPILOT_TAGS: ReadonlySet<string> = new Set([
  'attachments',
  'availableDeferredTools',
  'context',
  'conversation-summary',
  'customizationsUpdate',
  'editorContext',
  'environment_info',
  'memoryGuidelines',
  'memoryInstructions',
  'memoryScopes',
  'modeInstructions',
  'notebookFormatInstructions',
  'reminderInstructions',
  'repoMemory',
  'sessionMemory',
  'todoList',
  'toolReferences',
  'userMemory',
  'userPreferences',
  'workspace_info',
]);

/** Blocks consumers add to a user message; a message of nothing else carries no words of the user. */
const CONTEXT_TAGS: ReadonlySet<string> = new Set([
  ...COPILOT_TAGS,
  // Cline (3.x on every request; 4.x's notice that the person switched between Plan and Act), Roo Code, Kilo Code
  'environment_details',
  'mode_notice',
]);

/**
 * Messages a consumer adds by itself, which nobody typed, by how they begin. They are context, not words of the
 * person: an agent prompted with them spends a turn answering the consumer's bookkeeping.
 */
const CONSUMER_NOTES: readonly string[] = [
  // Cline 4.x appends this one as a user message of its own whenever a prompt would end on tool results (Copilot's
  // models refuse such a prompt), and keeps it in no later request. It belongs with the tool results it follows.
  'Above is the result of calling one or more tools.',
  // Roo Code, Kilo Code legacy and Cline 3.x, after a reply that called none of their tools (formatResponse.noToolsUsed).
  '[ERROR] You did not use a tool in your previous response!',
  // The same, resuming a task; words the person typed then come wrapped in <user_message>, read before this.
  '[TASK RESUMPTION]',
  // Kilo Code legacy and Cline 3.x, after dropping part of the history to fit the model's window.
  '[NOTE] Some previous conversation history with the user has been removed',
];

/** Whether `text` is a note a consumer added by itself (see CONSUMER_NOTES). */
export function isConsumerNote(text: string): boolean {
  return CONSUMER_NOTES.some((note) => text.startsWith(note)) || GUIDANCE.test(text);
}

/**
 * Roo Code's note after its "Roo is having trouble…" stop (formatResponse.tooManyMistakes, and Kilo Code legacy's
 * with native tools): JSON whose `feedback` is what the person typed then, if anything.
 */
const GUIDANCE = /^\{"status":"guidance"[,}]/;

function guidanceFeedback(text: string): string {
  try {
    const { feedback } = JSON.parse(text) as { feedback?: unknown };
    return typeof feedback === 'string' ? feedback.trim() : '';
  } catch {
    return '';
  }
}

/**
 * Tags consumers wrap the person's own words in: Copilot's `<userRequest>`, Cline 4.x's
 * `<user_input mode="act">`, Roo Code's and Kilo Code's `<user_message>`, and the `<feedback>` in which Kilo Code
 * legacy and Cline 3.x give what the person typed at a completion or a stop. The last one in a text holds them.
 */
const WORDS_TAGS: readonly string[] = ['userRequest', 'user_input', 'user_message', 'feedback'];
/** An opening tag; attributes are bounded so that a stray `<` never makes a scan run to the end. */
const OPEN_TAG = /<([A-Za-z][\w-]*)(?:\s[^<>]{0,500})?>/y;

export interface ConsumerText {
  /** The user's own words, trimmed; empty when the text was context only. */
  readonly request: string;
  /** The context blocks around them, as sent. */
  readonly context: readonly string[];
}

export function splitConsumerText(text: string): ConsumerText {
  const words = wrappedWords(text);
  if (words !== undefined) return words;
  const trimmed = text.trim();
  if (GUIDANCE.test(trimmed)) return { request: guidanceFeedback(trimmed), context: [] };
  if (isConsumerNote(trimmed)) return { request: '', context: [trimmed] };
  return copilotContextOnly(text) ?? stripContextBlocks(text);
}

/** The words inside the last of the WORDS_TAGS blocks in `text`, and what is around them as context. */
function wrappedWords(text: string): ConsumerText | undefined {
  for (const tag of WORDS_TAGS) {
    const open = text.lastIndexOf(`<${tag}`);
    OPEN_TAG.lastIndex = open;
    const opened = open < 0 ? null : OPEN_TAG.exec(text);
    if (opened === null || opened[1] !== tag) continue;
    const closeTag = `</${tag}>`;
    const close = text.indexOf(closeTag, open + opened[0].length);
    if (close < 0) continue;
    const around = [text.slice(0, open), text.slice(close + closeTag.length)].map((s) => s.trim()).filter((s) => s !== '');
    return { request: text.slice(open + opened[0].length, close).trim(), context: around };
  }
  return undefined;
}

/**
 * A message made only of top-level tag blocks, one of them Copilot's, is Copilot's context (its global
 * context message: environment, workspace, memories…), whatever other tags it has that are not known
 * here yet. Other consumers' blocks do not count: Cline wraps the user's words in `<task>`.
 */
function copilotContextOnly(text: string): ConsumerText | undefined {
  const blocks: string[] = [];
  let copilots = false;
  let at = skipSpace(text, 0);
  while (at < text.length) {
    OPEN_TAG.lastIndex = at;
    const open = text[at] === '<' ? OPEN_TAG.exec(text) : null;
    const tag = open?.[1];
    if (open === null || tag === undefined) return undefined;
    const closeTag = `</${tag}>`;
    const close = text.indexOf(closeTag, at + open[0].length);
    if (close < 0) return undefined;
    copilots ||= COPILOT_TAGS.has(tag);
    blocks.push(text.slice(at, close + closeTag.length));
    at = skipSpace(text, close + closeTag.length);
  }
  return copilots ? { request: '', context: blocks } : undefined;
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at;
}

/**
 * Removes the top-level context blocks. Linear in the text: a tag found unclosed once is not searched
 * for again (no later one can be closed either), so hostile input cannot make it quadratic.
 */
function stripContextBlocks(text: string): ConsumerText {
  const context: string[] = [];
  const unclosed = new Set<string>();
  let request = '';
  let kept = 0;
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    OPEN_TAG.lastIndex = at;
    const open = OPEN_TAG.exec(text);
    const tag = open?.[1];
    if (open === null || tag === undefined || !CONTEXT_TAGS.has(tag) || unclosed.has(tag)) continue;
    const closeTag = `</${tag}>`;
    const close = text.indexOf(closeTag, at + open[0].length);
    if (close < 0) {
      unclosed.add(tag);
      continue;
    }
    const end = close + closeTag.length;
    request += text.slice(kept, at);
    context.push(text.slice(at, end));
    kept = end;
    at = end - 1;
  }
  request += text.slice(kept);
  return { request: request.trim(), context };
}
