import * as acp from '@agentclientprotocol/sdk';
import type { SessionConfig } from '../../../protocol/messages.js';
import type { Logger } from '../../../log/logger.js';
import type { OpenedSession } from './opened-session.js';
import { SET_MODE_CONFIG_ID, SET_MODEL_CONFIG_ID } from '../answers/agent-info.js';
import { checkSetConfigOption } from '../answers/agent-answers.js';

/**
 * Sets the session config options the turn asks for (the model picked in VS Code, the options set in the picker,
 * the mode of the chat) where they differ, before the prompt goes. A value asked for already in this session is
 * not asked for again: what the agent changed by itself since stands. Options the agent does not offer are left
 * alone; a value the agent refuses fails the turn, since answering with another model than the one picked would
 * mislead the user.
 */
export async function applySessionConfig(opened: OpenedSession, wanted: SessionConfig, host: { readonly name: string; readonly log: Logger }, conversationId: string): Promise<void> {
  const { settings } = opened;
  for (const [configId, value] of Object.entries(wanted)) {
    const current = settings.current.get(configId);
    if (current === undefined) {
      host.log.debug(`conversation ${conversationId}: agent ${host.name} offers no config option ${configId}; ${value} not set`);
      continue;
    }
    if (settings.requested.get(configId) === value) continue;
    settings.requested.set(configId, value);
    if (current === value) continue;
    try {
      if (configId === SET_MODEL_CONFIG_ID) {
        // Models reported the older way are chosen the older way.
        await opened.agent.request('session/set_model', { sessionId: opened.sessionId, modelId: value });
        settings.current.set(configId, value);
      } else if (configId === SET_MODE_CONFIG_ID) {
        await opened.agent.request(acp.methods.agent.session.setMode, { sessionId: opened.sessionId, modeId: value });
        settings.current.set(configId, value);
      } else {
        // A boolean option is offered as a choice of `true` and `false`.
        const params = settings.booleans.has(configId) ? { sessionId: opened.sessionId, configId, type: 'boolean' as const, value: value === 'true' } : { sessionId: opened.sessionId, configId, value };
        settings.learn(checkSetConfigOption(host.name, await opened.agent.request(acp.methods.agent.session.setConfigOption, params)).configOptions);
      }
      host.log.info(`conversation ${conversationId}: ${configId} set to ${value}`);
    } catch (error) {
      settings.requested.delete(configId);
      throw new Error(`Agent "${host.name}" could not switch ${configId} to "${value}": ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
