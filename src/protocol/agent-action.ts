import { randomUUID } from 'node:crypto';
import type { ToolResultPart } from './messages.js';
import { AGENT_ACTION_TOOL } from './methods.js';
import { escapeMarkdown } from './markdown.js';

export { AGENT_ACTION_TOOL };

/**
 * Consent to an agent's action is proven, not presumed. Each permission request the bridge shows a
 * consumer as a `symposium-agent-action` call carries an unguessable `action_id`; the extension's tool
 * returns it, in `approvalText`, only once the person allowed the action in VS Code's confirmation. Any
 * other result — Copilot's "skipped" or "cancelled", a disabled tool, an error, another call's approval,
 * no result at all — is not consent, and the action is refused.
 */
export interface AgentActionParameters {
  /** The kind of action, as ACP names it (execute, edit, read, …). */
  readonly kind: string;
  readonly title: string;
  /** The action's input as the agent gave it (a command, a file), or null. */
  readonly raw_input: unknown;
  readonly action_id: string;
  /** The agent's subagent that asks, by its task ("Alpha survey"), when a subagent's tool call asks. */
  readonly subagent?: string;
}

export function newActionId(): string {
  return randomUUID();
}

/** What the tool answers once the person allowed the action `actionId`. */
export function approvalText(actionId: string): string {
  return `The user allowed this action (${actionId}).`;
}

/** Whether `result` is the approval of the action `actionId` and nothing else. */
export function isApprovalOf(actionId: string, result: ToolResultPart | undefined): boolean {
  if (result === undefined || result.result.length !== 1) return false;
  const [only] = result.result;
  return only?.type === 'text' && only.value === approvalText(actionId);
}

/** The action id in a tool call's parameters, when they are the bridge's. */
export function actionIdOf(parameters: unknown): string | undefined {
  if (typeof parameters !== 'object' || parameters === null) return undefined;
  const id = (parameters as { action_id?: unknown }).action_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** A tool call's parameters as they may arrive: anything is tolerated. */
export interface AgentActionInput {
  readonly kind?: unknown;
  readonly title?: unknown;
  readonly raw_input?: unknown;
  readonly action_id?: unknown;
  readonly subagent?: unknown;
}

/**
 * The action in words, to complete "Allow the agent to …?": "run `touch x`" when the raw input holds a
 * command (a string, or an argv array), else the title, with the kind in brackets when it says something
 * ("other" does not).
 */
export function describeAction(input: AgentActionInput | undefined): string {
  const command = commandOf(input?.raw_input);
  if (command !== undefined) return `run ${inlineCode(command)}`;
  const title = typeof input?.title === 'string' && input.title.trim() !== '' ? input.title.trim() : undefined;
  const kind = typeof input?.kind === 'string' && input.kind !== '' && input.kind !== 'other' ? input.kind : undefined;
  // The title is shown as markdown: an MCP tool's name in it (`mcp__server__tool`) would read as emphasis.
  const action = title !== undefined ? escapeMarkdown(lowerFirst(title)) : 'act';
  return kind !== undefined ? `${action} (${kind})` : action;
}

/**
 * Who asks, and for what, as a sentence's start the caller ends: "Allow the agent to run `touch x`", or for a
 * subagent's call "Alpha survey (a subagent) wants to run `touch x`", so that the person knows which subagent asks.
 */
export function whoAsks(input: AgentActionInput | undefined): { readonly subagent: string | undefined; readonly action: string } {
  const subagent = typeof input?.subagent === 'string' && input.subagent.trim() !== '' ? escapeMarkdown(input.subagent.replace(/\s+/g, ' ').trim()) : undefined;
  return { subagent, action: describeAction(input) };
}

/** The question VS Code asks the person: "Allow the agent to run `touch x`?", or "Alpha survey (a subagent) wants to run `touch x`. Allow it?". */
export function askingToAllow(input: AgentActionInput | undefined): string {
  const { subagent, action } = whoAsks(input);
  return subagent === undefined ? `Allow the agent to ${action}?` : `${subagent} (a subagent) wants to ${action}. Allow it?`;
}

function commandOf(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null) return undefined;
  const command = (rawInput as { command?: unknown }).command;
  if (typeof command === 'string' && command.trim() !== '') return command.trim();
  if (Array.isArray(command) && command.length > 0 && command.every((c) => typeof c === 'string')) return command.join(' ');
  return undefined;
}

/** Markdown inline code that survives backticks in the command. */
function inlineCode(text: string): string {
  const longestRun = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = longestRun > 0 ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** "Write foo.txt" → "write foo.txt", but "README edits" and "npm" stay as they are. */
function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
