/**
 * A prompt's bridged tool calls on their way. An agent announces each call (`tool_call`) before or as it
 * makes it, and the call itself reaches the bridge's MCP server separately, in either order; once every
 * announced call has arrived, no other one is coming and VS Code can be shown them at once. Calls are
 * counted, not matched: an MCP call carries no ACP tool call id.
 */
export class BridgedCallArrivals {
  private readonly announced = new Set<string>();
  private arrived = 0;

  /** The agent announced a bridged call: true if every announced call has arrived (this one came first). */
  announce(toolCallId: string): boolean {
    if (this.announced.has(toolCallId)) return false;
    this.announced.add(toolCallId);
    return this.arrived === this.announced.size;
  }

  /** A bridged call arrived: true if it was the last announced one still on its way. */
  arrive(): boolean {
    this.arrived += 1;
    return this.arrived === this.announced.size;
  }
}
