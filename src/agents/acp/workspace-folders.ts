import type { InitializeResponse } from '@agentclientprotocol/sdk';
import type { Logger } from '../../log/logger.js';

/** Where an agent's sessions run: the workspace's first folder as `cwd`, its other folders as ACP's `additionalDirectories`. */
export interface SessionFolders {
  readonly cwd: string;
  readonly additionalDirectories?: string[];
}

/**
 * The workspace's folders as an agent's sessions get them: all of them where the agent declares
 * `sessionCapabilities.additionalDirectories`; else only the first, and the log says once which it cannot see.
 */
export class WorkspaceFolders {
  private told = false;

  constructor(
    private readonly cwd: string,
    private readonly others: readonly string[],
    private readonly agentName: string,
    private readonly log: Logger,
  ) {}

  /** The folders of a `session/new`, `resume`, `load` or `fork` for an agent that answered `initialize` with `init`. */
  of(init: InitializeResponse): SessionFolders {
    if (this.others.length === 0) return { cwd: this.cwd };
    if (init.agentCapabilities?.sessionCapabilities?.additionalDirectories != null) return { cwd: this.cwd, additionalDirectories: [...this.others] };
    if (!this.told) this.log.info(`agent ${this.agentName} takes no additionalDirectories: it sees ${this.cwd}, not the workspace's other folders ${this.others.join(', ')}`);
    this.told = true;
    return { cwd: this.cwd };
  }
}
