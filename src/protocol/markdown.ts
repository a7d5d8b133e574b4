/** Text that markdown shows as it is, inline: no code span, emphasis (`mcp__server__tool`), link, tag, strike or table cell. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>~|]/g, (c) => `\\${c}`);
}
