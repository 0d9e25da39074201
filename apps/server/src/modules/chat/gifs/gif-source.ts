import { GIF_PAGE_SIZE, type Gif, isLocaleCode, type LocaleCode } from "@app/contract";
import { LOCAL_GIF_SIZE, LOCAL_GIFS } from "./catalogue.ts";

/** Where GIF search and look-up go (decision 020): the embedded catalogue, or GIPHY or Tenor with a key. */
export interface GifSource {
  readonly provider: "local" | "giphy" | "tenor";
  /** Up to GIF_PAGE_SIZE GIFs for `q` in the member's `gifLocale` (e.g. nl_NL); an empty `q`: featured. */
  search(q: string, gifLocale: string | undefined): Promise<Gif[]>;
  /** The GIF with this id, as a message stores it; null when there is none. */
  find(id: string): Promise<Gif | null>;
}

/** The path our server answers a local GIF's file on. */
export const LOCAL_GIF_PATH = "/media/gifs/";
/** The path of the media proxy: the client never contacts a provider itself (privacy, CSP). */
export const GIF_PROXY_PATH = "/media/gif-proxy/";

/** Lower case without accents, so "Cafe" finds "café" and "milosc" finds "miłość". */
export function foldForSearch(value: string): string {
  return value
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .replace(/ł/g, "l")
    .replace(/ø/g, "o")
    .replace(/ß/g, "ss")
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/[’']/g, "'")
    .trim();
}

/** The interface language of a gifLocale ("nl_NL" → nl), English when it is none of ours. */
export function languageOf(gifLocale: string | undefined): LocaleCode {
  const code = gifLocale?.slice(0, 2) ?? "en";
  return isLocaleCode(code) ? code : "en";
}

/**
 * The embedded catalogue: a case- and accent-insensitive substring search over the tags of the
 * member's language and English (many members type English words whatever their language).
 */
export class LocalGifSource implements GifSource {
  readonly provider = "local" as const;
  private readonly folded = LOCAL_GIFS.map((entry) => ({
    entry,
    tags: Object.fromEntries(Object.entries(entry.tags).map(([locale, tags]) => [locale, tags.map(foldForSearch)])) as Record<
      LocaleCode,
      string[]
    >,
  }));

  async search(q: string, gifLocale: string | undefined): Promise<Gif[]> {
    const query = foldForSearch(q);
    const language = languageOf(gifLocale);
    const found = query
      ? this.folded.filter(({ tags }) => [...tags[language], ...tags.en].some((tag) => tag.includes(query)))
      : this.folded;
    return found.slice(0, GIF_PAGE_SIZE).map(({ entry }) => presentLocal(entry.id, entry.title));
  }

  async find(id: string): Promise<Gif | null> {
    const entry = LOCAL_GIFS.find((gif) => gif.id === id);
    return entry ? presentLocal(entry.id, entry.title) : null;
  }
}

function presentLocal(id: string, title: string): Gif {
  const url = `${LOCAL_GIF_PATH}${id.replace(/^local-/, "")}.gif`;
  return { id, title, url, preview_url: url, width: LOCAL_GIF_SIZE, height: LOCAL_GIF_SIZE };
}

/** A local GIF's file name (`hello.gif`) when it is one of the catalogue's, for the route serving them. */
export function localGifFile(name: string): string | null {
  return LOCAL_GIFS.some((gif) => `${gif.id.replace(/^local-/, "")}.gif` === name) ? name : null;
}

/** A provider's media URL as our proxy's path (base64url of the URL). */
export function proxyPath(url: string): string {
  return GIF_PROXY_PATH + Buffer.from(url, "utf8").toString("base64url");
}

/** The provider URL behind a proxy path's token, or null when it is not one. */
export function proxiedUrl(token: string): URL | null {
  if (!/^[A-Za-z0-9_-]{8,2000}$/.test(token)) return null;
  const url = Buffer.from(token, "base64url").toString("utf8");
  return URL.canParse(url) ? new URL(url) : null;
}

export interface ProviderOptions {
  apiKey: string;
  /** The API's base URL (GIPHY https://api.giphy.com, Tenor https://tenor.googleapis.com); tests point it at a local server. */
  apiUrl: string;
  /** Per API request. */
  timeoutMs?: number;
}

/** Provider ids are short letters, digits, `-` and `_`; anything else is not looked up. */
const PROVIDER_ID = /^[A-Za-z0-9_-]{1,100}$/;

abstract class ProviderSource implements GifSource {
  abstract readonly provider: "giphy" | "tenor";
  /** The provider's own media hosts (the API host of a test server counts too). */
  protected abstract readonly mediaDomain: string;
  protected readonly apiUrl: string;
  protected readonly timeoutMs: number;

  constructor(protected readonly options: ProviderOptions) {
    this.apiUrl = options.apiUrl.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? 5_000;
  }

  abstract search(q: string, gifLocale: string | undefined): Promise<Gif[]>;
  abstract find(id: string): Promise<Gif | null>;

  /**
   * Whether the proxy may fetch this URL: https on the provider's own domain, or the configured API
   * host itself (a test or self-hosted stand-in). Nothing else: the proxy is no open relay.
   */
  mayProxy(url: URL): boolean {
    const apiHost = new URL(this.apiUrl);
    if (url.host === apiHost.host && url.protocol === apiHost.protocol) return true;
    const host = url.hostname.toLowerCase();
    return url.protocol === "https:" && (host === this.mediaDomain || host.endsWith(`.${this.mediaDomain}`));
  }

  protected async getJson(path: string, params: Record<string, string>): Promise<{ status: number; body: unknown }> {
    const url = `${this.apiUrl}${path}?${new URLSearchParams(params).toString()}`;
    const response = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs), redirect: "error" });
    const body = response.ok ? await response.json() : await response.body?.cancel();
    return { status: response.status, body };
  }

  protected gif(id: string, title: string, full: Media | undefined, preview: Media | undefined): Gif | null {
    if (!full || !this.mayProxyString(full.url)) return null;
    const small = preview && this.mayProxyString(preview.url) ? preview : full;
    const width = Math.round(Number(full.width));
    const height = Math.round(Number(full.height));
    if (!(width > 0 && height > 0)) return null;
    return { id, title: title.slice(0, 200), url: proxyPath(full.url), preview_url: proxyPath(small.url), width, height };
  }

  private mayProxyString(url: string): boolean {
    return URL.canParse(url) && this.mayProxy(new URL(url));
  }
}

interface Media {
  url: string;
  width: number | string;
  height: number | string;
}

interface GiphyItem {
  id?: string;
  title?: string;
  images?: Record<string, Media | undefined>;
}

/** GIPHY (https://developers.giphy.com/docs/api/endpoint): search, trending and look-up by id. */
export class GiphySource extends ProviderSource {
  readonly provider = "giphy" as const;
  protected readonly mediaDomain = "giphy.com";

  private present(item: GiphyItem): Gif | null {
    if (!item.id || !PROVIDER_ID.test(item.id)) return null;
    return this.gif(item.id, item.title ?? "", item.images?.fixed_height, item.images?.fixed_height_small);
  }

  async search(q: string, gifLocale: string | undefined): Promise<Gif[]> {
    const common = { api_key: this.options.apiKey, limit: String(GIF_PAGE_SIZE), rating: "pg-13" };
    const { status, body } = q
      ? await this.getJson("/v1/gifs/search", { ...common, q, lang: languageOf(gifLocale) })
      : await this.getJson("/v1/gifs/trending", common);
    if (status !== 200) throw new Error(`GIPHY answered ${status}`);
    const items = (body as { data?: GiphyItem[] }).data ?? [];
    return items.flatMap((item) => this.present(item) ?? []).slice(0, GIF_PAGE_SIZE);
  }

  async find(id: string): Promise<Gif | null> {
    if (!PROVIDER_ID.test(id)) return null;
    const { status, body } = await this.getJson(`/v1/gifs/${id}`, { api_key: this.options.apiKey });
    if (status === 404 || status === 400) return null;
    if (status !== 200) throw new Error(`GIPHY answered ${status}`);
    const item = (body as { data?: GiphyItem }).data;
    return item ? this.present(item) : null;
  }
}

interface TenorItem {
  id?: string;
  content_description?: string;
  media_formats?: Record<string, { url: string; dims?: [number, number] } | undefined>;
}

/** Tenor v2 (https://developers.google.com/tenor/guides/endpoints): search, featured and posts by id. */
export class TenorSource extends ProviderSource {
  readonly provider = "tenor" as const;
  protected readonly mediaDomain = "tenor.com";

  private present(item: TenorItem): Gif | null {
    if (!item.id || !PROVIDER_ID.test(item.id)) return null;
    const media = (name: string): Media | undefined => {
      const format = item.media_formats?.[name];
      return format?.dims ? { url: format.url, width: format.dims[0], height: format.dims[1] } : undefined;
    };
    return this.gif(item.id, item.content_description ?? "", media("gif"), media("tinygif"));
  }

  async search(q: string, gifLocale: string | undefined): Promise<Gif[]> {
    const common = {
      key: this.options.apiKey,
      limit: String(GIF_PAGE_SIZE),
      media_filter: "gif,tinygif",
      contentfilter: "medium",
      locale: gifLocale ?? "en_US",
    };
    const { status, body } = q ? await this.getJson("/v2/search", { ...common, q }) : await this.getJson("/v2/featured", common);
    if (status !== 200) throw new Error(`Tenor answered ${status}`);
    const items = (body as { results?: TenorItem[] }).results ?? [];
    return items.flatMap((item) => this.present(item) ?? []).slice(0, GIF_PAGE_SIZE);
  }

  async find(id: string): Promise<Gif | null> {
    if (!PROVIDER_ID.test(id)) return null;
    const { status, body } = await this.getJson("/v2/posts", { key: this.options.apiKey, ids: id, media_filter: "gif,tinygif" });
    if (status !== 200) throw new Error(`Tenor answered ${status}`);
    const item = (body as { results?: TenorItem[] }).results?.[0];
    return item ? this.present(item) : null;
  }
}

/** A GIF the media proxy answers: its bytes and type. */
export interface ProxiedMedia {
  bytes: Buffer;
  contentType: string;
}

/** The most the media proxy reads of one file (a provider's GIFs in our sizes are far smaller). */
export const GIF_PROXY_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Fetches a provider's media for the proxy: only from that provider's hosts, no redirects (they could
 * leave those hosts), images only, within a timeout and GIF_PROXY_MAX_BYTES. Null when refused or failed.
 */
export async function fetchProxied(source: GifSource, url: URL, timeoutMs = 10_000): Promise<ProxiedMedia | null> {
  if (!(source instanceof ProviderSource) || !source.mayProxy(url)) return null;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
  } catch {
    return null;
  }
  const contentType = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!response.ok || !/^image\/(gif|webp|png|jpeg)$/.test(contentType) || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (Number(response.headers.get("content-length") ?? 0) > GIF_PROXY_MAX_BYTES) {
    await response.body.cancel().catch(() => undefined);
    return null;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      size += chunk.byteLength;
      if (size > GIF_PROXY_MAX_BYTES) {
        await response.body.cancel().catch(() => undefined);
        return null;
      }
      chunks.push(chunk);
    }
  } catch {
    return null;
  }
  return { bytes: Buffer.concat(chunks), contentType };
}

/** The configured source: GIPHY, else Tenor, when its key is set; the embedded catalogue otherwise. */
export function openGifSource(config: {
  GIPHY_API_KEY?: string | undefined;
  GIPHY_API_URL: string;
  TENOR_API_KEY?: string | undefined;
  TENOR_API_URL: string;
}): GifSource {
  if (config.GIPHY_API_KEY) return new GiphySource({ apiKey: config.GIPHY_API_KEY, apiUrl: config.GIPHY_API_URL });
  if (config.TENOR_API_KEY) return new TenorSource({ apiKey: config.TENOR_API_KEY, apiUrl: config.TENOR_API_URL });
  return new LocalGifSource();
}

/**
 * What chat asks: the configured source, with the embedded catalogue behind it. A provider that fails
 * (down, slow, over its quota) makes the search answer the local catalogue instead of an error, and
 * local ids (`local-…`) stay sendable whatever is configured.
 */
export class GifCatalogue {
  private readonly local = new LocalGifSource();

  constructor(
    readonly source: GifSource,
    private readonly log: { error(obj: unknown, msg?: string): void } = console,
  ) {}

  async search(q: string, gifLocale: string | undefined): Promise<{ gifs: Gif[]; provider: GifSource["provider"] }> {
    if (this.source.provider !== "local") {
      try {
        return { gifs: await this.source.search(q, gifLocale), provider: this.source.provider };
      } catch (err) {
        this.log.error({ err }, "GIF provider search failed; answering the local catalogue");
      }
    }
    return { gifs: await this.local.search(q, gifLocale), provider: "local" };
  }

  async find(id: string): Promise<Gif | null> {
    if (id.startsWith("local-") || this.source.provider === "local") return this.local.find(id);
    try {
      return await this.source.find(id);
    } catch (err) {
      this.log.error({ err }, "GIF provider look-up failed");
      return null;
    }
  }

  /** The provider media behind a proxy token, when the configured provider's hosts serve it. */
  async proxied(token: string): Promise<ProxiedMedia | null> {
    const url = proxiedUrl(token);
    return url ? fetchProxied(this.source, url) : null;
  }
}
