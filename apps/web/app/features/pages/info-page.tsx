import type { ReactNode } from "react";
import { PageTitle } from "../../ui/page-title";

/**
 * One information page: its heading and the HTML rendered from our own Markdown files on the server.
 * The HTML comes only from content/ in this repository (never from members' input), so it is set as is.
 */
export function InfoPage({ title, html, notice }: { title: string; html: string; notice?: ReactNode }) {
  return (
    <div className="container py-4" style={{ maxWidth: 820 }}>
      <PageTitle title={title} />
      {notice}
      <h1 className="mb-4">{title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own Markdown, rendered on the server */}
      <article className="info-page" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
