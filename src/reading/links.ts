import { findUrls, joinWrappedLinks } from "./text.js";

// Finding a bank's receipt link in receipt text, shared by the receipt-text parsers of several banks.

/** Every URL of the text on one of `hosts` (http upgraded: SMS previews sometimes drop the s). */
export function bankUrls(text: string, hosts: readonly string[]): string[] {
  const urls: string[] = [];
  for (const raw of findUrls(text)) {
    const url = raw.replace(/^http:/i, "https:");
    try {
      if (hosts.includes(new URL(url).hostname.toLowerCase())) urls.push(url);
    } catch {
      // not a URL after all
    }
  }
  return urls;
}

/** The first link on one of `hosts` that `parse` accepts (a feedback link on the same host is not one). */
export function firstBankLink<T>(
  text: string,
  hosts: readonly string[],
  parse: (url: URL) => T | null,
): { url: string; link: T } | null {
  for (const url of bankUrls(text, hosts)) {
    const link = parse(new URL(url));
    if (link) return { url, link };
  }
  return null;
}

/**
 * The links `pattern` finds that `parse` accepts, in order, rejoined across line breaks first. The pattern may match a link without its scheme
 * (a phone's address bar drops it): such a link is given https. Trailing punctuation of prose is dropped.
 */
export function schemelessLinks<T>(
  text: string,
  pattern: RegExp,
  parse: (url: URL) => T | null,
): { url: string; link: T }[] {
  const links: { url: string; link: T }[] = [];
  const joined = joinWrappedLinks(text);
  const matches =
    joined === text ? [...text.matchAll(pattern)] : [...joined.matchAll(pattern), ...text.matchAll(pattern)];
  for (const match of matches) {
    const printed = match[0].replace(/[.,;:!?)\]}>'"]+$/, "");
    const url = /^https?:\/\//i.test(printed) ? printed : `https://${printed}`;
    try {
      const link = parse(new URL(url));
      if (link && !links.some((found) => found.url === url)) links.push({ url, link });
    } catch {
      // not a URL after all
    }
  }
  return links;
}

/** Whether the text links to `domain` or one of its subdomains, or holds the bank's scheme-less link `bare`. */
export function mentionsHost(text: string, domain: string, bare: RegExp): boolean {
  if (bare.test(text)) return true;
  return findUrls(text).some((raw) => {
    try {
      const host = new URL(raw).hostname.toLowerCase();
      return host === domain || host.endsWith(`.${domain}`);
    } catch {
      return false;
    }
  });
}

export interface ShareLinkRules {
  /** The adapter's reading of a full link; null for a link that is not the bank's receipt. */
  parse: (url: URL) => { transactionNumber: string } | null;
  /** The link without its scheme (a phone's address bar), the reference in group 1. */
  bare: RegExp;
  /** The reference repaired from OCR confusions, or null when it cannot be one. */
  repair: (reference: string) => string | null;
  /** The bank's own link to a reference, for a reference the text did not print as a whole link. */
  canonical: (reference: string) => string;
}

/** The receipt link: a full https link the adapter accepts, else a scheme-less one from an address bar. */
export function findShareLink(
  text: string,
  rules: ShareLinkRules,
): { reference: string; url: string } | null {
  for (const raw of findUrls(text)) {
    let share: { transactionNumber: string } | null = null;
    try {
      share = rules.parse(new URL(raw));
    } catch {
      // not a URL after all
    }
    // A link whose reference cannot be one (a join with a stray word, OCR noise) is not the receipt's.
    const reference = share ? rules.repair(share.transactionNumber) : null;
    if (!share || !reference) continue;
    return { reference, url: reference === share.transactionNumber ? raw : rules.canonical(reference) };
  }
  const bare = rules.bare.exec(joinWrappedLinks(text))?.[1] ?? rules.bare.exec(text)?.[1];
  const reference = bare ? rules.repair(bare) : null;
  return reference ? { reference, url: rules.canonical(reference) } : null;
}

/** The text without its links (and without the scheme-less link `bare`), so that no reference is read from them. */
export function withoutLinks(text: string, bare?: RegExp): string {
  const rest = text.replace(/https?:\/\/\S+/gi, " ");
  return bare ? rest.replace(new RegExp(bare.source, "gi"), " ") : rest;
}
