import type * as acp from '@agentclientprotocol/sdk';
import { AgentInfoState, modelsOf } from '../../src/agents/acp/agent-info.js';
import type { AgentInfo } from '../../src/protocol/messages.js';

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

  test("an agent's other select options (its mode, thought level) are learned for the picker's per-model options", () => {
    const reports: AgentInfo[] = [];
    const state = new AgentInfoState((info) => reports.push(info));
    state.learnConfigOptions([
      { id: 'mode', name: 'Mode', category: 'mode', type: 'select', currentValue: 'ask', options: [{ value: 'ask', name: 'Ask' }, { value: 'code', name: 'Code', description: 'Edits files' }] },
      { id: 'fast', name: 'Fast', type: 'boolean', currentValue: true },
    ]);
    expect(reports).toEqual([
      { imageInput: false, options: [{ configId: 'mode', name: 'Mode', current: 'ask', choices: [{ value: 'ask', name: 'Ask' }, { value: 'code', name: 'Code', description: 'Edits files' }] }] },
    ]);
  });
});
