/**
 * How an agent's own CLI opens a fork of one of its sessions, so that a chat can go on in the agent's TUI in VS Code's
 * terminal while the chat stays as the person sees it: catalogue data (`cli` of a catalogue entry, or of a full entry
 * of `symposium.agents`), validated with the codec below. No `vscode` here.
 */
import * as t from 'io-ts';
import { withEnv } from '../../agents/agent-env.js';

/** An environment as `process.env` is (agent-catalog.ts's `Env`, which imports this file's codec through the registry). */
type Env = Readonly<Record<string, string | undefined>>;

/** Stands for the session's id in `fork`. */
export const SESSION_PLACEHOLDER = '{session}';

const Words = t.refinement(t.string, (s) => s.trim() !== '', 'a non-empty string');
const ForkArgs = t.refinement(t.array(t.string), (args) => args.filter((a) => a === SESSION_PLACEHOLDER).length === 1, `arguments with "${SESSION_PLACEHOLDER}" once`);

/**
 * `program`: the CLI's executable; `fork`: its arguments that open a fork of a session, `{session}` standing for the
 * session's id; `inPackage`: the program is a bin of the agent's own npm package (run through npx as the agent is),
 * else it is looked up on the agent's PATH; `variable`: an environment variable of the agent that names the program,
 * over `program` (claude-agent-acp's CLAUDE_CODE_EXECUTABLE); `install`: what to do when it is not found. Or, for an
 * agent whose CLI cannot fork, `cannot`: why, in a sentence the person reads.
 */
export const AgentCli = t.union(
  [
    t.intersection([t.type({ program: Words, fork: ForkArgs }), t.partial({ inPackage: t.boolean, variable: Words, install: Words })]),
    t.type({ cannot: Words }),
  ],
  'AgentCli',
);
export type AgentCli = t.TypeOf<typeof AgentCli>;

/** The CLI of a configured agent: the command that starts it (before the fork's arguments), or why it cannot fork. */
export type CliRoute =
  | { readonly command: string; readonly args: readonly string[]; readonly fork: readonly string[]; readonly variable?: string; readonly install?: string }
  | { readonly cannot: string };

/** The route of `cli` for an agent launched as `launch`: `npx … -- <program>` for a bin of its npm package. */
export function cliRouteOf(cli: AgentCli, launch: { readonly command: string; readonly args: readonly string[] }): CliRoute {
  if ('cannot' in cli) return { cannot: cli.cannot };
  const viaNpx = cli.inPackage === true && launch.command === 'npx' ? launch.args.indexOf('--') : -1;
  const before = launch.args.slice(0, viaNpx + 1);
  // `npx --yes -- pkg` (a package whose bin is its name) names the package after `--`: it moves into `--package=`.
  const npxArgs = before.some((arg) => arg.startsWith('--package=')) ? before : [...before.slice(0, -1), `--package=${launch.args[viaNpx + 1] ?? ''}`, '--'];
  const start = viaNpx < 0 ? { command: cli.program, args: [] } : { command: 'npx', args: [...npxArgs, cli.program] };
  return { ...start, fork: cli.fork, ...(cli.variable === undefined ? {} : { variable: cli.variable }), ...(cli.install === undefined ? {} : { install: cli.install }) };
}

/** `location`: where the program was found, which the terminal runs (no shell between: nothing is typed, nothing echoed). */
export type ForkCommand = { readonly ok: true; readonly command: string; readonly location: string; readonly args: readonly string[] } | { readonly ok: false; readonly reason: string };

/**
 * The command that opens a fork of `session` in the agent's CLI, with the agent's environment `agentEnv` over the
 * inherited `env` (on Windows the variables' names ignore case there); or why there is none (the person reads it).
 */
export function forkCommandOf(agentName: string, route: CliRoute | undefined, session: string, agentEnv: Readonly<Record<string, string>>, env: Env, which: (executable: string, env: Env) => string | undefined, platform: NodeJS.Platform = process.platform): ForkCommand {
  if (route === undefined) return { ok: false, reason: `${agentName} names no CLI that could open its sessions (its definition has no \`cli\`).` };
  if ('cannot' in route) return { ok: false, reason: route.cannot };
  // The agent reads the variable from its whole environment: the inherited one, under its own.
  const agentSees = withEnv(env, agentEnv, platform);
  const named = route.variable === undefined ? undefined : agentSees[route.variable];
  const command = named !== undefined && named !== '' ? named : route.command;
  const location = which(command, agentSees);
  if (location === undefined) {
    return { ok: false, reason: `${agentName}'s CLI (\`${command}\`) was not found on the agent's PATH${route.install === undefined ? '.' : `: ${route.install}.`}` };
  }
  return { ok: true, command, location, args: [...route.args, ...route.fork.map((arg) => (arg === SESSION_PLACEHOLDER ? session : arg))] };
}
