/**
 * Gemini CLI 0.61 (the catalogue's pin) through the real bridge, offline against a scripted mock of the
 * Gemini API: see catalog-agent-suite.ts for the checks and catalog-agents.ts for how it runs.
 */
import { describeCatalogAgent } from './catalog-agent-suite.js';
import { GEMINI } from './catalog-agents.js';

describeCatalogAgent(GEMINI);
