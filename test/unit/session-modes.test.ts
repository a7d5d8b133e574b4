import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { consumerModeOf } from '../../src/history/consumer-mode.js';
import { SessionSettings } from '../../src/agents/acp/session/session-settings.js';
import { turnConfig, unaskedModeNotice } from '../../src/agents/acp/session/session-modes.js';
import { SET_MODE_CONFIG_ID, otherOptionsOf, sessionModesOf } from '../../src/agents/acp/answers/agent-info.js';
import { applySessionConfig } from '../../src/agents/acp/session/session-config.js';
import type { OpenedSession } from '../../src/agents/acp/session/opened-session.js';
import type { Logger } from '../../src/log/logger.js';
import type { Message } from '../../src/protocol/messages.js';
import { selectOption } from '../fixtures/config-options.js';

const fixture = (name: string): Message[] => (JSON.parse(readFileSync(`test/fixtures/copilot/${name}.json`, 'utf8')) as { messages: Message[] }).messages;
const system = (text: string): Message => ({ role: 'system', content: [{ type: 'text', value: text }] });

describe("the chat's mode", () => {
  test('Copilot names its Ask and Plan modes in its system prompt; agent mode names none', () => {
    expect(consumerModeOf(fixture('ask-mode-first-message'))).toBe('ask');
    expect(consumerModeOf(fixture('agent-mode-first-message'))).toBe('agent');
    expect(consumerModeOf([system('You are an expert.\n<modeInstructions>\nYou are currently running in "Plan" mode. Below are your instructions.\n</modeInstructions>')])).toBe('plan');
  });

  test('a custom agent, a user message that quotes the words, or another consumer is agent mode', () => {
    expect(consumerModeOf([system('<modeInstructions>\nYou are currently running in "Reviewer" mode.')])).toBe('agent');
    expect(consumerModeOf([{ role: 'user', content: [{ type: 'text', value: '<modeInstructions>You are currently running in "Plan" mode.' }] }])).toBe('agent');
    expect(consumerModeOf([system('You are Cline.')])).toBe('agent');
  });
});

/** A select option of category mode (Claude Code's `mode`), another one (Codex's collaboration mode), and a model. */
const option = (id: string, values: string[], current: string, category?: string): acp.SessionConfigOption =>
  selectOption(id, values, current, category, (value) => (value === 'default' ? 'Manual' : value));

describe('turnConfig: the chat’s mode as the agent’s own', () => {
  const claude = () => new SessionSettings({ configOptions: [option('mode', ['default', 'acceptEdits', 'plan', 'auto'], 'default', 'mode'), option('model', ['opus', 'sonnet'], 'opus', 'model')] });
  const codex = () =>
    new SessionSettings({ configOptions: [option('mode', ['read-only', 'workspace-write', 'agent'], 'agent', 'mode'), option('collaboration_mode', ['default', 'plan'], 'default', 'collaboration_mode')] });

  test("Plan mode picks the agent's plan choice, with the person's own choices", () => {
    expect(turnConfig(claude(), { model: 'sonnet' }, 'plan')).toEqual({ model: 'sonnet', mode: 'plan' });
    expect(turnConfig(codex(), {}, 'plan')).toEqual({ collaboration_mode: 'plan' });
  });

  test('Ask mode picks a read-only choice where there is one, else the mode that asks', () => {
    expect(turnConfig(codex(), {}, 'ask')).toEqual({ mode: 'read-only' });
    expect(turnConfig(claude(), {}, 'ask')).toEqual({ mode: 'default' });
  });

  test('Agent mode puts back what the others changed: the person’s choice, else the mode that asks, else the session’s first value', () => {
    const settings = claude();
    expect(turnConfig(settings, {}, 'agent')).toEqual({ mode: 'default' });
    settings.current.set('mode', 'plan');
    expect(turnConfig(settings, {}, 'agent')).toEqual({ mode: 'default' });
    expect(turnConfig(settings, { mode: 'acceptEdits' }, 'agent')).toEqual({ mode: 'acceptEdits' });
    const codexSettings = codex();
    codexSettings.current.set('collaboration_mode', 'plan');
    codexSettings.current.set('mode', 'read-only');
    expect(turnConfig(codexSettings, {}, 'agent')).toEqual({ collaboration_mode: 'default', mode: 'agent' });
  });

  test('claude-agent-acp 0.101 opens sessions in auto: Agent mode sets its Manual mode (default), Plan its plan, the person’s pick stands', () => {
    const settings = new SessionSettings({ configOptions: [option('mode', ['default', 'acceptEdits', 'plan', 'auto'], 'auto', 'mode'), option('model', ['default', 'sonnet'], 'default', 'model')] });
    expect(turnConfig(settings, {}, 'agent')).toEqual({ mode: 'default' });
    expect(turnConfig(settings, {}, 'plan')).toEqual({ mode: 'plan' });
    expect(turnConfig(settings, {}, 'ask')).toEqual({ mode: 'default' });
    expect(turnConfig(settings, { mode: 'auto' }, 'agent')).toEqual({ mode: 'auto' });
    // A model named `default` is no mode.
    expect(turnConfig(settings, { model: 'sonnet' }, 'agent')).toEqual({ model: 'sonnet', mode: 'default' });
    // An agent whose modes have no `default` keeps its first one (OpenCode's build).
    const opencode = new SessionSettings({ modes: { currentModeId: 'build', availableModes: [{ id: 'build', name: 'Build' }, { id: 'plan', name: 'Plan' }] } });
    expect(turnConfig(opencode, {}, 'agent')).toEqual({});
  });

  test('a mode that acts unasked is said once per session, and only where it is the session’s mode', () => {
    const settings = new SessionSettings({ configOptions: [option('mode', ['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions'], 'auto', 'mode')] });
    // Before the bridge has set the mode: nothing yet.
    expect(unaskedModeNotice(settings, 'Claude Code')).toBeUndefined();
    settings.requested.set('mode', 'auto');
    expect(unaskedModeNotice(settings, 'Claude Code')).toEqual({ severity: 'warning', title: 'Claude Code acts without asking you in this chat', description: 'its mode is auto, as chosen in the model picker or in its own settings; pick Manual (default) to be asked first.' });
    expect(unaskedModeNotice(settings, 'Claude Code')).toBeUndefined();
    const asking = claude();
    asking.requested.set('mode', 'default');
    expect(unaskedModeNotice(asking, 'Claude Code')).toBeUndefined();
  });

  test('ACP session modes without a config option are a setting of their own, set with session/set_mode', () => {
    const settings = new SessionSettings({ modes: { currentModeId: 'build', availableModes: [{ id: 'build', name: 'Build' }, { id: 'plan', name: 'Plan' }] } });
    expect(settings.current.get(SET_MODE_CONFIG_ID)).toBe('build');
    expect(turnConfig(settings, {}, 'plan')).toEqual({ [SET_MODE_CONFIG_ID]: 'plan' });
    settings.follow({ sessionUpdate: 'current_mode_update', currentModeId: 'plan' });
    expect(turnConfig(settings, {}, 'agent')).toEqual({ [SET_MODE_CONFIG_ID]: 'build' });
  });

  test('updates of options the session does not have, and malformed ones, change nothing', () => {
    const settings = claude();
    settings.follow({ sessionUpdate: 'config_option_update', configOptions: [option('other', ['x'], 'x'), { id: 'mode', name: 'm', type: 'boolean', currentValue: true } as acp.SessionConfigOption] });
    expect(settings.current.has('other')).toBe(false);
    expect(settings.current.get('mode')).toBe('default');
  });
});

describe("the mode the agent's own settings name (Claude Code's permissions.defaultMode)", () => {
  const modeSetting = { configDir: { variable: 'CLAUDE_CONFIG_DIR', home: '.claude' }, user: ['settings.json'], project: ['.claude/settings.json', '.claude/settings.local.json'], key: ['permissions', 'defaultMode'] };
  const modes = () => ({ configOptions: [option('mode', ['default', 'acceptEdits', 'plan', 'auto'], 'auto', 'mode')] });
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'own-mode-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const write = (file: string, json: unknown): void => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), typeof json === 'string' ? json : JSON.stringify(json));
  };
  const settingsIn = (env: Record<string, string>) =>
    new SessionSettings(modes(), { command: { name: 'Claude Code', command: 'claude-agent-acp', args: [], env: Object.entries(env).map(([name, value]) => ({ name, value })), modeSetting }, cwd: path.join(root, 'ws') });

  test("is the person's choice: Agent mode sets it, and says once that the agent acts unasked", () => {
    write('home/.claude/settings.json', { permissions: { defaultMode: 'auto' } });
    const settings = settingsIn({ HOME: path.join(root, 'home') });
    expect(turnConfig(settings, {}, 'agent')).toEqual({ mode: 'auto' });
    expect(turnConfig(settings, {}, 'plan')).toEqual({ mode: 'plan' });
    expect(turnConfig(settings, { mode: 'default' }, 'agent')).toEqual({ mode: 'default' });
    settings.requested.set('mode', 'auto');
    expect(unaskedModeNotice(settings, 'Claude Code')?.title).toBe('Claude Code acts without asking you in this chat');
  });

  test("the workspace's files win over the person's, the local one last; CLAUDE_CONFIG_DIR moves the person's", () => {
    write('config/settings.json', { permissions: { defaultMode: 'acceptEdits' } });
    expect(turnConfig(settingsIn({ HOME: path.join(root, 'home'), CLAUDE_CONFIG_DIR: path.join(root, 'config') }), {}, 'agent')).toEqual({ mode: 'acceptEdits' });
    write('ws/.claude/settings.json', { permissions: { defaultMode: 'auto' } });
    write('ws/.claude/settings.local.json', { permissions: { defaultMode: 'default' } });
    expect(turnConfig(settingsIn({ CLAUDE_CONFIG_DIR: path.join(root, 'config') }), {}, 'agent')).toEqual({ mode: 'default' });
  });

  test('a file that is not JSON, a key of another type, or a mode the session does not offer count as none', () => {
    write('home/.claude/settings.json', '{ not json');
    write('ws/.claude/settings.json', { permissions: { defaultMode: 7 } });
    expect(turnConfig(settingsIn({ HOME: path.join(root, 'home') }), {}, 'agent')).toEqual({ mode: 'default' });
    write('ws/.claude/settings.local.json', { permissions: { defaultMode: 'bypassPermissions' } });
    expect(turnConfig(settingsIn({ HOME: path.join(root, 'home') }), {}, 'agent')).toEqual({ mode: 'default' });
  });
});

describe('applySessionConfig', () => {
  const log = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} } as unknown as Logger;
  /** An opened session whose agent answers every request with `answer`, recording what it was asked. */
  function opened(settings: SessionSettings, answer: unknown = { configOptions: [] }): { session: OpenedSession; asked: [string, unknown][] } {
    const asked: [string, unknown][] = [];
    const agent = { request: async (method: string, params: unknown) => (asked.push([method, params]), answer) } as unknown as acp.ClientContext;
    return { session: { sessionId: 's1', fresh: true, settings, agent, images: false, embeddedContext: false, prompt: async () => ({}), explain: async (e) => e as Error }, asked };
  }

  test('a value is asked for once: the agent’s own change since stands until another value is wanted', async () => {
    const settings = new SessionSettings({ configOptions: [option('mode', ['default', 'plan'], 'default', 'mode')] });
    const { session, asked } = opened(settings);
    await applySessionConfig(session, { mode: 'plan' }, { name: 'A', log }, 'c1');
    settings.follow({ sessionUpdate: 'current_mode_update', currentModeId: 'default' });
    await applySessionConfig(session, { mode: 'plan' }, { name: 'A', log }, 'c1');
    expect(asked).toEqual([['session/set_config_option', { sessionId: 's1', configId: 'mode', value: 'plan' }]]);
    expect(settings.current.get('mode')).toBe('default');
  });

  test('a mode the agent left by itself stands in Agent mode: the mode that asks is set once per session', async () => {
    const settings = new SessionSettings({ configOptions: [option('mode', ['default', 'acceptEdits', 'plan', 'auto'], 'auto', 'mode')] });
    const { session, asked } = opened(settings);
    await applySessionConfig(session, turnConfig(settings, {}, 'agent'), { name: 'A', log }, 'c1');
    settings.follow({ sessionUpdate: 'current_mode_update', currentModeId: 'acceptEdits' });
    await applySessionConfig(session, turnConfig(settings, {}, 'agent'), { name: 'A', log }, 'c1');
    expect(asked).toEqual([['session/set_config_option', { sessionId: 's1', configId: 'mode', value: 'default' }]]);
    expect(settings.current.get('mode')).toBe('acceptEdits');
  });

  test('a boolean option is a choice of On and Off in the picker, set as a boolean', async () => {
    const autoCompact: acp.SessionConfigOption = { id: 'auto_compact', name: 'Auto-compact', type: 'boolean', currentValue: false };
    expect(otherOptionsOf([autoCompact])).toEqual([{ configId: 'auto_compact', name: 'Auto-compact', current: 'false', choices: [{ value: 'true', name: 'On' }, { value: 'false', name: 'Off' }] }]);
    const settings = new SessionSettings({ configOptions: [autoCompact] });
    const { session, asked } = opened(settings, { configOptions: [{ ...autoCompact, currentValue: true }] });
    await applySessionConfig(session, { auto_compact: 'true' }, { name: 'A', log }, 'c1');
    expect(asked).toEqual([['session/set_config_option', { sessionId: 's1', configId: 'auto_compact', type: 'boolean', value: true }]]);
    expect(settings.current.get('auto_compact')).toBe('true');
  });

  test('a choice the person took back (the default picked again, which VS Code sends as none) puts the session back where it began', async () => {
    const agentOptions = (mode: string, effort: string) => [option('mode', ['ask', 'code', 'plan'], mode, 'mode'), option('effort', ['low', 'high'], effort)];
    const settings = new SessionSettings({ configOptions: agentOptions('ask', 'low') });
    const { session, asked } = opened(settings);
    await applySessionConfig(session, turnConfig(settings, { mode: 'code', effort: 'high' }, 'agent'), { name: 'A', log }, 'c1');
    settings.learn(agentOptions('code', 'high'));
    await applySessionConfig(session, turnConfig(settings, {}, 'agent'), { name: 'A', log }, 'c1');
    await applySessionConfig(session, turnConfig(settings, {}, 'agent'), { name: 'A', log }, 'c1');
    expect(asked.map(([, params]) => (params as { configId: string; value: string }).value)).toEqual(['code', 'high', 'ask', 'low']);
  });

  test('ACP session modes are set with session/set_mode', async () => {
    const settings = new SessionSettings({ modes: { currentModeId: 'build', availableModes: [{ id: 'build', name: 'Build' }, { id: 'plan', name: 'Plan' }] } });
    const { session, asked } = opened(settings, {});
    await applySessionConfig(session, turnConfig(settings, {}, 'plan'), { name: 'A', log }, 'c1');
    expect(asked).toEqual([['session/set_mode', { sessionId: 's1', modeId: 'plan' }]]);
  });
});

describe('what the bridge keeps of an agent’s options is bounded', () => {
  test('choices: each value once, at most 500, names of at most 100 characters', () => {
    const flood: acp.SessionConfigOption = {
      id: 'effort',
      name: 'E'.repeat(100_000),
      type: 'select',
      currentValue: 'v0',
      options: Array.from({ length: 5000 }, (_, i) => ({ value: `v${i % 1000}`, name: 'n'.repeat(10_000) })),
    };
    const [kept] = otherOptionsOf([flood]);
    expect(kept!.name).toHaveLength(100);
    expect(kept!.choices).toHaveLength(500);
    expect(new Set(kept!.choices.map((c) => c.value)).size).toBe(500);
    expect(Math.max(...kept!.choices.map((c) => c.name.length))).toBe(100);
    expect(sessionModesOf({ modes: { currentModeId: 'a', availableModes: [{ id: 'a', name: 'A' }, { id: 'a', name: 'again' }, null, 7] } })?.choices).toEqual([{ value: 'a', name: 'A' }]);
  });
});
