/**
 * Row 12: a command through the consumer's command tool (issue 46). Where a request offers Copilot's
 * `run_in_terminal`, the agent runs its commands through it: the agent calls the tool on the bridge's MCP server, the
 * call reaches the client as a tool_call part and the response ends, the client answers it as VS Code would (here at
 * once, with a fixed output: the person's confirmation and VS Code's terminal are not in it), the next request brings
 * the result back to the agent, which says it. Timed per command: the person's message sent → the part that says the
 * output arrived. Against, over direct ACP: the same agent running the same command with its own shell (Claude Code's
 * Bash, the scripted agent's `run`: its permission allowed at once by the client), and calling the same tool on an MCP
 * server of this process that answers at once (the same route without the bridge: the bridge's share alone). The
 * first command of each conversation is not timed (Claude Code loads the deferred MCP tool with ToolSearch first), and
 * the others follow once the pool's next spare session has had time to open (as row 9 spaces its new chats).
 */
import type { McpServer } from '@agentclientprotocol/sdk';
import { createLogger } from '../../src/log/logger.js';
import type { AgentDefinition, Message, ResponsePart, ToolCallPart } from '../../src/protocol/messages.js';
import { BRIDGED_TOOLS_SERVER_NAME, BridgedToolsServer } from '../../src/tools/bridged-tools-server.js';
import { isToolUseBlock, lastToolResults, lastUserText, messagesOf, toolResultText, toolUseReply, toolUses } from '../../test/fixtures/anthropic-mock.js';
import { textReply, type Reply, type Script } from '../../test/fixtures/model-api-mock.js';
import { AGENT, Bridge, DirectAcp, RUN_IN_TERMINAL, median, percentile, replied, runTurnPlans, sleep, user, type Row, type TurnPlan } from '../lib.js';
import { withClaude, type Program } from './new-chat.js';

/** 5 commands per conversation, the first (which opens it and, for Claude Code, loads the tool) not timed. */
const COMMANDS: TurnPlan = { turns: 16, warmup: 2, perConversation: 5, gapMs: 70 };
/** What the bridge may add to a command run through the consumer's tool (issue 46). */
const BAR_MS = 5;
/** What VS Code's terminal answers, here at once. */
const OUTPUT = 'proof\n';
const INPUT = { command: 'echo proof', explanation: 'Shows the proof', goal: 'Show the proof', isBackground: false, timeout: 10_000 };

/** How one agent is asked to run the command, and what it says once it has the output. */
interface Commands extends Program {
  /** The person's message for the command through the consumer's tool (`terminal`) or the agent's own shell (`shell`). */
  readonly ask: (route: 'terminal' | 'shell', n: number) => string;
  /** What the agent says once it has the output (`shell`: after running it itself). */
  readonly said: (route: 'terminal' | 'shell') => string;
}

export async function commands(): Promise<Row[]> {
  const server = await BridgedToolsServer.start(async () => ({ content: [{ type: 'text', text: OUTPUT }] }), createLogger('warn'));
  server.setTools([RUN_IN_TERMINAL]);
  const mcpServers: McpServer[] = [{ type: 'http', name: BRIDGED_TOOLS_SERVER_NAME, url: server.url, headers: [{ name: 'Authorization', value: server.authorization }] }];
  try {
    const scripted: Commands = {
      label: 'scripted agent',
      args: [AGENT, '--mcp-http', '--announce-calls'],
      env: {},
      reply: (said) => said,
      settleMs: 500,
      ask: (route) => (route === 'terminal' ? `mcp-call run_in_terminal ${JSON.stringify(INPUT)}` : `run ${INPUT.command}`),
      said: (route) => (route === 'terminal' ? `result run_in_terminal: ${OUTPUT}` : `ran ${INPUT.command}`),
    };
    const rows = await measured(scripted, mcpServers);
    await withClaude(
      async (claude) => {
        rows.push(...(await measured({ ...claude, ask: (route, n) => `${route}: run echo proof (${n})`, said: () => RECEIVED }, mcpServers)));
      },
      claudeRuns,
      () => RECEIVED,
    );
    return rows;
  } finally {
    await server.close();
  }
}

const RECEIVED = 'Output received.';
const BRIDGED_RUN_IN_TERMINAL = /mcp__vscode-tools-[0-9a-f]+__run_in_terminal/;

/**
 * Claude's model: asked `terminal: …`, it loads run_in_terminal (ToolSearch, once per conversation) and calls it; asked
 * `shell: …`, it calls its Bash; given the output, it says `RECEIVED` (or that the output is missing).
 */
const claudeRuns: Script = (_view, recorded): Reply => {
  const request = messagesOf(recorded);
  const uses = toolUses(request);
  const name = BRIDGED_RUN_IN_TERMINAL.exec(JSON.stringify(request))?.[0];
  const [result] = lastToolResults(request);
  if (result !== undefined) {
    const used = uses.find((u) => u.id === result.tool_use_id);
    if (used?.name === 'ToolSearch' && name !== undefined) return toolUseReply(name, INPUT);
    return textReply(toolResultText(result).includes('proof') ? RECEIVED : `Output missing: ${toolResultText(result)}`);
  }
  if (lastUserText(request).includes('shell:')) return toolUseReply('Bash', { command: INPUT.command, description: 'Show the proof' });
  if (name === undefined) return textReply('I have no run_in_terminal tool.');
  if (uses.some((u) => isToolUseBlock(u) && u.name === 'ToolSearch')) return toolUseReply(name, INPUT);
  return toolUseReply('ToolSearch', { query: `select:${name}`, max_results: 1 });
};

interface Timed {
  readonly command: number[];
  /** The client's time from the tool call's response to its next request: what the consumer adds, here. */
  readonly consumer: number[];
}

/** One side of the row: its turn, for `runTurnPlans`, and what closes it. */
interface Side {
  readonly turn: (opening: boolean, index: number) => Promise<() => void>;
  readonly close: () => Promise<void>;
}

async function measured(program: Commands, mcpServers: McpServer[]): Promise<Row[]> {
  const bridged: Timed = { command: [], consumer: [] };
  const ownShell: number[] = [];
  const sameTool: number[] = [];
  const sides = [throughTheBridge(program, bridged), direct(program, 'shell', [], ownShell), direct(program, 'terminal', mcpServers, sameTool)];
  try {
    // A conversation of each side in turn, so that the load of this shared machine weighs on each alike.
    await runTurnPlans(COMMANDS, sides.map((side) => side.turn));
  } finally {
    for (const side of sides) await side.close();
  }
  const counts = `${COMMANDS.turns} commands (+${COMMANDS.warmup} warm-up) per side, ${COMMANDS.perConversation - 1} timed per conversation (its first, which opens it, not; then a pause of a spare's opening), ${COMMANDS.gapMs} ms apart, the sides' conversations in turn`;
  const bridgeShare = (baseline: number[]): number => median(bridged.command) - median(bridged.consumer) - median(baseline);
  const row = (metric: string, times: number[], baseline?: number[], bar?: number): Row => ({
    row: '12',
    metric,
    median: median(times),
    p99: percentile(times, 99),
    ...(baseline === undefined ? {} : { baseline: median(baseline) }),
    unit: 'ms',
    bar: baseline === undefined ? '—' : `${bar === undefined ? '—' : `≤ +${bar} ms`} (added ${bridgeShare(baseline).toFixed(2)}, the client's answering taken out)`,
    ...(bar === undefined || baseline === undefined ? {} : { met: bridgeShare(baseline) <= bar }),
    counts,
  });
  return [
    row(`a command through the consumer's run_in_terminal, ${program.label}, against the agent's own shell over direct ACP (ms)`, bridged.command, ownShell, BAR_MS),
    row(`the same, against the same tool on an MCP server answering at once, over direct ACP: the bridge's share (ms)`, bridged.command, sameTool, BAR_MS),
    row(`the client's answering of the tool call in that loop (the consumer's share here; VS Code's confirmation and terminal not in it) (ms)`, bridged.consumer),
  ];
}

function throughTheBridge(program: Commands, out: Timed): Side {
  const agent: AgentDefinition = { mcp_server: { name: 'agent', command: process.execPath, args: [...program.args], env: Object.entries(program.env).map(([name, value]) => ({ name, value })) } };
  const said = program.said('terminal');
  const bridge = new Bridge();
  let history: Message[] = [];
  const turn = async (opening: boolean, i: number): Promise<() => void> => {
    if (opening) history = [];
    history.push(user(program.ask('terminal', i)));
    const asked = await bridge.turn([...history], agent, [RUN_IN_TERMINAL]);
    const calls = asked.parts.filter((p): p is ToolCallPart => p.type === 'tool_call');
    if (calls.length !== 1 || calls[0]!.toolName !== 'run_in_terminal') throw new Error(`row 12: ${program.label} did not call run_in_terminal: ${JSON.stringify(asked.parts)}`);
    // The consumer ran the command (here: a fixed output at once) and sends its result with the history.
    const result: Message = { role: 'user', content: [{ type: 'tool_result', toolCallId: calls[0]!.toolCallId, result: [{ type: 'text', value: OUTPUT }] }] };
    history.push(replied(asked.parts), result);
    let saidAt = NaN;
    const answered = await bridge.turn([...history], agent, [RUN_IN_TERMINAL], (part: ResponsePart, at: number) => {
      if (Number.isNaN(saidAt) && part.type === 'text' && part.value.includes(said)) saidAt = at;
    });
    if (Number.isNaN(saidAt)) throw new Error(`row 12: ${program.label} did not say ${JSON.stringify(said)}: ${JSON.stringify(answered.parts)}`);
    history.push(replied(answered.parts));
    // A new chat takes the pool's spare session and the next one opens (Claude Code: a process starting, seconds
    // of CPU): row 9's concern, not this row's; the commands wait for it, on every side alike.
    if (opening) await sleep(program.settleMs);
    return () => {
      out.command.push(saidAt - asked.startAt);
      out.consumer.push(answered.startAt - asked.endAt);
    };
  };
  return { turn, close: () => bridge.close() };
}

/** The same commands over direct ACP: with the agent's own shell, or the same tool on `mcpServers`. */
function direct(program: Commands, route: 'terminal' | 'shell', mcpServers: McpServer[], times: number[]): Side {
  const said = program.said(route);
  const client = new DirectAcp([], false, program);
  let session = '';
  const turn = async (opening: boolean, i: number): Promise<() => void> => {
    if (opening && session !== '') await client.closeSession(session);
    if (opening) session = await client.newSession(mcpServers);
    const t = await client.prompt(session, program.ask(route, i), said.length);
    if (t.said !== said) throw new Error(`row 12: ${program.label} (${route}, direct) said ${JSON.stringify(t.said)}, not ${JSON.stringify(said)}`);
    if (opening) await sleep(program.settleMs);
    return () => times.push(t.firstAt - t.startAt);
  };
  return { turn, close: () => client.close() };
}
