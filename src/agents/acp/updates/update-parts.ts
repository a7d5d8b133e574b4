import { randomUUID } from 'node:crypto';
import { clipDepth, MAX_JSON_DEPTH } from '../../../protocol/bounded-depth.js';
import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { ResponsePart } from '../../../protocol/messages.js';
import { diffBlock, refusedLine, toolEndedLine, toolStartedLine, type Refusal } from './render.js';
import { PlanInText, planProgressLine, todosOf } from './plan.js';
import { todoListArguments, type Todo } from '../../../tools/consumer-todos.js';
import { AGENT_ACTION_TOOL, type AgentActionParameters } from '../../../protocol/agent-action.js';
import { announcesServerCall } from '../../../tools/bridged-permission.js';
import { BRIDGED_TOOLS_SERVER_NAME } from '../../../tools/bridged-tools-server.js';
import type { PendingPermission, PendingToolCall } from './turn-events.js';
import { TerminalBlocks, terminalIdOf, terminalOutputOf } from './terminal-output.js';
import { Subagents } from './subagents.js';
import { noticeLine, type Notice } from '../../notices.js';

/**
 * What a session's responses have shown so far: tool titles (updates often omit them), which tools were
 * shown ending, which calls were VS Code's own tools (not shown: VS Code shows them), and the plan: in the text, or
 * in the consumer's todo list. A paused prompt continues in a later response, so this lives as long as the session,
 * not the response.
 */
export class TurnRendering {
  private readonly titles = new Map<string, string>();
  private readonly ended = new Set<string>();
  /** Announced calls of VS Code's tools through the bridge: VS Code shows those calls itself. */
  private readonly bridged = new Set<string>();
  private readonly planText = new PlanInText();
  /** The latest plan the agent sent, for the consumer's todo list, and that list's tool. */
  private todoPlan: readonly Todo[] | undefined;
  private todoTool = '';
  /** Files whose edits VS Code shows itself (made through the consumer's edit tools): no diff of them in the text. */
  private readonly reviewed = new Set<string>();
  /**
   * The content of each tool call still running, as last sent: an update without `content` keeps it (ACP),
   * and agents send a change's diff with the call and end it without one (Codex).
   */
  private readonly contents = new Map<string, ToolCallContent[]>();
  /** Tools whose permission was refused: their end says why, whatever the agent's words for it. */
  private readonly refusals = new Map<string, Refusal>();
  /** Commands' output, shown whole as it comes (terminal-output.ts); commands are tools of kind `execute`. */
  private readonly terminals = new TerminalBlocks();
  private readonly commands = new Set<string>();
  /** The agent's subagents: each named by its task, its tool calls under it, its outcome (subagents.ts). */
  private readonly subagents: Subagents;
  /** What the last stop ended, and the notices said before the agent's next words, for the next response to begin with. */
  private openingLines = '';
  /** The notices shown, by their line: each once in the conversation, however often the agent repeats it. */
  private readonly noticesShown = new Set<string>();
  /** Calls the agent announced while no prompt of the conversation ran: its own turn, not ended yet. */
  private readonly ownTurnCalls = new Set<string>();

  /** `bridgedServer`: the name of the MCP server through which agents call VS Code's tools; `now`: the clock that times subagents. */
  constructor(
    private readonly bridgedServer: string = BRIDGED_TOOLS_SERVER_NAME,
    now: () => number = Date.now,
  ) {
    this.subagents = new Subagents(now);
  }

  /** The edit of `path` goes through the consumer's edit tool, which shows it: the answer need not. */
  reviewedInConsumer(path: string): void {
    this.reviewed.add(path);
  }

  /**
   * A new prompt shows its plan afresh in the text; tool ids, and the todo list the consumer shows, stay. `stopping`:
   * aborted when the person stops it.
   */
  newPrompt(stopping: AbortSignal): void {
    this.planText.reset();
    stopping.addEventListener('abort', () => this.turnStopped(), { once: true });
  }

  /** The agent's latest plan, for the consumer's todo list: a response shows it as it ends (todoListPart). */
  planForTodoList(todos: readonly Todo[], tool: string): void {
    this.todoPlan = todos;
    this.todoTool = tool;
  }

  /** The call of the consumer's todo tool that shows the latest plan. */
  todoListPart(): ResponsePart | undefined {
    const todos = this.todoPlan;
    if (todos === undefined) return undefined;
    return { type: 'tool_call', toolCallId: `${TODO_CALL_PREFIX}${randomUUID()}`, toolName: this.todoTool, parameters: todoListArguments(todos, this.todoTool) };
  }

  /** What a response says that has nothing else to say after the todo list was shown: how far the plan has come. */
  planProgressPart(): ResponsePart {
    return { type: 'text', value: planProgressLine(this.todoPlan ?? []) };
  }

  /** The response parts an update contributes; unknown and bookkeeping updates contribute none. */
  partsOf(update: SessionUpdate): ResponsePart[] {
    const output = terminalOutputOf(update);
    if (output !== undefined && !this.bridged.has(output.toolCallId)) return textPart(this.terminals.chunk(output.toolCallId, output.data));
    return this.afterOutput(this.updateParts(update));
  }

  /** Parts shown while a command's output block is open: the block is closed before them. */
  afterOutput(parts: ResponsePart[]): ResponsePart[] {
    return this.terminals.isOpen && parts.some((p) => p.type === 'text' || p.type === 'tool_call') ? [...textPart(this.terminals.interrupt()), ...parts] : parts;
  }

  private updateParts(update: SessionUpdate): ResponsePart[] {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        // A subagent's words are its own, and its report shows in its end line.
        if (this.subagents.saidBySubagent(update._meta)) return [];
        if (update.content.type === 'text') return update.content.text === '' ? [] : [{ type: 'text', value: update.content.text }];
        if (update.content.type === 'image') return [{ type: 'data', mimeType: update.content.mimeType, data: update.content.data }];
        return [];
      case 'agent_thought_chunk':
        if (this.subagents.saidBySubagent(update._meta)) return [];
        return update.content.type === 'text' && update.content.text !== '' ? [{ type: 'thinking', value: update.content.text }] : [];
      case 'tool_call': {
        this.titles.set(update.toolCallId, update.title);
        // Its lines would repeat the call VS Code shows in the Chat view when it runs the tool.
        if (announcesServerCall(update, this.bridgedServer)) this.bridged.add(update.toolCallId);
        if (this.bridged.has(update.toolCallId)) return textPart(this.subagents.asksVsCode(update.toolCallId, update._meta, this.bridgedToolName(update)));
        if (update.kind === 'execute' || terminalIdOf(update) !== undefined) this.commands.add(update.toolCallId);
        this.keepContent(update.toolCallId, update.content);
        const status = update.status;
        const opensSubagent = this.subagents.opens(update.toolCallId, update);
        const subagentStart = opensSubagent ? '' : this.subagents.madeBySubagent(update.toolCallId, update._meta);
        if (status === 'completed' || status === 'failed') return [...textPart(subagentStart), ...this.end(update.toolCallId, status)];
        if (opensSubagent) return textPart(this.subagents.startLineWhenNamed(update.toolCallId));
        return [{ type: 'text', value: subagentStart + toolStartedLine(this.titleOf(update.toolCallId)) }];
      }
      case 'tool_call_update': {
        if (update.title) this.titles.set(update.toolCallId, update.title);
        if (this.bridged.has(update.toolCallId)) return [];
        this.keepContent(update.toolCallId, update.content);
        this.subagents.named(update.toolCallId, update);
        const status = update.status;
        const subagentsEnded = this.subagents.endedBy(update);
        if (status === 'completed' || status === 'failed') return [...textPart(subagentsEnded), ...this.end(update.toolCallId, status)];
        if (subagentsEnded !== '') return textPart(subagentsEnded);
        return this.subagents.isSubagent(update.toolCallId) ? textPart(this.subagents.startLineWhenNamed(update.toolCallId)) : [];
      }
      case 'usage_update':
        return [usagePart(update.used)];
      case 'notice':
        return textPart(this.noticeOnce(update));
      case 'plan': {
        const text = this.planText.textOf(todosOf(update.entries));
        return text === '' ? [] : [{ type: 'text', value: text }];
      }
      default:
        return [];
    }
  }

  /** The `symposium-agent-action` tool call through which VS Code asks the user. */
  permissionPart(permission: PendingPermission): ResponsePart {
    const parameters: AgentActionParameters = { ...this.describe(permission), action_id: permission.actionId };
    return { type: 'tool_call', toolCallId: permission.toolCall.toolCallId, toolName: AGENT_ACTION_TOOL, parameters: { ...parameters } };
  }

  /**
   * The prompt was stopped: its response is read no more (Copilot Chat shows nothing sent after a cancel), so
   * what the stop ended of it (its subagents) is said at the start of the conversation's next response.
   */
  private turnStopped(): void {
    this.openingLines += this.subagents.stopped();
  }

  /**
   * An update while no prompt ran: a turn of the agent's own (claude-agent-acp 0.101 compacts an idle session by
   * itself, a "Compact conversation" call). Its calls keep their titles for the next response, which ends them in one
   * line; a call that ended before it is said at its start, in the same line.
   */
  ownTurn(update: SessionUpdate): void {
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    if (update.sessionUpdate === 'tool_call') {
      this.titles.set(update.toolCallId, update.title);
      this.ownTurnCalls.add(update.toolCallId);
    } else if (update.title) this.titles.set(update.toolCallId, update.title);
    const status = update.status;
    if (this.ownTurnCalls.has(update.toolCallId) && (status === 'completed' || status === 'failed')) {
      this.ownTurnCalls.delete(update.toolCallId);
      this.openingLines += this.end(update.toolCallId, status).map((p) => (p.type === 'text' ? p.value : '')).join('');
    }
  }

  /** A notice of the bridge's own about the session, said at the start of the next response (once). */
  notice(notice: Notice | undefined): void {
    if (notice !== undefined) this.openingLines += this.noticeOnce(notice);
  }

  /** A notice's line, the first time it is said; else nothing. */
  private noticeOnce(notice: Notice): string {
    const line = noticeLine(notice);
    if (this.noticesShown.has(line)) return '';
    // Bounded: an agent whose notices differ each time (a retry's count) would grow it without end.
    if (this.noticesShown.size >= MAX_NOTICES_KEPT) this.noticesShown.delete(this.noticesShown.values().next().value!);
    this.noticesShown.add(line);
    return line;
  }

  /** What begins a response: the lines of what the last stop ended, and notices, not shown yet. */
  startOfResponse(): ResponsePart[] {
    const lines = this.openingLines;
    this.openingLines = '';
    return textPart(lines.replace(/^\n+/, ''));
  }

  /** What ends a response's text: a command's output block still open (the response paused, or stopped) is closed. */
  endOfResponse(): ResponsePart[] {
    return textPart(this.terminals.interrupt());
  }

  /** The line that tells the person an action was refused because nobody could be asked. */
  refusedPart(permission: PendingPermission): ResponsePart {
    this.refusals.set(permission.toolCall.toolCallId, 'unasked');
    return { type: 'text', value: refusedLine(this.describe(permission)) };
  }

  /** The person refused the permission of this tool call (Skip, or a request without the approval). */
  refusedByPerson(toolCallId: string): void {
    this.refusals.set(toolCallId, 'by-person');
  }

  private describe(permission: PendingPermission): Omit<AgentActionParameters, 'action_id'> {
    const { toolCall } = permission;
    if (toolCall.title) this.titles.set(toolCall.toolCallId, toolCall.title);
    // The subagent that asks is named apart, not in the title: the person reads "Alpha survey wants to …".
    const subagent = this.subagents.askingSubagent(toolCall.toolCallId, toolCall._meta);
    // The next request carries these back, and the bridge reads nothing nested deeper than MAX_JSON_DEPTH.
    const raw_input = clipDepth(toolCall.rawInput ?? null, MAX_JSON_DEPTH - 1);
    return { kind: toolCall.kind ?? 'other', title: this.titles.get(toolCall.toolCallId) ?? 'tool call', raw_input, ...(subagent === undefined ? {} : { subagent }) };
  }

  /** A bridged VS Code tool call, which VS Code runs (and confirms) itself. */
  toolCallPart(call: PendingToolCall): ResponsePart {
    return { type: 'tool_call', toolCallId: call.toolCallId, toolName: call.name, parameters: call.arguments };
  }

  private keepContent(id: string, content: ToolCallContent[] | null | undefined): void {
    if (content != null && !this.ended.has(id)) this.contents.set(id, content);
  }

  /** A tool's end, with the diffs of what it changed that VS Code does not show (an agent that edits by itself). */
  private end(id: string, status: 'completed' | 'failed'): ResponsePart[] {
    if (this.ended.has(id)) return [];
    this.ended.add(id);
    const content = this.contents.get(id);
    this.contents.delete(id);
    const refusal = this.refusals.get(id);
    this.refusals.delete(id);
    if (this.subagents.isSubagent(id)) return textPart(this.subagents.endLines(id, status, content));
    const diffs = status === 'completed' ? (content ?? []).flatMap((c) => (c.type === 'diff' && !this.reviewed.has(c.path) ? [diffBlock(c.path, c.oldText, c.newText)] : [])) : [];
    if (this.commands.delete(id) && refusal === undefined) return textPart(this.commandEnd(id, content) + toolEndedLine(this.titleOf(id), status, []) + diffs.join(''));
    return [{ type: 'text', value: toolEndedLine(this.titleOf(id), status, content, refusal) + diffs.join('') }];
  }

  /**
   * A command's output, whole: the end of what was shown as it came, or (an agent that sends it only as the
   * result's text, its fences taken off) the text, in a block.
   */
  private commandEnd(id: string, content: readonly ToolCallContent[] | undefined): string {
    const streamed = this.terminals.end(id);
    if (streamed !== undefined) return streamed;
    const text = (content ?? []).flatMap((c) => (c.type === 'content' && c.content.type === 'text' ? [unfenced(c.content.text)] : [])).join('\n');
    return text.trim() === '' ? '' : this.terminals.whole(id, text);
  }

  /** The VS Code tool a bridged call calls: Claude Code names it `mcp__<server>__<tool>`; else the call's title. */
  private bridgedToolName(call: { title: string; _meta?: { [key: string]: unknown } | null }): string {
    const claudeCode = call._meta?.['claudeCode'];
    const toolName = typeof claudeCode === 'object' && claudeCode !== null ? (claudeCode as Record<string, unknown>)['toolName'] : undefined;
    const prefix = `mcp__${this.bridgedServer}__`;
    return typeof toolName === 'string' && toolName.startsWith(prefix) ? toolName.slice(prefix.length) : call.title;
  }

  private titleOf(id: string): string {
    return this.subagents.titled(id, this.titles.get(id) ?? 'tool call');
  }
}

/** How many notices a conversation remembers having shown. */
const MAX_NOTICES_KEPT = 100;

function textPart(value: string): ResponsePart[] {
  return value === '' ? [] : [{ type: 'text', value }];
}

/** A result's text without the fence an agent put around all of it (Codex's ```sh, Claude Code's ```console). */
function unfenced(text: string): string {
  const fenced = /^\s*(`{3,}|~{3,})[^\n]*\n([^]*?)\n?\1\s*$/.exec(text);
  return fenced?.[2] ?? text;
}

/** The ids of the todo tool's calls the bridge makes for an agent's plan: nothing of the agent waits on their results. */
export const TODO_CALL_PREFIX = 'symposium-plan-';

/**
 * How full the agent's context is, as Copilot reads a model's usage for its context meter: a data part
 * of its `usage` kind with OpenAI-style token counts (a bookkeeping part: no consumer shows it as content).
 */
function usagePart(used: number): ResponsePart {
  const tokens = Math.max(0, Math.round(used));
  const usage = { prompt_tokens: tokens, completion_tokens: 0, total_tokens: tokens };
  return { type: 'data', mimeType: 'usage', data: Buffer.from(JSON.stringify(usage)).toString('base64') };
}
