/**
 * Codex (codex-acp 2.6 with its codex binary) (the catalogue's pin) through the real bridge, offline against a scripted mock of the
 * OpenAI Responses API: see catalog-agent-suite.ts for the checks and catalog-agents.ts for how it runs.
 */
import { describeCatalogAgent } from './catalog-agent-suite.js';
import { CODEX } from './catalog-agents.js';

describeCatalogAgent(CODEX);
