/**
 * The environment an agent is given: the inherited one with the agent's own variables laid over it. On Windows
 * variable names ignore case, so an agent's `PATH` must replace an inherited `Path` (and the reverse): a plain
 * spread keeps both, and then Windows gives the process whichever sorts first (`PATH`, whoever set it), cross-spawn
 * looks the command up on the one set last, and the extension's `findOnPath` on the one set first.
 */
export function withEnv<T extends string | undefined>(
  base: Readonly<Record<string, T>>,
  overrides: Readonly<Record<string, string>>,
  platform: NodeJS.Platform = process.platform,
): Record<string, T | string> {
  if (platform !== 'win32') return { ...base, ...overrides };
  const replaced = new Set(Object.keys(overrides).map((name) => name.toUpperCase()));
  const kept = Object.entries(base).filter(([name]) => !replaced.has(name.toUpperCase()));
  return { ...Object.fromEntries(kept), ...overrides };
}
