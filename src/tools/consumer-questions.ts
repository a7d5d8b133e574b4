/**
 * An agent's question to the person (an ACP form elicitation) as a call of the consumer's own question tool,
 * and that tool's answer back as the form's content. VS Code's `vscode_askQuestions` shows questions above
 * the Chat input: `{questions: [{header, question, message?, options?: [{label}], multiSelect?,
 * allowFreeformInput?}]}`, answered `{"answers": {"<header>": {selected: string[], freeText: string | null,
 * skipped: boolean}}}`. Roo Code's (and Kilo Code legacy's) `ask_followup_question {question, follow_up:
 * [{text}]}` asks one question with suggested answers as buttons; the answer, clicked or typed, comes back as
 * `<user_message>…</user_message>`: a form of several fields is asked there one question after another.
 */
import type { Question } from '../protocol/messages.js';
import { splitConsumerText } from '../history/consumer-context.js';

export const ASK_QUESTIONS_TOOL = 'vscode_askQuestions';
export const FOLLOWUP_QUESTION_TOOL = 'ask_followup_question';

/** Asks the person through the client's own prompts; resolves with the answers as `vscode_askQuestions` gives them, or undefined. */
export type AskPerson = (agent: string, questions: readonly Question[], signal: AbortSignal) => Promise<string | undefined>;

/** VS Code's limits on a question's header and text. */
const HEADER_MAX = 50;
const QUESTION_MAX = 200;

/** A field of the form, as the bridge reads it (JSON Schema's restricted subset of ACP elicitation). */
export interface FormField {
  readonly type?: string;
  readonly title?: string | null;
  readonly description?: string | null;
  readonly enum?: readonly string[] | null;
  readonly oneOf?: readonly { readonly const: string; readonly title?: string | null }[] | null;
  readonly items?: { readonly enum?: readonly string[] | null; readonly anyOf?: readonly { readonly const: string; readonly title?: string | null }[] | null } | null;
}

export type FormValue = string | number | boolean | string[];

/** How one question's answer becomes the field's value. */
interface Field {
  readonly key: string;
  readonly type: string;
  /** Option label → the value the form wants. */
  readonly values: ReadonlyMap<string, string>;
}

export interface ConsumerQuestions {
  /** The arguments of `vscode_askQuestions`. */
  readonly arguments: { readonly questions: Question[] };
  /** The answer text of the tool as the form's content; undefined when it cannot be read. */
  answer(text: string): FormAnswer | undefined;
  /** The same form through `ask_followup_question`, which asks one question: one call per field, in the form's order. */
  readonly followUps: readonly FollowUp[];
}

export interface FollowUp {
  readonly arguments: FollowUpArguments;
  answer(text: string): FormAnswer;
}

export interface FormAnswer {
  readonly content: Record<string, FormValue>;
  readonly answered: boolean;
}

export interface FollowUpArguments {
  readonly question: string;
  readonly follow_up: readonly { readonly text: string }[];
}

/** The call that asks the form's questions: one question per field, in the form's order. */
export function consumerQuestions(message: string, properties: Readonly<Record<string, FormField>>): ConsumerQuestions {
  const keys = Object.keys(properties);
  const fields = new Map<string, Field>();
  const questions = keys.map((key, index): Question => {
    const field = properties[key]!;
    const { label, text } = wordingOf(field);
    const header = uniqueHeader(clip(label ?? key, HEADER_MAX), fields);
    const choices = choicesOf(field);
    fields.set(header, { key, type: field.type ?? 'string', values: new Map(choices.map((c) => [c.label, c.value])) });
    // The form's message asks the first question (or the only one) unless that field says its own.
    const ask = text ?? (index === 0 ? message : (label ?? key));
    return {
      header,
      question: clip(ask, QUESTION_MAX),
      // The agent's whole message where the question could not hold it, or where it did not say it.
      ...(index === 0 && ask !== message ? { message } : ask.length > QUESTION_MAX ? { message: ask } : {}),
      ...(choices.length > 0 ? { options: choices.map((c) => ({ label: c.label })) } : {}),
      ...(field.type === 'array' ? { multiSelect: true } : {}),
      // A boolean or a closed list takes only its options; a text field only text.
      ...(field.type === 'boolean' || field.enum != null || field.oneOf != null ? { allowFreeformInput: false } : {}),
    };
  });
  return {
    arguments: { questions },
    followUps: [...fields.values()].map((field, index) => followUpOf(questions[index]!, field)),
    answer: (text) => {
      const answers = answersIn(text);
      if (answers === undefined) return undefined;
      const content: Record<string, FormValue> = {};
      let answered = false;
      for (const [header, field] of fields) {
        const value = valueOf(field, answers[header]);
        if (value === undefined) continue;
        content[field.key] = value;
        answered = true;
      }
      return { content, answered };
    },
  };
}

/** The form's one question as `ask_followup_question`: its options as suggestions; the answer a label or free text. */
function followUpOf(question: Question, field: Field): FollowUp {
  // The agent's whole message where the question was clipped to VS Code's limit, which Roo does not have.
  const clipped = question.message !== undefined && question.question.endsWith('…') && question.message.startsWith(question.question.slice(0, -1));
  const text = question.message === undefined || clipped ? (question.message ?? question.question) : `${question.message}\n\n${question.question}`;
  return {
    arguments: { question: text, follow_up: (question.options ?? []).map((o) => ({ text: o.label })) },
    answer: (result) => {
      const said = splitConsumerText(result).request;
      const value = valueOf(field, field.values.has(said) ? { selected: [said] } : { freeText: said });
      return value === undefined ? { content: {}, answered: false } : { content: { [field.key]: value }, answered: true };
    },
  };
}

/**
 * A field's short label (the question's header) and its longer wording (the question), from its title and
 * description: the shorter is the label, whichever the agent put where (Codex titles a field with the
 * question and describes it with the header). One of them alone is the label if it is the title.
 */
function wordingOf(field: FormField): { label: string | undefined; text: string | undefined } {
  const title = field.title ?? undefined;
  const description = field.description ?? undefined;
  if (title === undefined || description === undefined) return { label: title, text: description };
  return title.length <= description.length ? { label: title, text: description } : { label: description, text: title };
}

function choicesOf(field: FormField): { label: string; value: string }[] {
  if (field.type === 'boolean') return [{ label: 'Yes', value: 'true' }, { label: 'No', value: 'false' }];
  const titled = field.oneOf ?? field.items?.anyOf;
  if (titled != null) return titled.map((o) => ({ label: o.title ?? o.const, value: o.const }));
  return (field.enum ?? field.items?.enum ?? []).map((value) => ({ label: value, value }));
}

interface Answer {
  readonly selected?: unknown;
  readonly freeText?: unknown;
  readonly skipped?: unknown;
}

function answersIn(text: string): Record<string, Answer> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const answers = (parsed as { answers?: unknown } | null)?.answers;
    return typeof answers === 'object' && answers !== null ? (answers as Record<string, Answer>) : undefined;
  } catch {
    return undefined;
  }
}

function valueOf(field: Field, answer: Answer | undefined): FormValue | undefined {
  if (answer === undefined || answer.skipped === true) return undefined;
  const selected = Array.isArray(answer.selected) ? answer.selected.filter((s): s is string => typeof s === 'string') : [];
  const picked = selected.map((label) => field.values.get(label) ?? label);
  const free = typeof answer.freeText === 'string' && answer.freeText.trim() !== '' ? answer.freeText.trim() : undefined;
  switch (field.type) {
    case 'array':
      return free === undefined ? picked : [...picked, free];
    case 'boolean':
      return picked[0] === undefined ? undefined : picked[0] === 'true';
    case 'number':
    case 'integer': {
      const n = Number(free ?? picked[0]);
      return Number.isFinite(n) ? n : undefined;
    }
    default:
      return picked[0] ?? free;
  }
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function uniqueHeader(header: string, taken: ReadonlyMap<string, unknown>): string {
  let unique = header;
  for (let n = 2; taken.has(unique); n++) unique = `${header.slice(0, HEADER_MAX - 4)} (${n})`;
  return unique;
}
