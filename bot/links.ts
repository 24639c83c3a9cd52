import type { MessageEntity } from "grammy/types";

/** Every link in a message: its URL entities (with or without a scheme), hidden text links, then bare text. */
export function linksIn(text: string, entities: readonly MessageEntity[] = []): string[] {
  const found: string[] = [];
  for (const entity of entities) {
    if (entity.type === "text_link") found.push(entity.url);
    if (entity.type === "url") found.push(text.slice(entity.offset, entity.offset + entity.length));
  }
  // Bare links lose the punctuation that ends their sentence ("…/receipt/DFH51OFIED.").
  for (const match of text.match(/https?:\/\/[^\s<>"']+/gi) ?? [])
    found.push(match.replace(/[.,;:!?)\]]+$/, ""));
  const withScheme = found.map((link) => (/^https?:\/\//i.test(link) ? link : `https://${link}`));
  return [...new Set(withScheme)];
}
