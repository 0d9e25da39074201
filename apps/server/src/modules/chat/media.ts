import { GIFT_IDS, type Gif, type Gift, type MemberContext } from "@app/contract";
import type { Db } from "../../platform/db/index.ts";
import type { PhotoService } from "../photos/service.ts";
import type { ChatAudience } from "./audience.ts";
import type { GifCatalogue } from "./gifs/gif-source.ts";
import { giftOf } from "./presenting.ts";
import { visiblePhotoKey } from "./queries.ts";
import type { RetentionWindow } from "./retention.ts";

/** What a message may carry besides text: the gift catalogue, GIF search, and chat photos served per request. */
export class ChatMedia {
  constructor(
    private readonly db: Db,
    private readonly window: RetentionWindow,
    private readonly audience: Pick<ChatAudience, "listableTo">,
    private readonly photos: Pick<PhotoService, "chatPhoto">,
    private readonly gifs: Pick<GifCatalogue, "search">,
  ) {}

  /** GET /api/gifts.php: the catalogue in the picker's order, each at this site's gift_credits. */
  gifts(credits: number): { gifts: Gift[] } {
    return { gifts: GIFT_IDS.map((id) => ({ ...giftOf(id), credits })) };
  }

  /** GET /api/gifs.php: GIFs for `q` in the member's gifLocale, from the configured source. */
  searchGifs(q: string, gifLocale: string | undefined): Promise<{ gifs: Gif[]; provider: "local" | "giphy" | "tenor" }> {
    return this.gifs.search(q, gifLocale);
  }

  /**
   * GET /media/chat-photos/<id>.jpg: the photo's bytes for the two members of its conversation while
   * they can see the message (not deleted by them, within the window, no block, the other member
   * listable); null for anyone else, checked on every request.
   */
  async photo(member: Pick<MemberContext, "profileId"> | null, messageId: number): Promise<Buffer | null> {
    if (!member) return null;
    const me = member.profileId;
    const key = await visiblePhotoKey(this.db, me, messageId, this.window.cutoff(), this.audience.listableTo(me));
    return key ? this.photos.chatPhoto(key) : null;
  }
}
