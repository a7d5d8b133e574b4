import type { ModelInformation } from '../../protocol/messages.js';

export const ELIZA_MODEL: ModelInformation = {
  id: 'symposium-eliza',
  name: 'Eliza (built-in)',
  family: 'eliza',
  version: '1.0.0',
  maxInputTokens: 1_000_000,
  maxOutputTokens: 4_096,
  capabilities: { toolCalling: true, imageInput: false },
};
