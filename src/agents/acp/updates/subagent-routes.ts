/**
 * How each agent tells its subagents over ACP (read from the installed agents' sources and recorded from them, issue 51;
 * docs/agents.md has the table): which tool call opens a subagent, what names it, which calls and messages are its own,
 * and what the agent says of its run as it ends. subagents.ts renders them all alike.
 *
 * The ACP subagents RFD (`clientCapabilities.subagents`) is declared to Codex alone (CHILD_SESSIONS): Qwen Code and
 * OpenCode do not implement it, and for Claude Code its child sessions would replace the `_meta` route below.
 */

/** What the routes read of a `tool_call` or `tool_call_update`. */
export interface SubagentCall {
  readonly title?: string | null | undefined;
  readonly kind?: string | null | undefined;
  readonly rawInput?: unknown;
  readonly rawOutput?: unknown;
  readonly _meta?: unknown;
}

/** What an update says of a subagent: each field only where it says it. */
export interface SubagentFacts {
  /** Its task ("Alpha survey"). */
  name?: string;
  /** Its kind ("Explore", "general-purpose"). */
  type?: string;
  /** The agent's own figures of its run. */
  uses?: number;
  durationMs?: number;
  tokens?: number;
  /** Its report, where the agent wraps it in markup of its own that the report's text is not. */
  report?: string;
  /** The ids under which the agent tells its end in another call (Codex's threads). */
  threads?: readonly string[];
  /** Its call ended as it went on in the background: it has no outcome yet (Qwen Code's `run_in_background`). */
  background?: boolean;
}

/** A subagent's end told in another call than its own (Codex's `wait`): by the id its facts gave (`threads`). */
export interface SubagentEnd {
  readonly thread: string;
  readonly status: 'completed' | 'failed';
  readonly report: string;
}

export interface SubagentRoute {
  /** Whether the agent sends its subagents' own tool calls: else the bridge cannot count them. */
  readonly callsShown: boolean;
  /** Whether this `tool_call` opens a subagent. */
  opens(call: SubagentCall): boolean;
  /** What this update of a subagent's call says of it. */
  facts(call: SubagentCall): SubagentFacts;
  /** The id of the subagent's call that a tool call or message of a subagent names as its parent, if it does. */
  parentOf(meta: unknown): string | undefined;
  /** The subagents' ends another call tells, where its own call's end is not the subagent's (Codex). */
  endsOf?(call: SubagentCall): readonly SubagentEnd[];
}

/**
 * Claude Code (claude-agent-acp 0.100.0, `_meta.claudeCode`): an `Agent` (older: `Task`) call, titled "Task" until the
 * description comes; its calls carry `parentToolUseId`; `toolResponse` gives its figures as it ends, or
 * `status: "async_launched"` where it runs on in the background.
 */
export const CLAUDE_CODE: SubagentRoute = {
  callsShown: true,
  opens: (call) => {
    const toolName = claudeCodeMeta(call._meta)?.['toolName'];
    return toolName === 'Agent' || toolName === 'Task';
  },
  facts: (call) => {
    const facts = describedInput(call.rawInput, call.title, 'Task');
    const response = claudeCodeMeta(call._meta)?.['toolResponse'];
    if (!isRecord(response)) return facts;
    // A background agent (`run_in_background` not false): its call ends as it is launched ("Async agent launched").
    if (response['status'] === 'async_launched') return { ...facts, background: true };
    const { agentType, totalToolUseCount, totalDurationMs, totalTokens } = response;
    return {
      ...facts,
      ...(typeof agentType === 'string' && agentType !== '' ? { type: agentType } : {}),
      ...(typeof totalToolUseCount === 'number' ? { uses: totalToolUseCount } : {}),
      ...(typeof totalDurationMs === 'number' ? { durationMs: totalDurationMs } : {}),
      ...(typeof totalTokens === 'number' ? { tokens: totalTokens } : {}),
    };
  },
  parentOf: (meta) => stringOf(claudeCodeMeta(meta)?.['parentToolUseId']),
};

/**
 * Qwen Code (0.24.4, `_meta` at the top level): its `agent` tool's call (`_meta.toolName: "agent"`), titled "Agent" until
 * its input comes; each call and message of the subagent carries `parentToolCallId`; the end's `rawOutput` is a
 * `task_execution` with its `executionSummary`. A background agent (`run_in_background`, its default) ends its call at
 * once (`status: "background"`), sends none of its calls, and is told done in a later turn, as the agent's own text.
 */
export const QWEN_CODE: SubagentRoute = {
  callsShown: true,
  opens: (call) => isRecord(call._meta) && call._meta['toolName'] === 'agent',
  facts: (call) => {
    const facts = describedInput(call.rawInput, undefined, 'Agent');
    const output = isRecord(call.rawOutput) && call.rawOutput['type'] === 'task_execution' ? call.rawOutput : undefined;
    if (output === undefined) return facts;
    if (output['status'] === 'background') return { ...facts, background: true };
    const summary = isRecord(output['executionSummary']) ? output['executionSummary'] : {};
    const { totalToolCalls, totalDurationMs, totalTokens } = summary;
    return {
      ...facts,
      ...(typeof output['subagentName'] === 'string' && output['subagentName'] !== '' ? { type: output['subagentName'] } : {}),
      ...(typeof totalToolCalls === 'number' ? { uses: totalToolCalls } : {}),
      ...(typeof totalDurationMs === 'number' ? { durationMs: totalDurationMs } : {}),
      ...(typeof totalTokens === 'number' ? { tokens: totalTokens } : {}),
    };
  },
  parentOf: (meta) => (isRecord(meta) ? stringOf(meta['parentToolCallId']) : undefined),
};

/**
 * OpenCode (1.18.33): its `task` tool's call, titled "task" (kind `think`, no `_meta`) until the description comes. Its
 * subagent runs in a child session whose events its ACP layer does not forward: no call of a subagent shows. The report
 * comes as `<task id="…" state="…"><task_result>…</task_result></task>`.
 */
export const OPENCODE: SubagentRoute = {
  callsShown: false,
  opens: (call) => call.title === 'task' && call.kind === 'think' && call._meta === undefined,
  facts: (call) => {
    const facts = describedInput(call.rawInput, call.title, 'task');
    const output = isRecord(call.rawOutput) ? call.rawOutput['output'] : undefined;
    const result = typeof output === 'string' ? /<task_result>([^]*?)<\/task_result>/.exec(output)?.[1] : undefined;
    return result === undefined ? facts : { ...facts, report: result };
  },
  parentOf: () => undefined,
};

/**
 * Codex (codex-acp 2.6.0, codex 0.166.0, to a client without `clientCapabilities.subagents`): a `spawnAgent` call
 * (kind `other`, `rawInput.prompt`, no description: the prompt names it) that completes once the subagent is spawned,
 * its thread in `receiverThreadIds`; a later `wait` call's `agentsStates {thread: {status, message}}` tells each end and
 * report. What the subagent does is not sent (only the subagents RFD's child sessions would carry it).
 */
export const CODEX: SubagentRoute = {
  callsShown: false,
  opens: (call) => call.title === 'spawnAgent' && isRecord(call.rawInput) && typeof call.rawInput['senderThreadId'] === 'string',
  facts: (call) => {
    const input = isRecord(call.rawInput) ? call.rawInput : {};
    const task = typeof input['prompt'] === 'string' ? taskOf(input['prompt']) : '';
    const threads = Array.isArray(input['receiverThreadIds']) ? input['receiverThreadIds'].filter((t): t is string => typeof t === 'string') : [];
    return { ...(task === '' ? {} : { name: task }), ...(threads.length === 0 ? {} : { threads }) };
  },
  parentOf: () => undefined,
  endsOf: (call) => {
    const states = isRecord(call.rawInput) && isRecord(call.rawInput['agentsStates']) ? call.rawInput['agentsStates'] : {};
    return Object.entries(states).flatMap(([thread, state]): SubagentEnd[] => {
      const status = isRecord(state) ? state['status'] : undefined;
      const report = isRecord(state) && typeof state['message'] === 'string' ? state['message'] : '';
      if (status === 'completed') return [{ thread, status, report }];
      return status === 'errored' || status === 'interrupted' || status === 'shutdown' || status === 'notFound' ? [{ thread, status: 'failed', report }] : [];
    });
  },
};

/** The mark of a child session shown as its parent's tool call, and of a call of a child, naming the child (child-sessions.ts). */
export const CHILD_SESSION = 'symposium/childSession';
export const PARENT_SESSION = 'symposium/parentSession';

/**
 * The ACP subagents RFD's child sessions (for agents the bridge declares it to: Codex), as child-sessions.ts leads them
 * to the parent's conversation: each child a call marked `CHILD_SESSION`, named by its title or its description (Codex's
 * is the prompt), ended with its words as its report; each of its calls marked with its session id.
 */
export const CHILD_SESSIONS: SubagentRoute = {
  callsShown: true,
  opens: (call) => isRecord(call._meta) && call._meta[CHILD_SESSION] === true,
  facts: (call) => {
    const input = isRecord(call.rawInput) ? call.rawInput : {};
    const name = typeof input['description'] === 'string' ? taskOf(input['description']) : '';
    return name === '' ? {} : { name };
  },
  parentOf: (meta) => (isRecord(meta) ? stringOf(meta[PARENT_SESSION]) : undefined),
};

/** The routes, Claude Code's first (its `Agent` call is also of kind `think`). */
export const SUBAGENT_ROUTES: readonly SubagentRoute[] = [CLAUDE_CODE, QWEN_CODE, OPENCODE, CODEX, CHILD_SESSIONS];

/** A subagent's task from its prompt: its first sentence, without its full stop (the end line puts a colon after it). */
function taskOf(prompt: string): string {
  const text = prompt.replace(/\s+/g, ' ').trim();
  const task = (/^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text).replace(/\.$/, '');
  return task.length > TASK_LIMIT ? `${task.slice(0, TASK_LIMIT - 1)}…` : task;
}

/** How long a task taken from a prompt may be as a subagent's name. */
const TASK_LIMIT = 80;

/** A subagent's task and kind from its input (`description`, `subagent_type`), else from a title that is not the tool's own. */
function describedInput(rawInput: unknown, title: string | null | undefined, genericTitle: string): SubagentFacts {
  const input = isRecord(rawInput) ? rawInput : {};
  const description = typeof input['description'] === 'string' && input['description'].trim() !== '' ? input['description'] : undefined;
  const name = description ?? (title && title !== genericTitle ? title : undefined);
  const type = typeof input['subagent_type'] === 'string' && input['subagent_type'] !== '' ? input['subagent_type'] : undefined;
  return { ...(name === undefined ? {} : { name }), ...(type === undefined ? {} : { type }) };
}

function claudeCodeMeta(meta: unknown): Record<string, unknown> | undefined {
  const claudeCode = isRecord(meta) ? meta['claudeCode'] : undefined;
  return isRecord(claudeCode) ? claudeCode : undefined;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
