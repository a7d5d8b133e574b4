import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * The build of the bridge at `bridgePath`, as the agent host's endpoint names it: a digest of the file, so that a
 * window of an updated extension gets a host of its own, and the old host ends with the last window of the old one.
 */
export function buildOf(bridgePath: string): string {
  return createHash('sha256').update(readFileSync(bridgePath)).digest('hex').slice(0, 12);
}
