/**
 * What of a consumer's user message is the user's own words, what they attached, and what is context the consumer
 * wrapped around them. Copilot renders each user turn as context blocks (`<context>`, `<attachments>`,
 * `<reminderInstructions>`, …) around a `<userRequest>` block, and renders the same turn differently once
 * it is history; Cline appends `<environment_details>` to each request. The user's words stay the same.
 */
import type { Attachment } from './attachments.js';
import { copilotAttachments, copilotPromptFiles } from './copilot-attachments.js';
import { mentionAttachments } from './mention-attachments.js';

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
 * Notes a consumer adds by itself, which nobody typed: each from how it begins to how it ends (the end of the text
 * where no end is known). They are context, not words of the person: an agent prompted with them spends a turn
 * answering the consumer's bookkeeping. A request's adjacent texts are read joined, so a note may have more after it.
 */
const CONSUMER_NOTES: readonly { readonly begins: string; readonly ends?: string }[] = [
  // Cline 4.x appends this one as a user message of its own whenever a prompt would end on tool results (Copilot's
  // models refuse such a prompt), and keeps it in no later request. It belongs with the tool results it follows.
  { begins: 'Above is the result of calling one or more tools.' },
  // Roo Code, Kilo Code legacy and Cline 3.x, after a reply that called none of their tools (formatResponse.noToolsUsed).
  { begins: '[ERROR] You did not use a tool in your previous response!', ends: '(This is an automated message, so do not respond to it conversationally.)' },
  // Kilo Code legacy adds this to it after a reply that wrote a tool call as text.
  { begins: '[ERROR] You are outputting tool calls as text', ends: 'Do not write the tool use in the text response.' },
  // Resuming a task; words the person typed then come wrapped in <user_message>, read first.
  { begins: '[TASK RESUMPTION]' },
  // Kilo Code legacy and Cline 3.x, after dropping part of the history to fit the model's window.
  { begins: '[NOTE] Some previous conversation history with the user has been removed', ends: 'as you continue assisting the user.' },
];

/** Whether `text` begins with a note a consumer added by itself (see CONSUMER_NOTES and GUIDANCE). */
export function isConsumerNote(text: string): boolean {
  return noteEnd(text, 0) !== undefined;
}

/**
 * Roo Code's note after its "Roo is having trouble…" stop (formatResponse.tooManyMistakes, and Kilo Code legacy's
 * with native tools): one line of JSON whose `feedback` is what the person typed then, if anything.
 */
const GUIDANCE = /\{"status":"guidance"[,}]/y;

/** Where the note that begins at `at` in `text` ends, if one does. */
function noteEnd(text: string, at: number): number | undefined {
  GUIDANCE.lastIndex = at;
  if (GUIDANCE.test(text)) return jsonObjectEnd(text, at);
  for (const { begins, ends } of CONSUMER_NOTES) {
    if (!text.startsWith(begins, at)) continue;
    const end = ends === undefined ? -1 : text.indexOf(ends, at + begins.length);
    return end < 0 ? text.length : end + ends!.length;
  }
  return undefined;
}

/** The person's words in a guidance note: its `feedback`. */
function guidanceFeedback(note: string): string {
  GUIDANCE.lastIndex = 0;
  if (!GUIDANCE.test(note)) return '';
  try {
    const { feedback } = JSON.parse(note) as { feedback?: unknown };
    return typeof feedback === 'string' ? feedback.trim() : '';
  } catch {
    return '';
  }
}

/** Where the JSON object that begins at `from` in `text` ends (the end of the text if it does not). */
function jsonObjectEnd(text: string, from: number): number {
  let depth = 0;
  let inString = false;
  for (let at = from; at < text.length; at++) {
    const c = text[at];
    if (inString) {
      if (c === '\\') at++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return at + 1;
  }
  return text.length;
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
  /** The user's own words, trimmed, without what they attached; empty when the text was context only. */
  readonly request: string;
  /** The context blocks around them, as sent (attachments in them included). */
  readonly context: readonly string[];
  /** What the person attached or mentioned, in the shapes known of each consumer; other blocks are context. */
  readonly attachments: readonly Attachment[];
}

export function splitConsumerText(text: string): ConsumerText {
  const { request, context } = wordsAndContext(text);
  const promptFiles = copilotPromptFiles(request);
  const mentioned = mentionAttachments(promptFiles.rest);
  const inWords = [...promptFiles.attachments, ...mentioned.attachments];
  let attachments: readonly Attachment[] | undefined;
  return {
    request: withoutAttachedNote(mentioned.rest),
    context,
    // Read when asked for: a message's identity, read on every request, needs only the words.
    get attachments(): readonly Attachment[] {
      attachments ??= [...inWords, ...context.flatMap(attachmentsInContext)];
      return attachments;
    },
  };
}

function attachmentsInContext(block: string): Attachment[] {
  const copilot = copilotAttachments(block);
  return [...copilot.attachments, ...mentionAttachments(copilot.rest).attachments];
}

/** Cline 4.x's line before the files a person attached to a message, which says nothing once they are taken out. */
const ATTACHED_NOTE = 'Files attached by the user:';

function withoutAttachedNote(words: string): string {
  const trimmed = words.trim();
  return trimmed.endsWith(ATTACHED_NOTE) ? trimmed.slice(0, -ATTACHED_NOTE.length).trim() : trimmed;
}

function wordsAndContext(text: string): { request: string; context: readonly string[] } {
  const wrapped = wrappedWords(text);
  if (wrapped !== undefined) return wrapped;
  // The notes the text begins with (in a linear scan: hostile input cannot make it quadratic), then the rest.
  const notes: string[] = [];
  let at = skipSpace(text, 0);
  for (let end = noteEnd(text, at); end !== undefined; end = noteEnd(text, at)) {
    notes.push(text.slice(at, end));
    at = skipSpace(text, end);
  }
  if (notes.length === 0) return copilotContextOnly(text) ?? stripContextBlocks(text);
  const rest = text.slice(at);
  const { request, context } = copilotContextOnly(rest) ?? stripContextBlocks(rest);
  // A guidance note holds the person's words; the others none.
  const words = [...notes.map(guidanceFeedback), request].filter((w) => w !== '');
  return { request: words.join('\n'), context: [...notes, ...context] };
}

/** The words inside the last of the WORDS_TAGS blocks in `text`, and what is around them as context. */
function wrappedWords(text: string): { request: string; context: string[] } | undefined {
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
function copilotContextOnly(text: string): { request: string; context: string[] } | undefined {
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
function stripContextBlocks(text: string): { request: string; context: string[] } {
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
