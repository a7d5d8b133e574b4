/** `ToolLists`: the tool lists a client sent with an id, named by later requests instead of sent again. */
import { ResponseError } from 'vscode-jsonrpc/node.js';
import { ProtocolErrorCodes } from '../../src/protocol/errors.js';
import type { ToolDefinition } from '../../src/protocol/messages.js';
import { ToolLists } from '../../src/streams/tool-lists.js';

const tools = (...names: string[]): ToolDefinition[] => names.map((name) => ({ name, description: `the ${name} tool` }));

function unknownIn(lists: ToolLists, toolListId: number): ResponseError<unknown> {
  try {
    lists.resolve({ toolListId });
  } catch (error) {
    if (error instanceof ResponseError) return error;
    throw error;
  }
  throw new Error(`tool list ${toolListId} was known`);
}

describe('ToolLists', () => {
  test('options without an id pass as they are', () => {
    const lists = new ToolLists();
    const options = { tools: tools('a'), toolMode: 'auto' as const };
    expect(lists.resolve(options)).toBe(options);
    expect(lists.resolve(undefined)).toBeUndefined();
  });

  test('tools sent with an id are named by it later; tools sent again under an id replace the kept ones', () => {
    const lists = new ToolLists();
    lists.resolve({ tools: tools('a', 'b'), toolListId: 1 });
    expect(lists.resolve({ toolListId: 1, toolMode: 'required' })).toEqual({ tools: tools('a', 'b'), toolListId: 1, toolMode: 'required' });
    lists.resolve({ tools: tools('c'), toolListId: 1 });
    expect(lists.resolve({ toolListId: 1 })?.tools).toEqual(tools('c'));
  });

  test('an id nothing was sent under fails with UnknownToolList, naming the field', () => {
    const error = unknownIn(new ToolLists(), 3);
    expect(error.code).toBe(ProtocolErrorCodes.UnknownToolList);
    expect(error.message).toMatch(/^options\.toolListId: no tool list 3 /);
  });

  test('beyond the lists kept, the one unused longest is forgotten', () => {
    const lists = new ToolLists(2);
    lists.resolve({ tools: tools('a'), toolListId: 1 });
    lists.resolve({ tools: tools('b'), toolListId: 2 });
    lists.resolve({ toolListId: 1 });
    lists.resolve({ tools: tools('c'), toolListId: 3 });
    expect(lists.resolve({ toolListId: 1 })?.tools).toEqual(tools('a'));
    expect(lists.resolve({ toolListId: 3 })?.tools).toEqual(tools('c'));
    expect(unknownIn(lists, 2).code).toBe(ProtocolErrorCodes.UnknownToolList);
  });
});
