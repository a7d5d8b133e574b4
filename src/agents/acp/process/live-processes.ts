/** How long an agent's tree gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000;

/** What the registry needs of an agent process: to end its tree, gently or not, and whether any of it is left. */
export interface EndableProcess {
  kill(): void;
  forceKill(): void;
  treeAlive(): boolean;
}

/**
 * Every agent whose tree may still have a live process (the agent, or what it started and left behind), so
 * that none outlives the bridge. The bridge ends them with `endAgentProcesses` before it exits; whatever is
 * left when the process exits anyway (a crash) is killed outright, since nothing can wait any more. Apart from
 * `agent-process.ts` so that the CLI can end agents without loading the ACP SDK, which only ACP agents need.
 */
export const liveAgentProcesses = new Set<EndableProcess>();
process.once('exit', () => {
  for (const agent of liveAgentProcesses) agent.forceKill();
});

/**
 * Ends every agent's tree: SIGTERM, then SIGKILL for what is still there after `graceMs`. Resolves when all
 * are gone. The bridge awaits it before it exits: the SIGKILL of an agent that ignores SIGTERM must not
 * depend on a timer in a process that is about to end.
 */
export async function endAgentProcesses(graceMs = KILL_GRACE_MS): Promise<void> {
  const agents = [...liveAgentProcesses];
  for (const agent of agents) agent.kill();
  const deadline = Date.now() + graceMs;
  while (agents.some((agent) => agent.treeAlive()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  for (const agent of agents) agent.forceKill();
}
