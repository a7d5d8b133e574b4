import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as t from 'io-ts';
import type { Logger } from '../log/logger.js';
import { canonicalJson } from '../protocol/canonical-json.js';
import { ToolDefinition } from '../protocol/messages.js';

const DIR_NAME = 'offered-tools';
/** Copilot's agent mode offers ~60 tools in ~100 KB; a list far past that is not kept. */
const MAX_BYTES = 4 * 1024 * 1024;

const StoredTools = t.type({ tools: t.array(ToolDefinition) });

/**
 * The tools a consumer last offered an agent in a workspace, kept in `--state-dir`: a session resumed ahead of
 * its conversation's next turn (after a window reload) opens with the tool server that turn will most likely
 * offer, so that agents which read tool lists when a session opens see them. One small file per agent and
 * folder, replaced when the list changes.
 */
export class OfferedToolsStore {
  private readonly dir: string | undefined;
  /** The digest of the list last written per file, so that an unchanged list costs nothing. */
  private readonly written = new Map<string, string>();
  /** The tools last offered each agent in any workspace, since this process started. */
  private readonly latest = new Map<string, readonly ToolDefinition[]>();

  constructor(
    stateDir: string | undefined,
    private readonly log: Logger,
  ) {
    this.dir = stateDir === undefined ? undefined : path.join(stateDir, DIR_NAME);
  }

  remember(agent: string, workspace: string, tools: readonly ToolDefinition[]): void {
    this.latest.set(agent, tools);
    const file = this.fileOf(agent, workspace);
    if (file === undefined) return;
    const text = JSON.stringify({ tools });
    const digest = createHash('sha256').update(canonicalJson(tools)).digest('base64url');
    if (this.written.get(file) === digest || text.length > MAX_BYTES) return;
    this.written.set(file, digest);
    const temporary = `${file}.${randomBytes(12).toString('hex')}.tmp`;
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
      renameSync(temporary, file);
    } catch (error) {
      this.log.debug(`could not keep the offered tools in ${file}: ${String(error)}`);
      try {
        unlinkSync(temporary);
      } catch {
        // Never written.
      }
    }
  }

  /** The tools last offered `agent` in `workspace`; none when unknown or unreadable. */
  last(agent: string, workspace: string): ToolDefinition[] {
    const file = this.fileOf(agent, workspace);
    if (file === undefined) return [];
    try {
      const decoded = StoredTools.decode(JSON.parse(readFileSync(file, 'utf8')));
      return decoded._tag === 'Right' ? decoded.right.tools : [];
    } catch {
      return [];
    }
  }

  /** The tools last offered `agent` in any workspace of this process (another window's); none before the first. */
  lastAnywhere(agent: string): readonly ToolDefinition[] | undefined {
    return this.latest.get(agent);
  }

  private fileOf(agent: string, workspace: string): string | undefined {
    if (this.dir === undefined) return undefined;
    return path.join(this.dir, `${createHash('sha256').update(`${agent}\n${workspace}`).digest('hex').slice(0, 32)}.json`);
  }
}
