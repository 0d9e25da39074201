import type { TeaserProfile } from "@app/contract";
import type { Db } from "../../platform/db/index.ts";
import type { AccountService } from "../accounts/service.ts";
import type { PhotoService } from "../photos/service.ts";
import { insertProfile, type NewProfile, type ProfileRow, teaserProfiles } from "./queries.ts";

export class ProfileService {
  constructor(
    private readonly db: Db,
    private readonly accounts: AccountService,
    private readonly photos: PhotoService,
  ) {}

  /** Newest visible profiles with a public main image, as a visitor may see them. */
  async teaser(options: { limit: number; country: string | null }): Promise<TeaserProfile[]> {
    const rows = await teaserProfiles(this.db, {
      limit: options.limit,
      country: options.country,
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

  create(row: NewProfile): Promise<ProfileRow> {
    return insertProfile(this.db, row);
  }
}
