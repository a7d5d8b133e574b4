/**
 * Records the requests a consumer sends, to learn its shapes and keep fixtures: with the environment
 * variable SYMPOSIUM_RECORD_REQUESTS set to a file, each request is appended to it as one JSON line (the
 * messages as the bridge receives them, the tool names, and the keys of the consumer's model options).
 * A debugging aid for developers: it writes what the user typed, so it is never on by default.
 */
import { appendFileSync } from 'node:fs';
import type { Message } from '../../protocol/messages.js';

export interface RecordedRequest {
  readonly modelId: string;
  readonly messages: readonly Message[];
  readonly tools: readonly string[];
  readonly modelOptionKeys: readonly string[];
  readonly modelConfiguration: unknown;
}

export function requestRecorder(file: string | undefined): ((request: RecordedRequest) => void) | undefined {
  if (file === undefined || file === '') return undefined;
  return (request) => {
    try {
      appendFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), ...request })}\n`);
    } catch {
      // A recording that cannot be written must not fail the request.
    }
  };
}
