/** The API keys the bridge holds for every window's requests (`src/agents/registry/held-secrets.ts`, issue 60). */
import { HeldSecrets } from '../../src/agents/registry/held-secrets.js';
import type { AgentDefinition } from '../../src/protocol/messages.js';

const agent = (env: Record<string, string>, command = 'claude-agent-acp'): AgentDefinition => ({
  mcp_server: { name: 'Claude Code', command, args: [], env: Object.entries(env).map(([name, value]) => ({ name, value })) },
});

test('a request that lacks a held key gets it, at the end of its env; one that carries its own keeps it', () => {
  const held = new HeldSecrets();
  held.hold(agent({ HOME: '/h', ANTHROPIC_API_KEY: 'sk-a' }), ['ANTHROPIC_API_KEY'], []);
  // The key's window's definition and the other window's, completed, are one agent.
  expect(held.complete(agent({ HOME: '/h' }))).toEqual(agent({ HOME: '/h', ANTHROPIC_API_KEY: 'sk-a' }));
  expect(held.complete(agent({ HOME: '/h', ANTHROPIC_API_KEY: 'sk-b' }))).toEqual(agent({ HOME: '/h', ANTHROPIC_API_KEY: 'sk-b' }));
  // Another agent (another command, another env) is not given it.
  expect(held.complete(agent({ HOME: '/h' }, 'codex-acp'))).toEqual(agent({ HOME: '/h' }, 'codex-acp'));
  expect(held.complete(agent({ HOME: '/other' }))).toEqual(agent({ HOME: '/other' }));
  expect(held.complete({ eliza: {} })).toEqual({ eliza: {} });
});

test('a key removed in any window is no longer held', () => {
  const held = new HeldSecrets();
  held.hold(agent({ HOME: '/h', ANTHROPIC_API_KEY: 'sk-a' }), ['ANTHROPIC_API_KEY'], []);
  held.hold(agent({ HOME: '/h' }), [], ['ANTHROPIC_API_KEY']);
  expect(held.complete(agent({ HOME: '/h' }))).toEqual(agent({ HOME: '/h' }));
});

test('a window that reports no keys (its VS Code lost them) leaves the held ones', () => {
  const held = new HeldSecrets();
  held.hold(agent({ HOME: '/h', ANTHROPIC_API_KEY: 'sk-a' }), ['ANTHROPIC_API_KEY'], []);
  held.hold(agent({ HOME: '/h' }), [], []);
  expect(held.complete(agent({ HOME: '/h' }))).toEqual(agent({ HOME: '/h', ANTHROPIC_API_KEY: 'sk-a' }));
});
