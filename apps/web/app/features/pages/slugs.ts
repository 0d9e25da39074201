/** The information pages of spec §2, /pages/{slug}; each has a Markdown file per locale in content/. */
export const PAGE_SLUGS = [
  "2257-compliance-statement",
  "ban",
  "cookies",
  "faq",
  "privacy",
  "return-policy",
  "service",
  "terms",
] as const;
export type PageSlug = (typeof PAGE_SLUGS)[number];

export const isPageSlug = (slug: string | undefined): slug is PageSlug =>
  slug !== undefined && (PAGE_SLUGS as readonly string[]).includes(slug);

/** The title message of each page (listed, not built from the slug, so every id is searchable). */
export const PAGE_TITLE_IDS: Record<PageSlug, string> = {
  "2257-compliance-statement": "pages.2257-compliance-statement.title",
  ban: "pages.ban.title",
  cookies: "pages.cookies.title",
  faq: "pages.faq.title",
  privacy: "pages.privacy.title",
  "return-policy": "pages.return-policy.title",
  service: "pages.service.title",
  terms: "pages.terms.title",
};
