import { FormattedMessage } from "react-intl";
import { loadLander } from "../../features/landers/load.server";
import { servicesContext } from "../../server-context";
import type { Route } from "./+types/iconslanding";
import { LanderFooter, LanderHead, landerHandle, MemberPhoto, SignupCta } from "./kit";

export const handle = landerHandle;

/** /landers/iconslanding/{slug?}: four features, each with an inline SVG icon, over a strip of photos. */
export function loader({ context, request, params }: Route.LoaderArgs) {
  return loadLander(context.get(servicesContext), request, "iconslanding", params.slug);
}

const ICONS = {
  free: "M12 2l2.9 6.3 6.9.7-5.2 4.6 1.5 6.8L12 17l-6.1 3.4 1.5-6.8L2.2 9l6.9-.7L12 2z",
  private:
    "M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 0 1 6 0v3H9z",
  chat: "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z",
  match: "M12 21s-7.5-4.6-9.5-9.2C1 8.3 3.2 4.5 7 4.5c2 0 3.5 1.2 5 3 1.5-1.8 3-3 5-3 3.8 0 6 3.8 4.5 7.3C19.5 16.4 12 21 12 21z",
} as const;

const FEATURES = [
  ["free", "lander.iconslanding.free_title", "lander.iconslanding.free_body"],
  ["private", "lander.iconslanding.private_title", "lander.iconslanding.private_body"],
  ["chat", "lander.iconslanding.chat_title", "lander.iconslanding.chat_body"],
  ["match", "lander.iconslanding.match_title", "lander.iconslanding.match_body"],
] as const;

export default function IconsLanding({ loaderData: data }: Route.ComponentProps) {
  return (
    <div className="ld ld-icons">
      <LanderHead data={data} />
      <header className="ld-head">
        <h1>{data.headline}</h1>
        <p className="ld-lead">
          <FormattedMessage id="lander.iconslanding.lead" />
        </p>
        <SignupCta />
      </header>
      <ul className="ld-features">
        {FEATURES.map(([icon, title, body]) => (
          <li key={icon}>
            <svg viewBox="0 0 24 24" width="40" height="40" aria-hidden="true" focusable="false">
              <path d={ICONS[icon]} fill="currentColor" />
            </svg>
            <h2>
              <FormattedMessage id={title} />
            </h2>
            <p>
              <FormattedMessage id={body} />
            </p>
          </li>
        ))}
      </ul>
      <ul className="ld-strip">
        {data.profiles.slice(0, 6).map((profile) => (
          <li key={profile.id}>
            <MemberPhoto profile={profile} />
          </li>
        ))}
      </ul>
      <LanderFooter profiles={data.profiles} />
    </div>
  );
}
