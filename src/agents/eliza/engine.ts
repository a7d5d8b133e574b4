/**
 * A pure ELIZA engine running Weizenbaum's DOCTOR script.
 *
 * Everything a conversation accumulates (which reassembly each decomposition
 * used last, the memory queue) lives in an explicit, JSON-serializable
 * `ElizaState` that is threaded through `elizaRespond`; the engine itself keeps
 * nothing between calls and never reads clocks or global randomness.
 */
import { doctorScript, type ElizaScript, type Keyword, type Reassembly } from './doctor-script.js';

export interface ElizaState {
  /** Per decomposition (keyed `"<keyword>#<index>"`), the index of the reassembly used last; absent until first use. */
  readonly lastReassembly: Readonly<Record<string, number>>;
  /** Replies saved by memorizing (`$`) decompositions, oldest first. */
  readonly memory: readonly string[];
}

export const initialElizaState = (): ElizaState => ({ lastReassembly: {}, memory: [] });

/** How a reassembly rule is chosen among the candidates of the decomposition that matched. */
export type ReassemblyChoice = { kind: 'cycle' } | { kind: 'random'; random: () => number };

/** Oldest memories are dropped beyond this so the state stays small in long conversations. */
const memoryCapacity = 20;
/** Only reachable with a script whose fallback keyword cannot match an empty input. */
const lostForWords = 'I am at a loss for words.';

// ---------------------------------------------------------------------------
// The script, compiled once into lookup tables and tokenized patterns.

type PatternToken =
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'synonym'; readonly words: ReadonlySet<string> }
  | { readonly kind: 'word'; readonly word: string };

interface CompiledDecomposition {
  /** Where this decomposition's reassembly choice is remembered in `ElizaState.lastReassembly`. */
  readonly stateKey: string;
  readonly tokens: readonly PatternToken[];
  readonly memorize: boolean;
  readonly reassemblies: readonly Reassembly[];
}

interface CompiledKeyword {
  readonly word: string;
  readonly rank: number;
  readonly decompositions: readonly CompiledDecomposition[];
}

interface CompiledScript {
  readonly keywords: ReadonlyMap<string, CompiledKeyword>;
  /** A pre substitution may expand one word into several ("i'm" → "i am"). */
  readonly pre: ReadonlyMap<string, readonly string[]>;
  readonly post: ReadonlyMap<string, string>;
  readonly quits: ReadonlySet<string>;
  readonly final: string;
  readonly fallback: CompiledKeyword;
}

/** A run of matched words for each numbered part (`*` or `@group`) of a pattern. */
type MatchedParts = readonly (readonly string[])[];

const isNumberedPart = (token: PatternToken): boolean => token.kind !== 'word';

function tokenizePattern(pattern: string, synonyms: ElizaScript['synonyms']): PatternToken[] {
  return pattern.split(/\s+/).filter(Boolean).map((part): PatternToken => {
    if (part === '*') return { kind: 'wildcard' };
    if (!part.startsWith('@')) return { kind: 'word', word: part };
    const group = part.slice(1);
    const members = synonyms[group];
    if (members === undefined) throw new Error(`ELIZA script: unknown synonym group @${group} in "${pattern}"`);
    return { kind: 'synonym', words: new Set([group, ...members]) };
  });
}

/** Catches slips in the static script data (bad `(n)` or `goto`) at load time rather than mid-conversation. */
function checkReassemblies(keyword: CompiledKeyword, knownKeywords: ReadonlySet<string>): void {
  for (const decomposition of keyword.decompositions) {
    const partCount = decomposition.tokens.filter(isNumberedPart).length;
    for (const reassembly of decomposition.reassemblies) {
      if (typeof reassembly !== 'string') {
        if (!knownKeywords.has(reassembly.goto)) {
          throw new Error(`ELIZA script: "${keyword.word}" redirects to unknown "${reassembly.goto}"`);
        }
        continue;
      }
      for (const [, reference] of reassembly.matchAll(/\((\d+)\)/g)) {
        const part = Number(reference);
        if (part < 1 || part > partCount) {
          throw new Error(`ELIZA script: "${reassembly}" refers to a missing part ${part} in "${keyword.word}"`);
        }
      }
    }
  }
}

function compileKeyword(keyword: Keyword, synonyms: ElizaScript['synonyms']): CompiledKeyword {
  return {
    word: keyword.word,
    rank: keyword.rank,
    decompositions: keyword.decompositions.map((decomposition, index) => ({
      stateKey: `${keyword.word}#${index}`,
      tokens: tokenizePattern(decomposition.pattern, synonyms),
      memorize: decomposition.memorize === true,
      reassemblies: decomposition.reassemblies,
    })),
  };
}

function compileScript(script: ElizaScript): CompiledScript {
  const keywords = new Map(script.keywords.map((keyword) => [keyword.word, compileKeyword(keyword, script.synonyms)]));
  const knownKeywords = new Set(keywords.keys());
  for (const keyword of keywords.values()) checkReassemblies(keyword, knownKeywords);
  const fallback = keywords.get(script.fallbackKeyword);
  if (fallback === undefined) throw new Error(`ELIZA script: no fallback keyword "${script.fallbackKeyword}"`);
  return {
    keywords,
    pre: new Map(Object.entries(script.pre).map(([word, replacement]) => [word, replacement.split(' ')])),
    post: new Map(Object.entries(script.post)),
    quits: new Set(script.quits),
    final: script.final,
    fallback,
  };
}

const doctor = compileScript(doctorScript);

// ---------------------------------------------------------------------------
// Reading the input.

function wordsOf(text: string): string[] {
  return (text.match(/[\p{L}\p{N}']+/gu) ?? [])
    .map((word) => word.replace(/^'+|'+$/g, '')) // quotes around a word, not apostrophes inside it
    .filter((word) => word !== '');
}

/** "but" separates clauses just as punctuation does, as in the original. */
function splitOnBut(words: readonly string[]): string[][] {
  const clauses: string[][] = [[]];
  for (const word of words) {
    if (word === 'but') clauses.push([]);
    else clauses[clauses.length - 1].push(word);
  }
  return clauses;
}

/** Lowercase words of each clause; sentence punctuation, dashes and "but" separate clauses. */
function clausesOf(input: string): string[][] {
  return input
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .split(/[.,;:!?]+|\s-+\s|--+/)
    .flatMap((clause) => splitOnBut(wordsOf(clause).slice(0, MAX_CLAUSE_WORDS)))
    .filter((words) => words.length > 0);
}

/** Matching is quadratic in a clause's length and runs on the bridge's only thread: long clauses are cut. */
const MAX_CLAUSE_WORDS = 300;

/** Distinct keywords of the clause, highest rank first; equal ranks keep their order in the input. */
function rankedKeywords(script: CompiledScript, words: readonly string[]): CompiledKeyword[] {
  const found = new Set<CompiledKeyword>();
  for (const word of words) {
    const keyword = script.keywords.get(word);
    if (keyword !== undefined) found.add(keyword);
  }
  return [...found].sort((a, b) => b.rank - a.rank);
}

type Selection =
  | { readonly kind: 'quit' }
  | { readonly kind: 'clause'; readonly words: readonly string[]; readonly keywords: readonly CompiledKeyword[] }
  | { readonly kind: 'no-keyword' };

/** Like the original, only the first clause that contains a keyword is considered; the rest is ignored. */
function selectClause(script: CompiledScript, clauses: readonly (readonly string[])[]): Selection {
  for (const clause of clauses) {
    if (script.quits.has(clause.join(' '))) return { kind: 'quit' };
    const words = clause.flatMap((word) => script.pre.get(word) ?? [word]);
    const keywords = rankedKeywords(script, words);
    if (keywords.length > 0) return { kind: 'clause', words, keywords };
  }
  return { kind: 'no-keyword' };
}

// ---------------------------------------------------------------------------
// Matching a decomposition pattern.

/**
 * Matches the whole of `words` against `tokens`, returning the words of each numbered part.
 * A wildcard tries its longest run first (as the regex-based and list-based ports do).
 * Failed (token, word) positions are remembered, so long inputs stay polynomial.
 */
function matchPattern(tokens: readonly PatternToken[], words: readonly string[]): MatchedParts | undefined {
  const failed = new Set<number>();
  const matchFrom = (tokenIndex: number, wordIndex: number): (readonly string[])[] | undefined => {
    if (tokenIndex === tokens.length) return wordIndex === words.length ? [] : undefined;
    const position = tokenIndex * (words.length + 1) + wordIndex;
    if (failed.has(position)) return undefined;
    const token = tokens[tokenIndex];
    if (token.kind === 'wildcard') {
      for (let end = words.length; end >= wordIndex; end--) {
        const rest = matchFrom(tokenIndex + 1, end);
        if (rest !== undefined) return [words.slice(wordIndex, end), ...rest];
      }
    } else if (wordIndex < words.length) {
      const word = words[wordIndex];
      const matches = token.kind === 'synonym' ? token.words.has(word) : token.word === word;
      const rest = matches ? matchFrom(tokenIndex + 1, wordIndex + 1) : undefined;
      if (rest !== undefined) return token.kind === 'synonym' ? [[word], ...rest] : rest;
    }
    failed.add(position);
    return undefined;
  };
  return matchFrom(0, 0);
}

// ---------------------------------------------------------------------------
// Choosing and filling in a reassembly.

/** Maps a number in [0, 1) to an index in [0, count), tolerating sources that stray outside that range. */
function scaleToIndex(randomNumber: number, count: number): number {
  const index = Math.floor(randomNumber * count);
  if (index >= count) return count - 1;
  return index >= 0 ? index : 0; // also catches NaN
}

function pickReassemblyIndex(count: number, lastIndex: number | undefined, choice: ReassemblyChoice): number {
  if (choice.kind === 'cycle') return lastIndex === undefined ? 0 : (lastIndex + 1) % count;
  if (lastIndex === undefined || count === 1) return scaleToIndex(choice.random(), count);
  // Draw among the other candidates so the same reply never comes twice in a row.
  const amongOthers = scaleToIndex(choice.random(), count - 1);
  return amongOthers >= lastIndex ? amongOthers + 1 : amongOthers;
}

function chooseReassembly(
  state: ElizaState,
  decomposition: CompiledDecomposition,
  choice: ReassemblyChoice,
): { readonly reassembly: Reassembly; readonly state: ElizaState } {
  const index = pickReassemblyIndex(decomposition.reassemblies.length, state.lastReassembly[decomposition.stateKey], choice);
  return {
    reassembly: decomposition.reassemblies[index],
    state: { ...state, lastReassembly: { ...state.lastReassembly, [decomposition.stateKey]: index } },
  };
}

/** Collapses spacing left by empty parts and capitalizes, so replies read as sentences. */
function tidy(reply: string): string {
  const spaced = reply.replace(/\s+/g, ' ').replace(/ ([?.!,])/g, '$1').trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

function reassemble(script: CompiledScript, template: string, parts: MatchedParts): string {
  const filled = template.replace(/\((\d+)\)/g, (_reference, part: string) =>
    (parts[Number(part) - 1] ?? []).map((word) => script.post.get(word) ?? word).join(' '),
  );
  return tidy(filled);
}

function remember(state: ElizaState, reply: string): ElizaState {
  return { ...state, memory: [...state.memory, reply].slice(-memoryCapacity) };
}

// ---------------------------------------------------------------------------
// Applying keywords.

interface Outcome {
  /** Undefined when no decomposition of the keyword (or of its redirect targets) produced a reply. */
  readonly reply: string | undefined;
  readonly state: ElizaState;
}

function applyKeyword(
  script: CompiledScript,
  keyword: CompiledKeyword,
  words: readonly string[],
  state: ElizaState,
  choice: ReassemblyChoice,
  redirectedFrom: readonly string[],
): Outcome {
  let current = state;
  for (const decomposition of keyword.decompositions) {
    const parts = matchPattern(decomposition.tokens, words);
    if (parts === undefined) continue;
    const chosen = chooseReassembly(current, decomposition, choice);
    current = chosen.state;
    const { reassembly } = chosen;
    if (typeof reassembly !== 'string') {
      const target = script.keywords.get(reassembly.goto);
      // The DOCTOR script has no redirect cycles; the guard keeps a faulty script from recursing forever.
      if (target === undefined || redirectedFrom.includes(target.word)) return { reply: undefined, state: current };
      return applyKeyword(script, target, words, current, choice, [...redirectedFrom, keyword.word]);
    }
    const reply = reassemble(script, reassembly, parts);
    if (!decomposition.memorize) return { reply, state: current };
    // A memorizing decomposition files its reply away and lets the next decomposition answer now.
    current = remember(current, reply);
  }
  return { reply: undefined, state: current };
}

function respondWithoutKeyword(script: CompiledScript, state: ElizaState, choice: ReassemblyChoice): Outcome {
  const [oldestMemory, ...laterMemories] = state.memory;
  if (oldestMemory !== undefined) return { reply: oldestMemory, state: { ...state, memory: laterMemories } };
  return applyKeyword(script, script.fallback, [], state, choice, []);
}

function respond(
  script: CompiledScript,
  state: ElizaState,
  input: string,
  choice: ReassemblyChoice,
): { reply: string; state: ElizaState } {
  const selection = selectClause(script, clausesOf(input));
  if (selection.kind === 'quit') return { reply: script.final, state };
  let current = state;
  if (selection.kind === 'clause') {
    for (const keyword of selection.keywords) {
      const outcome = applyKeyword(script, keyword, selection.words, current, choice, []);
      current = outcome.state;
      if (outcome.reply !== undefined) return { reply: outcome.reply, state: current };
    }
  }
  const fallback = respondWithoutKeyword(script, current, choice);
  return { reply: fallback.reply ?? lostForWords, state: fallback.state };
}

/**
 * ELIZA's reply to one user input, and the state to pass with the next input.
 * The given state is never modified. A quit word ("bye") gets the script's
 * farewell and leaves the state as it was.
 */
export function elizaRespond(
  state: ElizaState,
  input: string,
  choice: ReassemblyChoice,
): { reply: string; state: ElizaState } {
  return respond(doctor, state, input, choice);
}
