import type * as acp from '@agentclientprotocol/sdk';
import { AgentInfoState, modelsOf, SET_MODEL_CONFIG_ID, sessionModelsOf } from '../../src/agents/acp/answers/agent-info.js';
import type { AgentInfo } from '../../src/protocol/messages.js';
import { selectOption } from '../fixtures/config-options.js';

const modelOption = (currentValue: string, options: acp.SessionConfigSelectOptions): acp.SessionConfigOption => ({
  id: 'model',
  name: 'Model',
  category: 'model',
  type: 'select',
  currentValue,
  options,
});

describe('modelsOf', () => {
  test('the model-category select option, choices out of their groups', () => {
    const options: acp.SessionConfigOption[] = [
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }] },
      modelOption('sonnet', [
        { group: 'fast', name: 'Fast', options: [{ value: 'haiku', name: 'Haiku' }] },
        { group: 'smart', name: 'Smart', options: [{ value: 'sonnet', name: 'Sonnet', description: 'Balanced' }] },
      ]),
    ];
    expect(modelsOf(options)).toEqual({
      configId: 'model',
      current: 'sonnet',
      choices: [
        { value: 'haiku', name: 'Haiku' },
        { value: 'sonnet', name: 'Sonnet', description: 'Balanced' },
      ],
    });
  });

  test('no model option, no models', () => {
    expect(modelsOf(undefined)).toBeUndefined();
    expect(modelsOf([{ id: 'x', name: 'X', category: 'thought_level', type: 'boolean', currentValue: true }])).toBeUndefined();
  });
});

describe('AgentInfoState', () => {
  test('each change is reported once; what did not change is not reported again', () => {
    const reports: AgentInfo[] = [];
    const state = new AgentInfoState((info) => reports.push(info));
    state.learnInitialize({ protocolVersion: 1, agentCapabilities: { promptCapabilities: { image: true } } });
    state.learnConfigOptions([modelOption('a', [{ value: 'a', name: 'A' }])]);
    state.learnConfigOptions([modelOption('a', [{ value: 'a', name: 'A' }])]);
    state.learnUsage({ size: 200_000 });
    state.learnUsage({ size: 200_000 });
    state.learnUsage({ size: 0 });
    expect(reports).toEqual([
      { imageInput: true },
      { imageInput: true, models: { configId: 'model', current: 'a', choices: [{ value: 'a', name: 'A' }] }, options: [] },
      { imageInput: true, models: { configId: 'model', current: 'a', choices: [{ value: 'a', name: 'A' }] }, options: [], contextWindow: 200_000 },
    ]);
  });

  test("an agent's other options (its mode, thought level; a boolean as On and Off) are learned for the picker's per-model options", () => {
    const reports: AgentInfo[] = [];
    const state = new AgentInfoState((info) => reports.push(info));
    state.learnConfigOptions([
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }, { value: 'code', name: 'Code', description: 'Edits files' }] },
      { id: 'fast', name: 'Fast', type: 'boolean', currentValue: true },
    ]);
    expect(reports).toEqual([
      {
        imageInput: false,
        options: [
          { configId: 'mode', name: 'Mode', current: 'ask', choices: [{ value: 'ask', name: 'Ask' }, { value: 'code', name: 'Code', description: 'Edits files' }] },
          { configId: 'fast', name: 'Fast', current: 'true', choices: [{ value: 'true', name: 'On' }, { value: 'false', name: 'Off' }] },
        ],
      },
    ]);
  });

  test('ACP session modes that no config option mirrors are an option of their own, Mode, set with session/set_mode', () => {
    const reports: AgentInfo[] = [];
    const state = new AgentInfoState((info) => reports.push(info));
    state.learnSession({ modes: { currentModeId: 'build', availableModes: [{ id: 'build', name: 'Build' }, { id: 'plan', name: 'Plan', description: 'Plans only' }] } });
    const modes = { configId: 'session/set_mode', name: 'Mode', current: 'build', choices: [{ value: 'build', name: 'Build' }, { value: 'plan', name: 'Plan', description: 'Plans only' }] };
    expect(reports).toEqual([{ imageInput: false, options: [modes] }]);
    // A later config_option_update keeps them.
    state.learnConfigOptions([{ id: 'effort', name: 'Effort', type: 'select', currentValue: 'low', options: [{ value: 'low', name: 'Low' }] }]);
    expect(reports.at(-1)?.options).toEqual([{ configId: 'effort', name: 'Effort', current: 'low', choices: [{ value: 'low', name: 'Low' }] }, modes]);
  });
});

describe("an agent's defaults, as VS Code sends them with every request whose person chose nothing", () => {
  const claudeOptions = (mode: string, model: string, effort = 'low'): acp.SessionConfigOption[] => [
    selectOption('model', ['default', 'opus'], model, 'model'),
    selectOption('mode', ['default', 'plan', 'auto'], mode, 'mode'),
    selectOption('effort', ['low', 'high'], effort),
  ];

  test("the mode's is the one that asks, whatever sessions begin in (claude-agent-acp 0.101: auto)", () => {
    const reports: AgentInfo[] = [];
    const state = new AgentInfoState((info) => reports.push(info));
    state.learnSession({ configOptions: claudeOptions('auto', 'default') });
    expect(reports.at(-1)?.options?.map((o) => [o.configId, o.current])).toEqual([['mode', 'default'], ['effort', 'low']]);
    // An agent without such a mode keeps its own.
    state.learnSession({ modes: { currentModeId: 'build', availableModes: [{ id: 'build', name: 'Build' }, { id: 'plan', name: 'Plan' }] } });
    expect(reports.at(-1)?.options?.map((o) => [o.configId, o.current])).toEqual([['session/set_mode', 'build']]);
  });

  test("one session's changes (Plan mode, a model picked, an option set) do not move them", () => {
    const reports: AgentInfo[] = [];
    const state = new AgentInfoState((info) => reports.push(info));
    state.learnSession({ configOptions: claudeOptions('default', 'default') });
    const before = reports.at(-1);
    state.learnConfigOptions(claudeOptions('plan', 'opus', 'high'));
    state.learnSession({ configOptions: claudeOptions('auto', 'opus') });
    expect(reports.at(-1)).toEqual(before);
    // A default no longer offered gives way to what the agent says now.
    state.learnConfigOptions([selectOption('effort', ['max'], 'max')]);
    expect(reports.at(-1)?.options).toEqual([{ configId: 'effort', name: 'effort', current: 'max', choices: [{ value: 'max', name: 'max' }] }]);
  });
});

describe('models reported the older way (`models` in the session response, `session/set_model`)', () => {
  test('become choices under the config id session/set_model', () => {
    expect(sessionModelsOf({ models: { currentModelId: 'b', availableModels: [{ modelId: 'a', name: 'Model A', description: 'fast' }, { modelId: 'b', name: '' }] } })).toEqual({
      configId: SET_MODEL_CONFIG_ID,
      current: 'b',
      choices: [
        { value: 'a', name: 'Model A', description: 'fast' },
        { value: 'b', name: 'b' },
      ],
    });
  });

  test('a model config option wins over them; malformed or empty states report nothing', () => {
    const configOptions: acp.SessionConfigOption[] = [{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'x', options: [{ value: 'x', name: 'X' }] }];
    expect(sessionModelsOf({ configOptions, models: { currentModelId: 'a', availableModels: [{ modelId: 'a', name: 'A' }] } })?.configId).toBe('model');
    expect(sessionModelsOf({ models: { currentModelId: 'a', availableModels: [] } })).toBeUndefined();
    expect(sessionModelsOf({ models: { availableModels: [{ modelId: 'a' }] } })).toBeUndefined();
    expect(sessionModelsOf({ models: 'gpt' })).toBeUndefined();
    expect(sessionModelsOf({})).toBeUndefined();
  });
});
