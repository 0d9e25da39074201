import type { TeaserProfile } from "@app/contract";
import type { Db } from "../../platform/db/index.ts";
import type { AccountService } from "../accounts/service.ts";
import type { PhotoService } from "../photos/service.ts";
import { insertProfile, isPublicProfile, type NewProfile, type ProfileRow, teaserProfiles } from "./queries.ts";

export class ProfileService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountService,
    private readonly photos: PhotoService,
  ) {}

  /** Newest visible profiles with a public main image, as a visitor may see them. */
  async teaser(options: { limit: number; countries: readonly string[] }): Promise<TeaserProfile[]> {
    const rows = await teaserProfiles(this.db, {
      limit: options.limit,
      countries: options.countries,
      visibleUser: this.accounts.visibleUserIds(),
      withPhoto: this.photos.profilesWithPublicMain(),
    });
    const images = await this.photos.mainImages(rows.map((r) => r.id));
    return rows.map((row) => {
      const image = images.get(row.id);
      return {
        ...row,
        main_image:
          image && image.status === "active"
            ? { thumb_url: this.photos.urlOf(image.thumb_filename), status: image.status }
            : null,
      };
    });
  }

  /** Active profile of a visible member: what a visitor may see at all. */
  isPublic(profileId: number): Promise<boolean> {
    return isPublicProfile(this.db, profileId, this.accounts.visibleUserIds());
  }

  create(row: NewProfile): Promise<ProfileRow> {
    return insertProfile(this.db, row);
  }
}
