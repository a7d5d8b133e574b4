/**
 * *Continue Chat in Terminal*'s routes for Codex and OpenCode, offline: a chat through the bridge (the agent at the
 * catalogue's pin, against a scripted mock of its model API), its session as `symposium/chatSessions` names it, then
 * the agent's own CLI run in a pseudo-terminal as the catalogue's `cli` route says (the CLI from the agent's package, as
 * npx would run it): its first screen shows the chat, and it works on a fork of the chat's session. Claude Code's route
 * is proven in the real Chat view (test/vscode/claude-terminal-view.mjs); Qwen Code's TUI did not get past
 * "Initializing…" in this pseudo-terminal (with or without a fork), so its route is not run here.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cliRouteOf, forkCommandOf } from '../../src/extension/agents/agent-cli.js';
import { findBuiltin, findOnPath } from '../../src/extension/agents/agent-catalog.js';
import { textReply } from '../fixtures/model-api-mock.js';
import { INSTALL_TIMEOUT_MS } from '../fixtures/agent-install.js';
import { PtyScreen } from '../fixtures/pty-screen.js';
import { processesWithHome } from '../fixtures/home-processes.js';
import { AgentBridge, user } from './agent-bridge.js';
import { CODEX, OPENCODE, type AgentSetup, type AgentUnderTest } from './catalog-agents.js';

const RESPONSE_MS = 90_000;

interface Case {
  readonly setup: AgentSetup;
  /** What the CLI's first screen says of the fork, besides the chat. */
  readonly forked: RegExp;
  /** The CLI's own word on the sessions afterwards, where it lists them: the chat's and its fork. */
  readonly sessionsAfter?: (run: (args: string[]) => string, session: string) => void;
  /** What else the CLI started that outlives it, ended the CLI's own way. */
  readonly stopBackground?: (run: (args: string[]) => string, home: string) => void;
}

const CASES: readonly Case[] = [
  // Codex's TUI starts a managed app-server daemon in its CODEX_HOME that outlives it (as for anyone running `codex`):
  // `codex app-server daemon stop` ends the server; its `pid-update-loop` stayed 40 s after, so it is ended here.
  {
    setup: CODEX,
    forked: /Thread forked from .*\( ?[0-9a-f-]{36} ?\)/,
    stopBackground: (run, home) => {
      run(['app-server', 'daemon', 'stop']);
      for (const { pid } of processesWithHome(home).filter(({ command }) => command.endsWith(' app-server daemon pid-update-loop'))) process.kill(pid, 'SIGTERM');
    },
  },
  {
    setup: OPENCODE,
    forked: /tell me about pelicans/,
    sessionsAfter: (run, session) => {
      const listed = run(['session', 'list']);
      expect(listed).toContain(session);
      expect(listed).toMatch(/\(fork #1\)/);
    },
  },
];

describe.each(CASES)('$setup.id', ({ setup, forked, sessionsAfter, stopBackground }) => {
  let root: string;
  let home: string;
  let workspace: string;
  let agent: AgentUnderTest | undefined;
  let bridge: AgentBridge | undefined;
  let screen: PtyScreen | undefined;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), `${setup.id}-cli-fork-`)));
    home = path.join(root, 'home');
    workspace = path.join(root, 'workspace');
    mkdirSync(home);
    mkdirSync(workspace);
    agent = await setup.prepare({ home }, { respond: () => textReply('Answer about pelicans.') });
    bridge = new AgentBridge(['--cwd', workspace, '--agent-timeout-ms', String(RESPONSE_MS)]);
  }, INSTALL_TIMEOUT_MS);

  afterAll(async () => {
    // A failed test still ends what it started.
    for (const { pid } of home === undefined ? [] : processesWithHome(home)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await screen?.close();
    await bridge?.close();
    await agent?.mock.close();
    rmSync(root, { recursive: true, force: true });
  });

  test("the CLI opens a fork of the chat's session, its first screen showing the chat", async () => {
    const definition = agent!.definition;
    if (!('mcp_server' in definition)) throw new Error('an ACP agent');
    await bridge!.client.collectChatResponse({ modelId: setup.id, messages: [user('tell me about pelicans')], agent: definition });
    const [chat] = (await bridge!.client.chatSessions({ agents: [definition], limit: 5 })).sessions;
    expect(chat).toMatchObject({ agent: 0, cwd: workspace, title: 'tell me about pelicans' });

    // The agent runs from the test's install, not through npx: so does its CLI, a bin of the same package.
    const { cli } = findBuiltin(setup.id)!;
    const bin = path.dirname(definition.mcp_server.command);
    const env = Object.fromEntries(definition.mcp_server.env.map(({ name, value }) => [name, value]));
    const agentEnv = { ...env, PATH: `${bin}${path.delimiter}${env.PATH ?? ''}` };
    const command = forkCommandOf(setup.id, cliRouteOf(cli!, definition.mcp_server), chat!.session, agentEnv, process.env, (executable, e) => findOnPath(executable, e));
    if (!command.ok) throw new Error(command.reason);
    expect(command.args).toContain(chat!.session);

    screen = PtyScreen.start(command.location, command.args, chat!.cwd, { ...process.env, ...agentEnv });
    await screen.shows(/tell me about pelicans.*Answer about pelicans/, 60_000);
    expect(screen.text()).toMatch(/tell me about pelicans.*Answer about pelicans/);
    expect(screen.text()).toMatch(forked);
    await screen.close();
    screen = undefined;
    const run = (args: string[]): string => execFileSync(command.location, args, { cwd: workspace, env: { ...process.env, ...agentEnv }, encoding: 'utf8', timeout: 60_000 });
    sessionsAfter?.(run, chat!.session);
    stopBackground?.(run, home);
    // Nothing of the agent or its CLI is left (every process of its HOME ends).
    await bridge!.close();
    bridge = undefined;
    for (let waited = 0; waited < 10_000 && processesWithHome(home).length > 0; waited += 200) await new Promise((r) => setTimeout(r, 200));
    expect(processesWithHome(home)).toEqual([]);
  }, RESPONSE_MS * 2);
});
