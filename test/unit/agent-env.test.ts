/**
 * The environment an agent is given (`src/agents/agent-env.ts`), the platform injected: on Windows, where names ignore
 * case, the agent's own variable replaces the inherited one in whatever case either is written; the extension's
 * lookup of the command then uses the PATH the agent gets.
 */
import { withEnv } from '../../src/agents/agent-env.js';
import { findOnPath } from '../../src/extension/agents/agent-catalog.js';

test('win32: an agent\'s Path replaces an inherited PATH, and its PATH an inherited Path: one variable, the agent\'s', () => {
  expect(withEnv({ PATH: 'C:\\Windows', HOME: undefined, USERPROFILE: 'C:\\Users\\ann' }, { Path: 'D:\\agents' }, 'win32')).toEqual({ Path: 'D:\\agents', HOME: undefined, USERPROFILE: 'C:\\Users\\ann' });
  expect(withEnv({ Path: 'C:\\Windows', A: '1' }, { PATH: 'D:\\agents' }, 'win32')).toEqual({ A: '1', PATH: 'D:\\agents' });
});

test.each(['linux', 'darwin'] as const)('%s: names are case-sensitive, so Path and PATH are two variables', (platform) => {
  expect(withEnv({ PATH: '/usr/bin' }, { Path: '/opt' }, platform)).toEqual({ PATH: '/usr/bin', Path: '/opt' });
  expect(withEnv({ PATH: '/usr/bin' }, { PATH: '/opt' }, platform)).toEqual({ PATH: '/opt' });
});

test("win32: the command is looked up on the agent's PATH, not the inherited one it replaces", () => {
  const files = new Set(['D:\\agents\\my-agent.cmd', 'C:\\Windows\\my-agent.exe']);
  const options = { platform: 'win32' as const, isExecutable: (file: string) => files.has(file) };
  expect(findOnPath('my-agent', withEnv({ Path: 'C:\\Windows' }, { PATH: 'D:\\agents' }, 'win32'), options)).toBe('D:\\agents\\my-agent.cmd');
});
