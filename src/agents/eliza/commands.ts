import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../protocol/bounded-depth.js';

/**
 * Commands that make the built-in Eliza exercise the bridge's tool paths deterministically:
 * `list tools`, `use tool NAME with {json}`, `request permission TITLE`.
 */
export type ElizaCommand =
  | { readonly kind: 'list-tools' }
  | { readonly kind: 'use-tool'; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly kind: 'bad-tool-input'; readonly name: string; readonly problem: string }
  | { readonly kind: 'request-permission'; readonly title: string };

export function parseCommand(text: string): ElizaCommand | undefined {
  const trimmed = text.trim();
  if (/^list tools\.?$/i.test(trimmed)) return { kind: 'list-tools' };
  const permission = /^request permission\s+(.+)$/is.exec(trimmed);
  if (permission) return { kind: 'request-permission', title: permission[1].trim() };
  const use = /^use tool\s+(\S+)(?:\s+with\s+(.*))?$/is.exec(trimmed);
  if (!use) return undefined;
  const [, name, json = '{}'] = use;
  try {
    const input: unknown = JSON.parse(json);
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return { kind: 'bad-tool-input', name, problem: 'the input must be a JSON object' };
    // The tool call's parameters come back in the next request, where deeper nests are refused.
    if (nestedDeeperThan(input, MAX_JSON_DEPTH)) return { kind: 'bad-tool-input', name, problem: `the input is nested deeper than ${MAX_JSON_DEPTH} levels` };
    return { kind: 'use-tool', name, input: input as Record<string, unknown> };
  } catch (error) {
    return { kind: 'bad-tool-input', name, problem: `that is not JSON (${(error as Error).message})` };
  }
}
