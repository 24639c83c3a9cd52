import type { MessageEntity } from "grammy/types";
import type { VerificationEngine } from "../src/engine/index.js";
import { BadRequestError, ValidationError } from "../src/errors.js";

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

/**
 * The first link that is a bank's receipt link. Bank SMS also carry feedback and app links; those are not
 * receipts and are passed over.
 */
export function receiptLinkAmong(links: readonly string[], engine: VerificationEngine): string | null {
  for (const link of links) {
    try {
      engine.parseReceiptUrl(link);
      return link;
    } catch (error) {
      if (!(error instanceof ValidationError || error instanceof BadRequestError)) throw error;
    }
  }
  return null;
}
