import * as acp from '@agentclientprotocol/sdk';
import type { AgentCommand } from '../../protocol/messages.js';
import type { AcpAgentOptions } from './acp-agent-options.js';
import type { StartedAgent } from './agent-processes.js';
import { checkInitialize } from './answers/agent-answers.js';
import { AgentProcess, type AgentCallbacks } from './process/agent-process.js';
import { clientCapabilitiesOf } from './session/client-capabilities.js';
import { startupStep } from './process/startup-step.js';

/** An agent's process, spawned and sent `initialize`, its handlers `callbacks`; a failed start leaves nothing running. */
export function startAgent(command: AgentCommand, options: AcpAgentOptions, callbacks: AgentCallbacks): StartedAgent {
  const { name } = command;
  const process = new AgentProcess(command, { cwd: options.cwd, log: options.log, gate: options.gate }, callbacks);
  const initialize = process.connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: clientCapabilitiesOf(options, command.subagentSessions === true),
    clientInfo: { name: 'symposium-lm', version: '0.1.0' },
  });
  const initialized = startupStep(name, options.startupTimeoutMs, process, 'initialize', initialize.then((raw: unknown) => checkInitialize(name, raw))).then((init) => {
    if (init.protocolVersion !== acp.PROTOCOL_VERSION) {
      throw new Error(`Agent "${name}" speaks ACP protocol version ${init.protocolVersion}; this bridge speaks version ${acp.PROTOCOL_VERSION}.`);
    }
    const takes = init.agentCapabilities?.promptCapabilities;
    options.log.info(`agent ${name} takes in a prompt: images ${takes?.image === true ? 'yes' : 'no'}, embedded context ${takes?.embeddedContext === true ? 'yes' : 'no'}`);
    return init;
  });
  initialized.catch(() => process.kill());
  return { process, initialized };
}
