/**
 * Qwen Code 0.24.4 (the catalogue's pin) through the real bridge, offline against a scripted mock of the
 * OpenAI Chat Completions API: see catalog-agent-suite.ts for the checks and catalog-agents.ts for how it runs.
 */
import { describeCatalogAgent } from './catalog-agent-suite.js';
import { QWEN } from './catalog-agents.js';

describeCatalogAgent(QWEN);
