import type { BanNotice } from "@app/contract";
import type { IntlShape } from "react-intl";

/** The ban notice's texts, worded on the server in the page's language (the member's). */
export interface BanNoticeText {
  title: string;
  reason: string;
  until: string;
  contact: string;
}

/** The end as a date and time in the page's language (UTC, and says so: the server knows no time zone). */
export function banNoticeText(notice: BanNotice, intl: IntlShape): BanNoticeText {
  const reason = intl.formatMessage({ id: `moderation.ban_reason.${notice.reason}` });
  const date = notice.ends_at
    ? intl.formatDate(notice.ends_at, {
        year: "numeric",
        month: "long",
        day: "numeric",
        hour: "2-digit",
        minute: "2-digit",
        timeZone: "UTC",
        timeZoneName: "short",
      })
    : null;
  return {
    title: intl.formatMessage({ id: "moderation.ban.title" }),
    reason: intl.formatMessage({ id: "moderation.ban.reason" }, { reason }),
    until: date
      ? intl.formatMessage({ id: "moderation.ban.until" }, { date })
      : intl.formatMessage({ id: "moderation.ban.permanent" }),
    contact: intl.formatMessage({ id: "moderation.ban.contact" }),
  };
}

/** Above the ban policy, for the browser of a banned member (issue #27): why, and until when. */
export function BanNoticeAlert({ text }: { text: BanNoticeText }) {
  return (
    <section className="alert alert-danger mb-4" aria-labelledby="ban-notice-title" data-testid="ban-notice">
      <h2 id="ban-notice-title" className="h4">
        {text.title}
      </h2>
      <p className="mb-1">{text.reason}</p>
      <p className="mb-1">{text.until}</p>
      <p className="mb-0">
        <a href="/complaints" className="alert-link">
          {text.contact}
        </a>
      </p>
    </section>
  );
}
