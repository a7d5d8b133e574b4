/** The extension's model list and agent definitions, from its settings; its log; the manifest's contract. */
import { readFileSync } from 'node:fs';
import { confirmationMessage, AGENT_ACTION_TOOL, APPROVAL_TEXT, CONFIRMATION_TITLE } from '../../src/extension/agent-action.js';
import { createExtensionLog } from '../../src/extension/log.js';
import { agentModelId, findModel, modelsOf, parseAgentSettings, VENDOR } from '../../src/extension/models.js';
import type { LogLevel } from '../../src/log.js';

describe('parseAgentSettings', () => {
  test('reads valid agents, with defaults for args and env', () => {
    const { agents, problems } = parseAgentSettings([
      { id: 'claude', name: 'Claude Code', command: 'npx', args: ['@agentclientprotocol/claude-agent-acp'], env: { A: '1' } },
      { id: 'plain', name: 'Plain', command: '/bin/agent' },
    ]);
    expect(problems).toEqual([]);
    expect(agents).toEqual([
      { id: 'claude', name: 'Claude Code', command: 'npx', args: ['@agentclientprotocol/claude-agent-acp'], env: { A: '1' } },
      { id: 'plain', name: 'Plain', command: '/bin/agent', args: [], env: {} },
    ]);
  });

  test('nothing configured is no agents and no problem', () => {
    expect(parseAgentSettings(undefined)).toEqual({ agents: [], problems: [] });
    expect(parseAgentSettings([])).toEqual({ agents: [], problems: [] });
  });

  test('skips invalid entries and repeated ids, saying why', () => {
    const { agents, problems } = parseAgentSettings([
      'nope',
      { id: 'a b', name: 'x', command: 'y' },
      { id: 'ok', name: '', command: 'y', args: 'not-an-array' },
      { id: 'good', name: 'Good', command: 'g', env: { N: 1 } },
      { id: 'good', name: 'Good', command: 'g' },
      { id: 'good', name: 'Again', command: 'h' },
    ]);
    expect(agents.map((a) => a.name)).toEqual(['Good']);
    expect(problems).toEqual([
      'symposium.agents[0] is not an object: skipped',
      'symposium.agents[1]: invalid id (letters, digits, "_", "-" and "."): skipped',
      'symposium.agents[2]: invalid name, args (an array of strings): skipped',
      'symposium.agents[3]: invalid env (an object of strings): skipped',
      'symposium.agents[5]: the id "good" is already used: skipped',
    ]);
  });

  test('a value that is not an array is reported', () => {
    expect(parseAgentSettings({ id: 'x' })).toEqual({ agents: [], problems: ['symposium.agents must be an array of agents'] });
  });
});

describe('modelsOf', () => {
  const agents = parseAgentSettings([{ id: 'scripted', name: 'Scripted', command: 'node', args: ['agent.js'], env: { K: 'V' } }]).agents;

  test('Eliza first, then one model per agent, all user-selectable', () => {
    const models = modelsOf({ agents, elizaDeterministic: false });
    expect(models.map((m) => [m.model.id, m.model.name])).toEqual([
      ['symposium-eliza', 'Eliza (built-in)'],
      ['symposium-agent-scripted', 'Scripted'],
    ]);
    for (const { model } of models) {
      expect(model.isUserSelectable).toBe(true);
      expect(model.capabilities).toEqual({ toolCalling: true, imageInput: false });
      expect(model.maxInputTokens).toBeGreaterThan(0);
      expect(model.maxOutputTokens).toBeGreaterThan(0);
      expect(model.family).not.toBe('');
      expect(model.version).not.toBe('');
    }
  });

  test('agent definitions as the protocol wants them', () => {
    const [eliza, scripted] = modelsOf({ agents, elizaDeterministic: true });
    expect(eliza!.agent).toEqual({ eliza: { deterministic: true } });
    expect(scripted!.agent).toEqual({ mcp_server: { name: 'Scripted', command: 'node', args: ['agent.js'], env: [{ name: 'K', value: 'V' }] } });
  });

  test('findModel follows the settings', () => {
    expect(findModel({ agents, elizaDeterministic: false }, agentModelId({ id: 'scripted' }))?.model.name).toBe('Scripted');
    expect(findModel({ agents: [], elizaDeterministic: false }, 'symposium-agent-scripted')).toBeUndefined();
    expect(findModel({ agents: [], elizaDeterministic: false }, 'symposium-eliza')?.agent).toEqual({ eliza: { deterministic: false } });
  });
});

describe('the agent-action confirmation', () => {
  test('a command', () => {
    expect(confirmationMessage({ kind: 'execute', title: 'touch x', raw_input: { command: 'touch x' } })).toBe('Allow the agent to run `touch x`?');
    expect(confirmationMessage({ kind: 'execute', title: 't', raw_input: { command: ['git', 'status'] } })).toBe('Allow the agent to run `git status`?');
    expect(confirmationMessage({ kind: 'execute', title: 't', raw_input: { command: 'echo `date`' } })).toBe('Allow the agent to run `` echo `date` ``?');
  });

  test('a title, with the kind when it says something', () => {
    expect(confirmationMessage({ kind: 'edit', title: 'Write notes.md', raw_input: { file_path: 'notes.md' } })).toBe('Allow the agent to write notes.md? (edit)');
    expect(confirmationMessage({ kind: 'other', title: 'delete everything', raw_input: null })).toBe('Allow the agent to delete everything?');
    expect(confirmationMessage({ kind: 'other', title: 'README edits', raw_input: null })).toBe('Allow the agent to README edits?');
  });

  test('nothing to go on', () => {
    expect(confirmationMessage(undefined)).toBe('Allow the agent to act?');
    expect(confirmationMessage({})).toBe('Allow the agent to act?');
  });

  test('texts', () => {
    expect(AGENT_ACTION_TOOL).toBe('symposium-agent-action');
    expect(CONFIRMATION_TITLE).toBe('Allow agent action?');
    expect(APPROVAL_TEXT).toBe('The user approved this action.');
  });
});

describe('createExtensionLog', () => {
  function channel() {
    const lines: string[] = [];
    return { lines, error: (m: string) => lines.push(`E ${m}`), warn: (m: string) => lines.push(`W ${m}`), info: (m: string) => lines.push(`I ${m}`) };
  }

  test('filters by the level setting; debug and trace go out as marked info lines', () => {
    const out = channel();
    let level: LogLevel = 'info';
    const log = createExtensionLog(out, () => level);
    log.debug('hidden');
    log.info('shown');
    level = 'trace';
    log.debug('d');
    log.trace('t');
    log.error('e');
    expect(out.lines).toEqual(['I shown', 'I [debug] d', 'I [trace] t', 'E e']);
  });

  test("bridge lines keep the bridge's level, without its timestamp", () => {
    const out = channel();
    const log = createExtensionLog(out, () => 'error');
    log.bridgeLine('[2026-11-21T10:00:00.000Z warn] agent x exited');
    log.bridgeLine('[2026-11-21T10:00:00.000Z debug] detail');
    log.bridgeLine('symposium-lm: crashed');
    expect(out.lines).toEqual(['W bridge: agent x exited', 'I [debug] bridge: detail', 'I bridge: symposium-lm: crashed']);
  });
});

describe('package.json, the extension manifest', () => {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    publisher: string;
    name: string;
    main: string;
    engines: { vscode: string };
    contributes: {
      languageModelChatProviders: { vendor: string; displayName: string; managementCommand: string }[];
      languageModelTools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
      commands: { command: string }[];
      configuration: { properties: Record<string, { default: unknown }> };
    };
  };

  test('declares the provider, the tool, the commands and the settings the code uses', () => {
    expect(pkg.publisher).toBe('symposium');
    expect(pkg.name).toBe('symposium-lm');
    expect(pkg.main).toBe('./dist/extension/extension.cjs');
    expect(pkg.engines.vscode).toBe('^1.106.0');
    expect(pkg.contributes.languageModelChatProviders).toEqual([{ vendor: VENDOR, displayName: 'Symposium', managementCommand: 'symposium.manageAgents' }]);
    expect(pkg.contributes.languageModelTools.map((t) => t.name)).toEqual([AGENT_ACTION_TOOL]);
    expect(Object.keys(pkg.contributes.languageModelTools[0]!.inputSchema.properties)).toEqual(['kind', 'title', 'raw_input']);
    expect(pkg.contributes.commands.map((c) => c.command).sort()).toEqual(['symposium.manageAgents', 'symposium.restartBridge', 'symposium.showLog']);
    const settings = pkg.contributes.configuration.properties;
    expect(Object.keys(settings).sort()).toEqual(['symposium.agents', 'symposium.eliza.deterministic', 'symposium.enableExperimentalLM', 'symposium.logLevel']);
    expect(settings['symposium.enableExperimentalLM']!.default).toBe(false);
    expect(settings['symposium.logLevel']!.default).toBe('info');
    expect(settings['symposium.eliza.deterministic']!.default).toBe(false);
  });
});
