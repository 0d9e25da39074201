import type { ResellTile } from "@app/contract";
import { FormattedMessage } from "react-intl";

const TITLES: Record<ResellTile["kind"], string> = { camera: "resell.camera_title", resell: "resell.resell_title" };
const BODIES: Record<ResellTile["kind"], string> = { camera: "resell.camera_body", resell: "resell.resell_body" };

function CameraGlyph() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M3 7a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v2.5l4.2-2.8A.5.5 0 0 1 21 7.1v9.8a.5.5 0 0 1-.8.4L16 14.5V17a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V7Z" />
    </svg>
  );
}

function HeartsGlyph() {
  return (
    <svg viewBox="0 0 24 24" width="28" height="28" fill="currentColor" aria-hidden="true" focusable="false">
      <path d="M8.5 4C6 4 4 6 4 8.6c0 4.4 5.6 8.1 7.6 9.3a.8.8 0 0 0 .8 0c2-1.2 7.6-4.9 7.6-9.3C20 6 18 4 15.5 4c-1.5 0-2.8.8-3.5 2-.7-1.2-2-2-3.5-2Z" />
    </svg>
  );
}

/**
 * The camera/resell tiles of the profile settings screen (spec §2), shown when the site turns
 * settings.member_resell on. They are plain links to the partners the site configured: nothing about
 * the member is passed on, and they open in a new tab, marked as sponsored.
 */
export function ResellTiles({ tiles }: { tiles: ResellTile[] }) {
  if (tiles.length === 0) return null;
  return (
    <section className="mt-5" aria-labelledby="resell-heading">
      <h2 id="resell-heading" className="h4 mb-3">
        <FormattedMessage id="resell.heading" />
      </h2>
      <ul className="row row-cols-1 row-cols-md-2 g-3 list-unstyled">
        {tiles.map((tile) => (
          <li key={`${tile.kind}-${tile.url}`} className="col">
            <div className={`card h-100 resell-tile resell-tile-${tile.kind}`}>
              <div className="card-body d-flex gap-3">
                <span className="resell-tile-icon">{tile.kind === "camera" ? <CameraGlyph /> : <HeartsGlyph />}</span>
                <div>
                  <h3 className="h6 mb-1">
                    <FormattedMessage id={TITLES[tile.kind]} />
                  </h3>
                  <p className="small text-body-secondary mb-2">
                    <FormattedMessage id={BODIES[tile.kind]} values={{ partner: tile.partner }} />
                  </p>
                  <a href={tile.url} target="_blank" rel="noopener noreferrer sponsored" className="stretched-link">
                    <FormattedMessage id="resell.visit" values={{ partner: tile.partner }} />
                    <span className="visually-hidden">
                      {" "}
                      <FormattedMessage id="resell.new_tab" />
                    </span>
                  </a>
                </div>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
