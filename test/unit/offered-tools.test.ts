import { CONSUMER_TOOLS_CHOICES, offeredTools } from '../../src/extension/provider/offered-tools.js';
import { readFileSync } from 'node:fs';

// The names of Copilot 0.67's agent-mode tools, as recorded from the Chat view (test/fixtures/copilot).
const copilot = (JSON.parse(readFileSync('test/fixtures/copilot/agent-mode-first-message.json', 'utf8')) as { tools: string[] }).tools.map((name) => ({ name }));
const names = (tools: { name: string }[]) => tools.map((t) => t.name);

describe('offeredTools', () => {
  test('all: every tool Copilot offers', () => {
    expect(offeredTools(copilot, 'all')).toEqual(copilot);
  });

  test("withoutFilesAndShell: Copilot's file and terminal tools stay behind, its others and the confirmation pass", () => {
    const kept = names(offeredTools(copilot, 'withoutFilesAndShell'));
    for (const twin of ['read_file', 'create_file', 'replace_string_in_file', 'run_in_terminal', 'list_dir', 'grep_search']) expect(kept).not.toContain(twin);
    for (const other of ['memory', 'get_errors', 'symposium-agent-action']) expect(kept).toContain(other);
  });

  test('none: only the confirmation, through which the person is asked', () => {
    expect(names(offeredTools(copilot, 'none'))).toEqual(['symposium-agent-action']);
  });

  test('the setting offers exactly these choices', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { configuration: { properties: Record<string, { enum?: string[]; default?: string }> } } };
    expect(pkg.contributes.configuration.properties['symposium.consumerTools']).toMatchObject({ enum: [...CONSUMER_TOOLS_CHOICES], default: 'all' });
  });
});
