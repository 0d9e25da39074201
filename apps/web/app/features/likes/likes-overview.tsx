import { LIKE_TYPES, type LikeCard, type LikeType } from "@app/contract";
import { useQuery } from "@tanstack/react-query";
import { Badge, Nav } from "react-bootstrap";
import { FormattedMessage, useIntl } from "react-intl";
import { Link } from "react-router";
import { errorMessage } from "../../lib/form-errors";
import { LoadFailed, Loading } from "../../ui/load-state";
import { PageLinks } from "../../ui/pagination";
import { ProfileGrid } from "../../ui/profile-card";
import { likesQuery } from "./api";

const TAB_LABELS: Record<LikeType, string> = {
  received: "likes.tab_received",
  sent: "likes.tab_sent",
  matches: "likes.tab_matches",
};
const COUNT_MESSAGES: Record<LikeType, string> = {
  received: "likes.count_received",
  sent: "likes.count_sent",
  matches: "likes.count_matches",
};
const EMPTY_MESSAGES: Record<LikeType, string> = {
  received: "likes.empty_received",
  sent: "likes.empty_sent",
  matches: "likes.empty_matches",
};

/** Where a tab's page lives: /likes/{type}, with ?page= after the first. */
export const likesHref = (type: LikeType, page = 1) => `/likes/${type}${page > 1 ? `?page=${page}` : ""}`;

/** The marks over a card's photo: "New" for a like not opened yet, "Match" where the like is mutual. */
function cardOf(card: LikeCard, type: LikeType) {
  return {
    href: `/likes/m/${card.id}`,
    mark: (
      <>
        {card.like_new ? (
          <Badge bg="danger" pill>
            <FormattedMessage id="likes.new" />
          </Badge>
        ) : null}
        {card.like === "match" && type !== "matches" ? (
          <Badge bg="light" text="dark" pill>
            <span aria-hidden="true">♥ </span>
            <FormattedMessage id="likes.match_mark" />
          </Badge>
        ) : null}
      </>
    ),
  };
}

/**
 * The likes overview (spec §2, §4): tabs for the likes received, sent and the matches, each with its
 * count; cards new ones first (the server's order), marked "New", leading to /likes/m/{id}; pages. The
 * list comes through the query cache, which like events invalidate (LikesProvider).
 */
export function LikesOverview({ type, page }: { type: LikeType; page: number }) {
  const intl = useIntl();
  const likes = useQuery(likesQuery(type, page));
  const counts = likes.data?.counts;
  return (
    <>
      <Nav variant="tabs" as="ul" className="mb-3" aria-label={intl.formatMessage({ id: "likes.tabs" })}>
        {LIKE_TYPES.map((tab) => (
          <Nav.Item as="li" key={tab}>
            <Nav.Link as={Link} to={likesHref(tab)} active={tab === type} aria-current={tab === type ? "page" : undefined}>
              <FormattedMessage id={TAB_LABELS[tab]} />
              {counts ? (
                <Badge bg="secondary" pill className="ms-2">
                  {intl.formatNumber(counts[tab])}
                </Badge>
              ) : null}
              {tab === "received" && counts && counts.new > 0 ? (
                <Badge bg="danger" pill className="ms-1">
                  <FormattedMessage id="likes.new_count" values={{ count: counts.new }} />
                </Badge>
              ) : null}
            </Nav.Link>
          </Nav.Item>
        ))}
      </Nav>
      {likes.isPending ? (
        <Loading>
          <FormattedMessage id="likes.loading" />
        </Loading>
      ) : likes.isError ? (
        <LoadFailed
          message={errorMessage(likes.error, intl)}
          retry={<FormattedMessage id="likes.retry" />}
          onRetry={() => void likes.refetch()}
        />
      ) : (
        <section aria-labelledby="likes-heading">
          <h2 id="likes-heading" className="h5 mb-3">
            <FormattedMessage id={COUNT_MESSAGES[type]} values={{ count: likes.data.counts[type] }} />
          </h2>
          {likes.data.profiles.length > 0 ? (
            <ProfileGrid profiles={likes.data.profiles} leading card={(card) => cardOf(card, type)} />
          ) : likes.data.counts[type] > 0 ? (
            <p className="text-body-secondary">
              <FormattedMessage
                id="likes.page_empty"
                values={{ first: (chunks) => <Link to={likesHref(type)}>{chunks}</Link> }}
              />
            </p>
          ) : (
            <p className="text-body-secondary">
              <FormattedMessage id={EMPTY_MESSAGES[type]} />
            </p>
          )}
          <PageLinks page={likes.data.page} pages={likes.data.pages} href={(target) => likesHref(type, target)} />
        </section>
      )}
    </>
  );
}
