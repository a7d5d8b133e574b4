/**
 * The catalogue in the format of the ACP agent registry (`registry.json`: `{version, agents: [{id, name,
 * version, description, distribution: {npx | uvx | binary: {<os>-<arch>: …}}, icon?, …}]}`, as
 * agentclientprotocol/registry's FORMAT.md and agent.schema.json define it). The built-in agents are read
 * from a snapshot in this format (`registry-snapshot.ts`); a user's newer registry file adds the agents the
 * snapshot lacks (the snapshot's pinned versions stay the default). No `vscode` here.
 */
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { ModeSetting, ShellOff } from '../../protocol/messages.js';
import { decodeOrThrow } from '../../protocol/decode.js';
import { AgentCli } from './agent-cli.js';

/** How an agent of the catalogue is launched: what a registry entry's distribution comes to. */
export type Distribution =
  /** An npm package, run with `npx` (fetched on first use, cached by npm, pinned to `version`). */
  | { readonly kind: 'npx'; readonly package: string; readonly version?: string; readonly bin?: string; readonly args: readonly string[] }
  /** A Python package, run with `uvx` (`--from package bin` when the program is named). */
  | { readonly kind: 'uvx'; readonly package: string; readonly bin?: string; readonly args: readonly string[] }
  /** A per-platform download of the ACP registry (an archive with the program), installed on first use. */
  | { readonly kind: 'archive'; readonly url: string; readonly sha256?: string; readonly cmd: string; readonly args: readonly string[]; readonly version?: string }
  /** A program the user installs themselves, looked up on PATH. */
  | { readonly kind: 'binary'; readonly executable: string; readonly args: readonly string[] };

/** An agent of the catalogue: a registry entry as the extension runs it. */
export interface CatalogEntry {
  /** The id in `symposium.agents` and in the model id `symposium-agent-<id>`. */
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly distribution: Distribution;
  /** How the agent signs in: the bridge cannot run interactive sign-ins, so this happens beforehand. */
  readonly auth: string;
  /** For binaries: how to install it. */
  readonly install?: string;
  /** The environment variables it reads an API key from, offered by *Set Agent API Key*. */
  readonly apiKeys?: readonly string[];
  /** Its own sign-in, as a phrase that follows "or", for the answer of a request it refused for want of one. */
  readonly ownSignIn?: string;
  /** Environment variables the agent always gets (the user's `env` overrides them). */
  readonly env?: Readonly<Record<string, string>>;
  /** How its own shell is switched off, per process, for conversations offered a consumer's command tool. */
  readonly shellOff?: ShellOff;
  /** How its own CLI opens a fork of one of its sessions (*Continue Chat in Terminal*), or why it cannot. */
  readonly cli?: AgentCli;
  /** Its subagents come as child sessions: the ACP subagents RFD's `clientCapabilities.subagents` is declared to it (Codex). */
  readonly subagentSessions?: boolean;
  /** Where its own settings name the mode its sessions begin in, which the bridge honours (Claude Code's). */
  readonly modeSetting?: ModeSetting;
}

const StringArray = t.array(t.string);
const StringRecord = t.record(t.string, t.string);
const PackageDistribution = t.intersection([t.type({ package: t.string }), t.partial({ cmd: t.string, args: StringArray, env: StringRecord })]);
const BinaryTarget = t.intersection([t.type({ archive: t.string, cmd: t.string }), t.partial({ sha256: t.string, args: StringArray, env: StringRecord })]);

export const RegistryAgent = t.intersection(
  [
    t.type({
      id: t.string,
      name: t.string,
      version: t.string,
      description: t.string,
      distribution: t.partial({ npx: PackageDistribution, uvx: PackageDistribution, binary: t.record(t.string, BinaryTarget) }),
    }),
    t.partial({ icon: t.string, repository: t.string, website: t.string }),
  ],
  'RegistryAgent',
);
export type RegistryAgent = t.TypeOf<typeof RegistryAgent>;

/** What the catalogue adds to a registry entry: how the agent signs in, which keys it reads. */
export type CatalogOverlay = Readonly<Record<string, Partial<Pick<CatalogEntry, 'auth' | 'apiKeys' | 'ownSignIn' | 'install' | 'env' | 'shellOff' | 'cli' | 'subagentSessions' | 'modeSetting'>>>>;

/** The registry's name of a platform, e.g. `darwin-aarch64`, `windows-x86_64`; undefined for others. */
export function platformTarget(platform: NodeJS.Platform, arch: string): string | undefined {
  const os = platform === 'win32' ? 'windows' : platform === 'darwin' || platform === 'linux' ? platform : undefined;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  return os === undefined || cpu === undefined ? undefined : `${os}-${cpu}`;
}

/** `@scope/pkg@1.2.3` → its name and version (a name alone has no version). */
export function splitPackage(spec: string): { readonly name: string; readonly version?: string } {
  const at = spec.lastIndexOf('@');
  return at <= 0 ? { name: spec } : { name: spec.slice(0, at), version: spec.slice(at + 1) };
}

/**
 * The catalogue entries of a registry for this platform: npx first, then uvx, then this platform's binary.
 * Entries that do not decode, or have no distribution for this platform, are skipped and `problems` says why.
 */
export function catalogOfRegistry(raw: unknown, target: string | undefined, overlay: CatalogOverlay = {}): { entries: CatalogEntry[]; problems: string[] } {
  const entries: CatalogEntry[] = [];
  const problems: string[] = [];
  const agents = typeof raw === 'object' && raw !== null && Array.isArray((raw as { agents?: unknown }).agents) ? (raw as { agents: unknown[] }).agents : undefined;
  if (agents === undefined) return { entries, problems: ['the registry has no "agents" array'] };
  agents.forEach((item, index) => {
    const decoded = RegistryAgent.decode(item);
    if (isLeft(decoded)) return void problems.push(`agents[${index}] is not a registry entry (id, name, version, description, distribution): skipped`);
    const agent = decoded.right;
    const distribution = distributionOf(agent, target);
    if (distribution === undefined) return void problems.push(`${agent.id}: no distribution for this platform (${target ?? 'unknown'}): skipped`);
    const extra = overlay[agent.id] ?? {};
    const { cli, problem } = cliOf(extra.cli, `${agent.id}.cli`);
    if (problem !== undefined) problems.push(`${problem}: its CLI route is left out`);
    entries.push({
      id: agent.id,
      name: agent.name,
      description: agent.description,
      distribution,
      auth: extra.auth ?? 'It signs in as its documentation says; when it asks, Symposium offers its sign-in.',
      ...(extra.apiKeys === undefined ? {} : { apiKeys: extra.apiKeys }),
      ...(extra.ownSignIn === undefined ? {} : { ownSignIn: extra.ownSignIn }),
      ...(extra.install === undefined ? {} : { install: extra.install }),
      ...(extra.env === undefined ? {} : { env: extra.env }),
      ...(extra.shellOff === undefined ? {} : { shellOff: extra.shellOff }),
      ...(cli === undefined ? {} : { cli }),
      ...(extra.subagentSessions === true ? { subagentSessions: true } : {}),
      ...(extra.modeSetting === undefined ? {} : { modeSetting: extra.modeSetting }),
    });
  });
  return { entries, problems };
}

/** `raw` (a `cli` field at `where`) validated: the route, or what is wrong with it, naming the bad field. */
export function cliOf(raw: unknown, where: string): { readonly cli?: AgentCli; readonly problem?: string } {
  if (raw === undefined) return {};
  try {
    return { cli: decodeOrThrow(AgentCli, raw, where) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

function distributionOf(agent: RegistryAgent, target: string | undefined): Distribution | undefined {
  const { npx, uvx, binary } = agent.distribution;
  if (npx !== undefined) {
    const { name, version } = splitPackage(npx.package);
    return { kind: 'npx', package: name, ...(version === undefined ? {} : { version }), ...(npx.cmd === undefined ? {} : { bin: npx.cmd }), args: npx.args ?? [] };
  }
  if (uvx !== undefined) return { kind: 'uvx', package: uvx.package, ...(uvx.cmd === undefined ? {} : { bin: uvx.cmd }), args: uvx.args ?? [] };
  const binaryTarget = target === undefined ? undefined : binary?.[target];
  if (binaryTarget !== undefined) {
    return { kind: 'archive', url: binaryTarget.archive, cmd: binaryTarget.cmd, args: binaryTarget.args ?? [], version: agent.version, ...(binaryTarget.sha256 === undefined ? {} : { sha256: binaryTarget.sha256 }) };
  }
  return undefined;
}

/** The catalogue with a user's registry: its agents the catalogue lacks are added; the catalogue's own stay as pinned. */
export function withRegistry(catalog: readonly CatalogEntry[], extra: readonly CatalogEntry[]): CatalogEntry[] {
  const known = new Set(catalog.map((entry) => entry.id));
  return [...catalog, ...extra.filter((entry) => !known.has(entry.id))];
}

/** A registry file the user points at (`symposium.registry`): its entries for this platform, or why it cannot be read. */
export function readRegistryFile(file: string, target: string | undefined, read: (file: string) => string): { entries: CatalogEntry[]; problems: string[] } {
  let raw: unknown;
  try {
    raw = JSON.parse(read(file));
  } catch (error) {
    return { entries: [], problems: [`symposium.registry: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`] };
  }
  const { entries, problems } = catalogOfRegistry(raw, target);
  return { entries, problems: problems.map((problem) => `symposium.registry (${file}): ${problem}`) };
}
