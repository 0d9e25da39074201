import { readFile } from "node:fs/promises";
import {
  ENDPOINTS,
  GIFT_IDS,
  LOCALES,
  messagePhotoFieldsSchema,
  PHOTO_UPLOAD,
  parseRequest,
  type SendCosts,
  type Settings,
} from "@app/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../../platform/errors.ts";
import { handle, isId, memberOf } from "../../platform/http/endpoint.ts";
import { requestHost, requestLocale } from "../../platform/http/request-locale.ts";
import type { ProfileService } from "../profiles/service.ts";
import type { SiteService } from "../site/service.ts";
import { type GifCatalogue, localGifFile } from "./gifs/gif-source.ts";
import type { ChatService, SendRules } from "./service.ts";

/** Sends per client address (IPv6 per /64): far above a person typing, far below a script. */
export const SEND_LIMIT = { max: 120, timeWindow: "1 minute" };
/** GIF searches per client address: a picker searches as the member types. */
const GIF_SEARCH_LIMIT = { max: 120, timeWindow: "1 minute" };
/** The gift images and local GIFs change only with a release; a week in any cache. */
const LONG_CACHE = "public, max-age=604800";

/** What each kind of send costs (spec §9 settings), with the member's country's message price where set. */
export function sendCosts(settings: Settings, country: string | null): SendCosts {
  return {
    message: settings.message_credits,
    photo: settings.photo_credits,
    gift: settings.gift_credits,
    gif: settings.message_credits,
    minimum: (country && settings.minimum_message_costs[country as keyof typeof settings.minimum_message_costs]) || null,
  };
}

/** The rules of a send on this site (spec §9): the credits per kind and the longest text. */
export function sendRules(settings: Settings): SendRules {
  return { costs: sendCosts(settings, null), maxLength: settings.message_length };
}

/** The settings of the request's site (its rules: costs, message length) in the request's language. */
export const siteSettingsOf = (site: SiteService, request: FastifyRequest) =>
  site.settingsFor(requestHost(request), requestLocale(request));

/** This module's files (gift images, local GIFs), read once and kept: a few hundred kilobytes in all. */
const mediaFiles = new Map<string, Promise<Buffer>>();
function mediaFile(relative: string): Promise<Buffer> {
  let file = mediaFiles.get(relative);
  if (!file) {
    file = readFile(new URL(`./media/${relative}`, import.meta.url));
    mediaFiles.set(relative, file);
  }
  return file;
}

/** Chat (see the contract's chats.ts, decision 020): texts, gifts, GIFs and photos, and their media. */
export async function chatRoutes(
  app: FastifyInstance,
  {
    chat,
    site,
    profiles,
    gifs,
  }: { chat: ChatService; site: SiteService; profiles: Pick<ProfileService, "seekerOf">; gifs: Pick<GifCatalogue, "proxied"> },
): Promise<void> {
  const settingsOf = (request: FastifyRequest) => siteSettingsOf(site, request);

  handle(app, ENDPOINTS.chats, async ({ member }) => chat.list(member));

  handle(app, ENDPOINTS.chat, async ({ request, member, query }) => {
    const [settings, own] = await Promise.all([settingsOf(request), profiles.seekerOf(member.userId)]);
    // Spec §9: the price of a message in the member's own (profile) country, shown in the footer.
    return chat.open(member, query.id, query.before, sendCosts(settings, own?.country ?? null));
  });

  handle(app, ENDPOINTS.deleteChat, async ({ member, query }) => chat.remove(member, query.id));

  handle(
    app,
    ENDPOINTS.message,
    async ({ request, member, body }) => {
      const settings = await settingsOf(request);
      // The answer carries the new balance; this request reads the member context no further.
      return chat.send(member, body, sendRules(settings));
    },
    { rateLimit: SEND_LIMIT },
  );

  handle(
    app,
    ENDPOINTS.messagePhoto,
    async ({ request, member }) => {
      if (!request.isMultipart()) throw new AppError("unsupported_media_type");
      // The fields may come before or after the file: read every part, the file into memory up to the limit.
      const fields: Record<string, string> = {};
      let file: Buffer | null = null;
      try {
        for await (const part of request.parts({ limits: { files: 1, fields: 5, fileSize: PHOTO_UPLOAD.maxBytes } })) {
          if (part.type === "field") {
            if (typeof part.value === "string") fields[part.fieldname] = part.value;
          } else if (part.fieldname === "file") {
            file = await part.toBuffer();
            if (part.file.truncated) throw new AppError("photo_too_large");
          } else {
            await part.toBuffer();
          }
        }
      } catch (error) {
        if (error instanceof AppError) throw error;
        const code = (error as { code?: string }).code;
        throw new AppError(code === "FST_REQ_FILE_TOO_LARGE" ? "photo_too_large" : "photo_invalid");
      }
      const input = parseRequest(messagePhotoFieldsSchema, fields);
      if (!file) throw new AppError("photo_invalid");
      return chat.sendPhoto(member, input, file, sendRules(await settingsOf(request)));
    },
    { rateLimit: SEND_LIMIT },
  );

  handle(app, ENDPOINTS.gifts, async ({ request }) => chat.gifts((await settingsOf(request)).gift_credits));

  handle(
    app,
    ENDPOINTS.gifs,
    async ({ member, query }) => {
      const gifLocale = query.locale ?? LOCALES.find((locale) => locale.code === member.locale)?.gifLocale;
      return chat.searchGifs(query.q, gifLocale);
    },
    { rateLimit: GIF_SEARCH_LIMIT },
  );

  const sendMedia = (reply: FastifyReply, type: string, cache: string, bytes: Buffer) =>
    reply.header("content-type", type).header("cache-control", cache).send(bytes);

  app.get<{ Params: { file: string } }>("/media/gifts/:file", async (request, reply) => {
    const id = /^([a-z]+)\.svg$/.exec(request.params.file)?.[1];
    if (!id || !(GIFT_IDS as readonly string[]).includes(id)) throw new AppError("not_found");
    return sendMedia(reply, "image/svg+xml", LONG_CACHE, await mediaFile(`gifts/${id}.svg`));
  });

  app.get<{ Params: { file: string } }>("/media/gifs/:file", async (request, reply) => {
    const file = localGifFile(request.params.file);
    if (!file) throw new AppError("not_found");
    return sendMedia(reply, "image/gif", LONG_CACHE, await mediaFile(`gifs/${file}`));
  });

  // A provider's GIF through us (decision 020): members only, that provider's hosts only.
  app.get<{ Params: { token: string } }>("/media/gif-proxy/:token", async (request, reply) => {
    if (!(await memberOf(request))) throw new AppError("not_found");
    const media = await gifs.proxied(request.params.token);
    if (!media) throw new AppError("not_found");
    return sendMedia(reply, media.contentType, "private, max-age=86400", media.bytes);
  });

  // A chat photo: only the conversation's two members, checked on every request (decision 020).
  app.get<{ Params: { file: string } }>("/media/chat-photos/:file", async (request, reply) => {
    const id = Number(/^(\d{1,10})\.jpg$/.exec(request.params.file)?.[1]);
    if (!isId(id)) throw new AppError("not_found");
    const bytes = await chat.photo(await memberOf(request), id);
    if (!bytes) throw new AppError("not_found");
    return sendMedia(reply.header("vary", "cookie"), "image/jpeg", "private, max-age=300", bytes);
  });
}
