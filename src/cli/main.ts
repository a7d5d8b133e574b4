#!/usr/bin/env node
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger, isLogLevel, LOG_LEVELS, type LogLevel } from '../log/logger.js';
import { CONTEXT_POLICIES, contextPolicyNamed, type ContextPolicy } from '../history/context-policy.js';
import { fileURLToPath } from 'node:url';
import { endAgentProcesses } from '../agents/acp/process/live-processes.js';

const USAGE = `Usage: symposium-lm <command> [options]

Commands:
  vscodelm            Serve the language-model protocol (JSON-RPC, Content-Length framing) on stdin/stdout, or
                      (--host) as the person's agent host, to every window over a local socket or named pipe.
  chat                Chat with an agent through a vscodelm child process, the way VS Code would.
  mcp-relay           (Run by the bridge.) Relays an agent's stdio MCP connection to the bridge's tool server.

Options for vscodelm:
  --host BUILD               Serve as the agent host of this build (the extension starts it, detached): every window
                             of this user connects to it, says its folders and settings, and shares its agents.
  --host-dir DIR             The host's private folder (socket, token, log; default: $XDG_RUNTIME_DIR or the temp
                             folder, symposium-<uid>; on Windows a named pipe and %LOCALAPPDATA%\\symposium\\host).
  --idle-ms N                The host ends once no window has been connected this long and no turn runs
                             (default: 600000, 10 minutes).
  --log-level LEVEL          ${LOG_LEVELS.join(' | ')} (default: info); logs go to stderr.
  --cwd DIR                  Where ACP agent sessions run: the user's workspace (default: the current directory).
  --add-dir DIR              Another folder of the workspace, given to agents that take ACP's additionalDirectories
                             (the log says which agents cannot see it); repeatable.
  --eliza-pace-ms N          Pause between the words Eliza streams (default: 15).
  --agent-timeout-ms N       How long an ACP agent may take to answer initialize and session/new (default: 30000).
  --start-notice-ms N        A response that waits this long for its agent to start begins by saying it is starting
                             (default: never; the extension passes 3000).
  --silence-notice-ms N      A response that gets nothing from its agent this long says, once, that the agent has not
                             answered yet and what the bridge knows (default: never; the extension passes
                             symposium.silenceNoticeSeconds, 30 s).
  --cancel-timeout-ms N      How long a cancelled prompt may take to end before its session is replaced (default: 10000).
  --tool-call-timeout-ms N   How long an agent's call of a consumer's tool (a command in VS Code's terminal, any tool
                             of the chat) waits for its result; then the agent is told the call was given up
                             (default: 1800000, 30 minutes; 0: no limit).
  --permission-settle-ms N   How long to wait for further permission requests before asking VS Code (default: 50).
  --tool-settle-ms N         The same for further calls of VS Code's tools, sent together by the agent (default: 20).
  --context POLICY           What of the consumer's messages reaches agents: user (the person's words and what they
                             attached; the default), system (and the consumer's system prompt), everything (all it
                             sends; also accepted as attachments, its former name).
  --max-message-mb N         Refuse requests larger than this, unread (default: 32).
  --state-dir DIR            Keep the index of conversations here, so they resume after a restart (default: none,
                             in memory only). The extension passes its global storage folder.
  --session-idle-ms N        Close an agent session unused this long; its conversation resumes it later (default: 900000).
  --max-sessions N           Keep at most this many agent sessions open, spare ones included; the least recently used
                             idle one closes (default: 8).
  --agent-idle-ms N          End an agent process that has had no open session this long (default: 300000).
  --max-conversations N      Conversations matched in memory; older ones are found through the index (default: 500).
  --client-files on|off      Offer agents the workspace's files (ACP fs): their reads see the editor's unsaved text, and
                             their writes go through the consumer's edit tools where a request offers them (VS Code
                             then reviews the edit), else to disk; inside the workspace only (default: on).
  --agent-questions on|off   Let agents ask the person questions (ACP elicitation): a form through the consumer's
                             question tool where a request offers it (VS Code's vscode_askQuestions), else
                             through the client's prompts; a web page to open through the client's dialog;
                             declined where the client cannot ask (default: on).
  --consumer-terminal on|off Agents run commands through the consumer's command tool where a request offers one
                             (Copilot's run_in_terminal, Roo's execute_command, Cline's run_commands), their own
                             shell off for that session; off: agents keep their own shell (default: on).

Usage: symposium-lm chat [options] [-- AGENT_COMMAND [ARGS...]]
  Talks to Eliza, or to the ACP agent started by AGENT_COMMAND.
  -p, --prompt TEXT   Send one message, print the reply, exit. "-" reads it from stdin.
  --deterministic     Eliza cycles its replies like the original instead of varying them.
  --cwd DIR           The agent's working directory (default: the current directory).
  --log-level LEVEL   Passed to the vscodelm child (default: warn).
  --join-host BUILD   Join the agent host of that build (the one the extension's windows share; started if none
                      runs) instead of a bridge of the chat's own.
  Without -p, each line typed (or piped) is a message. Ctrl-C cancels the reply; Ctrl-C again exits.
  /retry asks the last request again in place of its answer, /undo takes the last exchange back, /edit TEXT
  asks TEXT in place of the last request: the agent goes back with the chat. Other /lines reach the agent.
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'vscodelm': {
      const { values } = parseArgs({
        args: rest,
        options: {
          'log-level': { type: 'string', default: 'info' },
          cwd: { type: 'string' },
          'add-dir': { type: 'string', multiple: true },
          'eliza-pace-ms': { type: 'string', default: '15' },
          'agent-timeout-ms': { type: 'string', default: '30000' },
          'cancel-timeout-ms': { type: 'string', default: '10000' },
          'tool-call-timeout-ms': { type: 'string', default: '1800000' },
          'start-notice-ms': { type: 'string' },
          'silence-notice-ms': { type: 'string' },
          'permission-settle-ms': { type: 'string', default: '50' },
          'tool-settle-ms': { type: 'string', default: '20' },
          context: { type: 'string', default: 'user' },
          'max-message-mb': { type: 'string', default: '32' },
          'state-dir': { type: 'string' },
          'session-idle-ms': { type: 'string', default: '900000' },
          'max-sessions': { type: 'string', default: '8' },
          'agent-idle-ms': { type: 'string', default: '300000' },
          'max-conversations': { type: 'string', default: '500' },
          'client-files': { type: 'string', default: 'on' },
          'agent-questions': { type: 'string', default: 'on' },
          'consumer-terminal': { type: 'string', default: 'on' },
          host: { type: 'string' },
          'host-dir': { type: 'string' },
          'idle-ms': { type: 'string', default: '600000' },
        },
      });
      const log = createLogger(logLevel(values['log-level']));
      endAgentsOnSignals();
      const workspace = {
        log,
        elizaPaceMs: nonNegative(values['eliza-pace-ms'], '--eliza-pace-ms'),
        contextPolicy: contextPolicy(values.context),
        sessionIdleMs: nonNegative(values['session-idle-ms'], '--session-idle-ms'),
        maxOpenSessions: positive(values['max-sessions'], '--max-sessions'),
        agentIdleMs: nonNegative(values['agent-idle-ms'], '--agent-idle-ms'),
        maxConversations: positive(values['max-conversations'], '--max-conversations'),
        clientFiles: onOff(values['client-files'], '--client-files'),
        acp: {
          cwd: values.cwd ?? process.cwd(),
          additionalDirectories: values['add-dir'] ?? [],
          startupTimeoutMs: nonNegative(values['agent-timeout-ms'], '--agent-timeout-ms'),
          ...(values['start-notice-ms'] === undefined ? {} : { startNoticeMs: nonNegative(values['start-notice-ms'], '--start-notice-ms') }),
          ...(values['silence-notice-ms'] === undefined ? {} : { silenceNoticeMs: positive(values['silence-notice-ms'], '--silence-notice-ms') }),
          cancelTimeoutMs: nonNegative(values['cancel-timeout-ms'], '--cancel-timeout-ms'),
          toolCallTimeoutMs: nonNegative(values['tool-call-timeout-ms'], '--tool-call-timeout-ms'),
          permissionSettleMs: nonNegative(values['permission-settle-ms'], '--permission-settle-ms'),
          toolSettleMs: nonNegative(values['tool-settle-ms'], '--tool-settle-ms'),
          lateUpdateGraceMs: 50,
          questions: onOff(values['agent-questions'], '--agent-questions'),
          consumerTerminal: onOff(values['consumer-terminal'], '--consumer-terminal'),
          relay: { command: process.execPath, args: [fileURLToPath(import.meta.url)] },
        },
      };
      const maxMessageBytes = nonNegative(values['max-message-mb'], '--max-message-mb') * 1024 * 1024;
      if (values.host !== undefined) {
        const { runAgentHost } = await import('../host/agent-host.js');
        const idleMs = nonNegative(values['idle-ms'], '--idle-ms');
        await runAgentHost({ build: values.host, ...(values['host-dir'] === undefined ? {} : { dir: values['host-dir'] }), idleMs, maxMessageBytes, stateDir: values['state-dir'], workspace, log });
        await endAgentProcesses();
        return 0;
      }
      // Each command loads only its own code: `chat` spawns the bridge and need not load it too.
      const { serveVscodeLm } = await import('../server/vscodelm.js');
      await serveVscodeLm({ ...workspace, input: process.stdin, output: process.stdout, maxMessageBytes, stateDir: values['state-dir'] });
      // The input closed (VS Code went away): the agents end before the bridge does.
      await endAgentProcesses();
      return 0;
    }
    case 'chat': {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: {
          prompt: { type: 'string', short: 'p' },
          deterministic: { type: 'boolean', default: false },
          cwd: { type: 'string' },
          'log-level': { type: 'string', default: 'warn' },
          'join-host': { type: 'string' },
        },
      });
      const [command, ...args] = positionals;
      const { runChat } = await import('./chat.js');
      return runChat({
        prompt: values.prompt,
        agent: command === undefined ? { eliza: { deterministic: values.deterministic } } : { mcp_server: { name: command, command, args, env: [] } },
        bridgeArgs: ['--log-level', logLevel(values['log-level']), ...(values.cwd === undefined ? [] : ['--cwd', values.cwd])],
        ...(values['join-host'] === undefined ? {} : { host: { build: values['join-host'], cliPath: fileURLToPath(import.meta.url), cwd: path.resolve(values.cwd ?? process.cwd()), args: ['--log-level', logLevel(values['log-level'])] } }),
      });
    }
    case 'mcp-relay':
      return (await import('../tools/relay.js')).runRelay();
    case undefined:
    case '--help':
    case '-h':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`symposium-lm: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

function logLevel(value: string): LogLevel {
  if (!isLogLevel(value)) throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}`);
  return value;
}

function nonNegative(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a non-negative number`);
  return n;
}

function onOff(value: string, flag: string): boolean {
  if (value !== 'on' && value !== 'off') throw new UsageError(`${flag} must be on or off`);
  return value === 'on';
}

function contextPolicy(value: string): ContextPolicy {
  const policy = contextPolicyNamed(value);
  if (policy === undefined) throw new UsageError(`--context must be one of ${CONTEXT_POLICIES.join(', ')}`);
  return policy;
}

function positive(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a positive integer`);
  return n;
}

class UsageError extends Error {}

/**
 * A signal ends the agents (SIGTERM, then SIGKILL after a grace period), then the bridge. A second signal
 * exits at once; the 'exit' handler then kills what is left outright.
 */
function endAgentsOnSignals(): void {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    const code = 128 + os.constants.signals[signal];
    process.once(signal, () => {
      process.once(signal, () => process.exit(code));
      void endAgentProcesses().finally(() => process.exit(code));
    });
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`symposium-lm: ${message}\n`);
    process.exit(error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS') ? 2 : 1);
  },
);
